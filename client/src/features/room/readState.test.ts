import { expect } from 'chai';
import sinon from 'sinon';
import { api, type ChatHistoryResponse, type ChatMessage, type RoomUser } from '@common/api';
import { app, topics } from '@common/destinations';
import { eventually, FakeHttp, settle, type RecordedRequest } from '../../app/fakeServices';
import { createChatTestStore } from '../../app/chatFakes.test-support';
import { advance, fromRoomUsers, unreadBy } from './readCounts';
import { mergeMessages, messagesAdapter, newestSeq, skipsAhead } from './messages';
import { liveReducer, typingExpired, typingSeen, withPresence } from './liveSlice';
import { roomOpened, selectMessages, typingNoticed } from './roomSlice';

const { selectAll: inOrder } = messagesAdapter.getSelectors();
const ROOM = 9;
const ME = 1;
const KIM = 2;
const LEE = 3;

function message(seq: number, senderId = KIM): ChatMessage {
  return {
    messageId: 100 + seq, chatRoomId: ROOM, seq, senderId, senderName: `user ${senderId}`, content: `m${seq}`,
    enrolledAt: new Date(Date.UTC(2026, 10, 25, 9, 0, seq)).toISOString(), clientMsgId: null,
  };
}

describe('read counts (pure)', () => {
  it('moves a read position forward only, and takes history\'s lastReadSeq where it knows more', () => {
    const p = advance({ [KIM]: 5 }, KIM, 3);
    expect(p).to.deep.equal({ [KIM]: 5 });
    expect(advance(p, KIM, 8)).to.deep.equal({ [KIM]: 8 });
    const users: RoomUser[] = [{ userId: KIM, name: 'k', email: 'k@x', lastReadSeq: 4 }, { userId: LEE, name: 'l', email: 'l@x', lastReadSeq: 2 }];
    expect(fromRoomUsers({ [KIM]: 6 }, users)).to.deep.equal({ [KIM]: 6, [LEE]: 2 });
  });

  it('counts the members who have not read a message', () => {
    const positions = { [ME]: 10, [KIM]: 7, [LEE]: 3 };
    expect(unreadBy([ME, KIM, LEE], positions, 5)).to.equal(1);
    expect(unreadBy([ME, KIM, LEE], positions, 8)).to.equal(2);
    expect(unreadBy([ME, KIM, LEE], positions, 3)).to.equal(0);
  });

  it('orders messages by seq and sees a seq that skips ahead', () => {
    const merged = mergeMessages(messagesAdapter.setAll(messagesAdapter.getInitialState(), [message(2), { ...message(1), messageId: 500 }]), [message(3)]);
    expect(inOrder(merged).map((m) => m.seq)).to.deep.equal([1, 2, 3]);
    expect(newestSeq(merged)).to.equal(3);
    expect(skipsAhead(3, message(4))).to.equal(false);
    expect(skipsAhead(3, message(6))).to.equal(true);
    expect(skipsAhead(null, message(6))).to.equal(false);
  });
});

