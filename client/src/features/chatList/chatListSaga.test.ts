import { expect } from 'chai';
import sinon from 'sinon';
import { api, type ChatSummary } from '@common/api';
import { topics } from '@common/destinations';
import { logoutRequested } from '../auth';
import { eventually, FakeHttp, refuse, settle } from '../../app/fakeServices';
import { createChatTestStore } from '../../app/chatFakes.test-support';
import { chatListClosed, chatListOpened, selectChats } from './chatListSlice';

const ME = { userId: 4, name: '김민지', email: 'minji@example.com' };
const ROOMS: ChatSummary[] = [
  { chatRoomId: 1, chatRoomName: '김민지, 김철수', lastMessage: '안녕', lastMessageTime: '2026-11-21T10:00:00.000Z', lastReadAt: null },
];

function routes(chats: () => ChatSummary[] = () => ROOMS) {
  return new FakeHttp({
    [`GET ${api.userId}`]: () => ({ userId: ME.userId }),
    [`GET ${api.nameAndEmail}`]: () => ({ name: ME.name, email: ME.email }),
    [`GET ${api.chats}`]: () => chats(),
  });
}

describe('the chat list saga', () => {
  let h: ReturnType<typeof createChatTestStore>;
  let hasFocus: sinon.SinonStub;

  beforeEach(() => {
    hasFocus = sinon.stub(document, 'hasFocus').returns(true);
  });

  afterEach(() => {
    h?.stop();
    hasFocus.restore();
  });

  it('loads the name and the rooms and stores the user id when it was missing (after OAuth)', async () => {
    h = createChatTestStore(routes(), null);
    h.store.dispatch(chatListOpened());
    await eventually(() => selectChats(h.store.getState()) !== null, 'chats loaded');
    expect(selectChats(h.store.getState())).to.deep.equal(ROOMS);
    await eventually(() => h.store.getState().chatList.me !== null, 'name loaded');
    expect(h.store.getState().chatList.me).to.deep.equal({ name: ME.name, email: ME.email });
    expect(h.storedUid()).to.equal(ME.userId);
  });

  it('keeps a stored user id as it is', async () => {
    h = createChatTestStore(routes(), 99);
    h.store.dispatch(chatListOpened());
    await eventually(() => selectChats(h.store.getState()) !== null, 'chats loaded');
    expect(h.storedUid()).to.equal(99);
  });

  for (const failing of [api.userId, api.chats]) {
    it(`logs, shows an empty list and goes to /login when ${failing} fails`, async () => {
      const http = routes();
      http.route(`GET ${failing}`, () => refuse(401));
      h = createChatTestStore(http, null);
      h.store.dispatch(chatListOpened());
      await eventually(() => h.navigations.length === 1, 'navigated');
      expect(h.navigations[0].to).to.equal('/login');
      expect(selectChats(h.store.getState())).to.deep.equal([]);
      expect(h.errors).to.have.length.greaterThan(0);
      expect(h.stomp.subscriptions.size).to.equal(0);
    });
  }

  it('reloads the list on a refresh signal and counts it for the tab title only while the window is not focused', async () => {
    let chats = ROOMS;
    h = createChatTestStore(routes(() => chats), ME.userId);
    h.store.dispatch(chatListOpened());
    await eventually(() => h.stomp.subscriptions.has(topics.toggleRefresh(ME.userId)), 'subscribed');

    chats = [{ ...ROOMS[0], lastMessage: '새 메시지', lastMessageTime: '2026-11-21T11:00:00.000Z' }];
    h.stomp.deliver(topics.toggleRefresh(ME.userId), true);
    await eventually(() => selectChats(h.store.getState())?.[0].lastMessage === '새 메시지', 'reloaded');
    expect(h.store.getState().chatList.unseenCount).to.equal(0);

    hasFocus.returns(false);
    window.dispatchEvent(new window.Event('blur'));
    h.stomp.deliver(topics.toggleRefresh(ME.userId), true);
    await settle();
    h.stomp.deliver(topics.toggleRefresh(ME.userId), true);
    await eventually(() => h.store.getState().chatList.unseenCount === 2, 'counted twice');

    hasFocus.returns(true);
    window.dispatchEvent(new window.Event('focus'));
    await eventually(() => h.store.getState().chatList.unseenCount === 0, 'reset on focus');
  });

  it('subscribes with the stored id before loading, so the list is fetched once; a reconnect fetches it again', async () => {
    const http = routes();
    h = createChatTestStore(http, ME.userId);
    h.stomp.connect();
    h.store.dispatch(chatListOpened());
    await eventually(() => selectChats(h.store.getState()) !== null, 'chats loaded');
    await settle();
    expect(http.requested('GET', api.chats)).to.have.length(1);
    h.stomp.drop();
    h.stomp.connect();
    await eventually(() => http.requested('GET', api.chats).length === 2, 'reloaded after the reconnect');
  });

  it('unsubscribes when the list closes and disconnects on logout', async () => {
    h = createChatTestStore(routes(), ME.userId);
    h.store.dispatch(chatListOpened());
    await eventually(() => h.stomp.subscriptions.size === 1, 'subscribed');
    h.store.dispatch(chatListClosed());
    await settle();
    expect(h.stomp.unsubscribed).to.deep.equal([topics.toggleRefresh(ME.userId)]);
    h.store.dispatch(logoutRequested());
    await settle();
    expect(h.stomp.deactivations).to.equal(1);
  });
});
