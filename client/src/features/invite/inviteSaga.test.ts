import { expect } from 'chai';
import { api } from '@common/api';
import { eventually, FakeHttp, refuse, settle } from '../../app/fakeServices';
import { createChatTestStore } from '../../app/chatFakes.test-support';
import { addRequested, inviteSearchSubmitted } from './inviteSlice';

const ROOM = 7;
const KIM = { userId: 2, name: '김철수', email: 'kim@example.com' };
const LEE = { userId: 3, name: '이영희', email: 'lee@example.com' };

describe('the invite saga', () => {
  let h: ReturnType<typeof createChatTestStore>;
  afterEach(() => h?.stop());

  it('marks the users already in the room and offers the others', async () => {
    h = createChatTestStore(new FakeHttp({ [`GET ${api.roomSearch}`]: () => ({ allUsers: [KIM, LEE], chatRoomUsers: [1, KIM.userId] }) }));
    h.store.dispatch(inviteSearchSubmitted({ chatRoomId: ROOM, keyword: ' 김 ' }));
    await eventually(() => h.store.getState().invite.results.length === 2, 'results');
    expect(h.http.requests[0].query).to.deep.equal({ keyword: '김', chatRoomId: ROOM });
    expect(h.store.getState().invite.results.map((u) => [u.userId, u.isInChat])).to.deep.equal([[2, true], [3, false]]);
  });

  it('sends nothing for a blank or %-only keyword', async () => {
    h = createChatTestStore(new FakeHttp());
    h.store.dispatch(inviteSearchSubmitted({ chatRoomId: ROOM, keyword: '%' }));
    await settle();
    expect(h.http.requests).to.deep.equal([]);
  });

  it('logs a failed search and shows an empty list', async () => {
    h = createChatTestStore(new FakeHttp({ [`GET ${api.roomSearch}`]: () => refuse(403) }));
    h.store.dispatch(inviteSearchSubmitted({ chatRoomId: ROOM, keyword: '김' }));
    await eventually(() => h.errors.length === 1, 'logged');
    expect(h.store.getState().invite.results).to.deep.equal([]);
    expect(h.navigations).to.deep.equal([]);
  });

  it('adds a user and marks the row as in the room; a failure alerts and leaves the row as it was', async () => {
    let fail = true;
    h = createChatTestStore(new FakeHttp({
      [`GET ${api.roomSearch}`]: () => ({ allUsers: [LEE], chatRoomUsers: [1] }),
      [`POST ${api.addUser}`]: () => (fail ? refuse(400) : undefined),
    }));
    h.store.dispatch(inviteSearchSubmitted({ chatRoomId: ROOM, keyword: '이' }));
    await eventually(() => h.store.getState().invite.results.length === 1, 'results');

    h.store.dispatch(addRequested({ chatRoomId: ROOM, userId: LEE.userId }));
    await eventually(() => h.alerts.length === 1, 'alerted');
    expect(h.alerts).to.deep.equal(['Failed to add user. Please try again.']);
    expect(h.store.getState().invite.results[0].isInChat).to.equal(false);

    fail = false;
    h.store.dispatch(addRequested({ chatRoomId: ROOM, userId: LEE.userId }));
    await eventually(() => h.store.getState().invite.results[0].isInChat, 'marked in the room');
    expect(h.http.requested('POST', api.addUser).map((r) => r.body)).to.deep.equal([
      { chatRoomId: ROOM, userId: LEE.userId }, { chatRoomId: ROOM, userId: LEE.userId },
    ]);
  });
});