describe('the room\'s read state', () => {
  let hasFocus: sinon.SinonStub;
  let h: ReturnType<typeof createChatTestStore> & { server: ChatMessage[] };

  beforeEach(() => {
    hasFocus = sinon.stub(document, 'hasFocus').returns(true);
  });
  afterEach(() => {
    h?.stop();
    hasFocus.restore();
  });

  function open(count: number) {
    const server: ChatMessage[] = Array.from({ length: count }, (_, i) => message(i + 1));
    const users: RoomUser[] = [
      { userId: ME, name: 'me', email: 'me@x', lastReadSeq: count },
      { userId: KIM, name: 'kim', email: 'kim@x', lastReadSeq: count },
      { userId: LEE, name: 'lee', email: 'lee@x', lastReadSeq: 0 },
    ];
    const history = (r: RecordedRequest): ChatHistoryResponse => {
      const q = r.query ?? {};
      if (q.afterSeq !== undefined) {
        const after = server.filter((m) => m.seq! > Number(q.afterSeq));
        return { totalPages: 1, chatRoomName: 'room', users, messages: after.slice(0, 100), hasMore: after.length > 100 };
      }
      return { totalPages: 1, chatRoomName: 'room', users, messages: server.slice(-20) };
    };
    h = { ...createChatTestStore(new FakeHttp({ [`GET ${api.chatHistory}`]: history }), ME), server };
    return h;
  }

  async function enter() {
    h.store.dispatch(roomOpened({ chatRoomId: ROOM, userId: ME }));
    await eventually(() => h.store.getState().room.status === 'ready', 'history loaded');
    h.stomp.connect();
    await eventually(() => h.store.getState().room.connection === 'live', 'subscribed');
    await settle();
  }

  it('fetches the messages a seq skipped past before showing the new one, so none is missing', async () => {
    open(3);
    await enter();
    h.server.push(message(4), message(5));
    h.stomp.deliver(topics.privateChat(ROOM), message(5));
    await eventually(() => selectMessages(h.store.getState()).length === 5, 'gap filled');
    expect(selectMessages(h.store.getState()).map((m) => m.seq)).to.deep.equal([1, 2, 3, 4, 5]);
    expect(h.http.requests.some((r) => r.query?.afterSeq === 3)).to.equal(true);
  });

  it('follows read events on the room-events topic and tells the server what the user read while looking', async () => {
    open(2);
    await enter();
    const positions = () => h.store.getState().reads.positions;
    expect(positions()).to.deep.equal({ [ME]: 2, [KIM]: 2 });
    h.stomp.deliver(topics.chatRoomEvents(ROOM), { type: 'read', chatRoomId: ROOM, userId: LEE, lastReadSeq: 1 });
    await eventually(() => positions()[LEE] === 1, 'read event applied');
    // A stale event never moves a position back; another room's event is ignored.
    h.stomp.deliver(topics.chatRoomEvents(ROOM), { type: 'read', chatRoomId: ROOM, userId: KIM, lastReadSeq: 1 });
    h.stomp.deliver(topics.chatRoomEvents(ROOM), { type: 'read', chatRoomId: ROOM + 1, userId: LEE, lastReadSeq: 2 });
    await settle();
    expect(positions()).to.deep.equal({ [ME]: 2, [KIM]: 2, [LEE]: 1 });

    h.server.push(message(3, LEE));
    h.stomp.deliver(topics.privateChat(ROOM), message(3, LEE));
    // The author has read up to their message; the user, looking at the room, tells the server.
    await eventually(() => positions()[LEE] === 3, 'author moved');
    await eventually(() => h.stomp.sentTo(app.read).length === 1, '/app/read sent');
    expect(h.stomp.sentTo(app.read)).to.deep.equal([{ chatRoomId: ROOM, seq: 3 }]);
  });

  it('tells the server how far the user read at once, then at most once a second with the newest seq', async () => {
    open(2);
    await enter();
    for (const seq of [3, 4, 5]) {
      h.server.push(message(seq, LEE));
      h.stomp.deliver(topics.privateChat(ROOM), message(seq, LEE));
    }
    await eventually(() => selectMessages(h.store.getState()).length === 5, 'messages shown');
    await eventually(() => h.stomp.sentTo(app.read).length === 2, 'the newest read sent after the interval');
    expect(h.stomp.sentTo(app.read)).to.deep.equal([{ chatRoomId: ROOM, seq: 3 }, { chatRoomId: ROOM, seq: 5 }]);
  });

  it('shows who else is typing, sends its own typing at most once every 2 s, and follows presence', async () => {
    open(1);
    await enter();
    h.stomp.deliver(topics.chatRoomEvents(ROOM), { type: 'typing', chatRoomId: ROOM, userId: KIM, name: '김철수' });
    h.stomp.deliver(topics.chatRoomEvents(ROOM), { type: 'typing', chatRoomId: ROOM, userId: ME, name: 'me' });
    await eventually(() => h.store.getState().live.typers.length === 1, 'typer shown');
    expect(h.store.getState().live.typers.map((t) => t.name)).to.deep.equal(['김철수']);
    // Their message arrives: they are no longer typing it.
    h.stomp.deliver(topics.privateChat(ROOM), message(2, KIM));
    await eventually(() => h.store.getState().live.typers.length === 0, 'typer cleared');

    h.store.dispatch(typingNoticed());
    h.store.dispatch(typingNoticed());
    await eventually(() => h.stomp.sentTo(app.typing).length === 1, 'typing sent');
    await settle();
    expect(h.stomp.sentTo(app.typing)).to.deep.equal([{ chatRoomId: ROOM }]);

    h.stomp.deliver(topics.chatRoomEvents(ROOM), { type: 'presence', userId: LEE, online: true });
    await eventually(() => h.store.getState().live.online[LEE] === true, 'presence applied');
  });
});

describe('the live slice', () => {
  it('clears a typer 5 s after their newest typing event only, and overlays presence on the members', () => {
    let state = liveReducer(undefined, typingSeen({ userId: KIM, name: '김철수', token: 1 }));
    state = liveReducer(state, typingSeen({ userId: KIM, name: '김철수', token: 2 }));
    expect(liveReducer(state, typingExpired({ userId: KIM, token: 1 })).typers).to.have.length(1);
    expect(liveReducer(state, typingExpired({ userId: KIM, token: 2 })).typers).to.deep.equal([]);
    const users = [{ userId: KIM, name: 'k', email: 'k@x', online: false }];
    expect(withPresence(users, { [KIM]: true })[0].online).to.equal(true);
    expect(withPresence(users, {})).to.deep.equal(users);
  });
});
