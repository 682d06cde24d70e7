// Issue 27 in the room session: delete for me (off the screen at once, one SEND per message, and
// what another tab hid), the forward picker's lists, and a forward (a 1:1 opened for a friend, one
// SEND per message to every room), with the failure when disconnected.
import { expect } from 'chai';
import sinon from 'sinon';
import { api, type ChatHistoryResponse, type ChatMessage, type ChatSummary, type Friend } from '@common/api';
import { app, topics } from '@common/destinations';
import { eventually, FakeHttp, settle, type RecordedRequest } from '../../app/fakeServices';
import { createChatTestStore } from '../../app/chatFakes.test-support';
import { forwardRequested, forwardTargetsRequested, hideRequested, selectPassOn } from './passOnSlice';
import { roomOpened, selectMessages } from './roomSlice';

const ROOM = 7;
const ME = 1;
const message = (id: number): ChatMessage => ({
  messageId: id, seq: id, chatRoomId: ROOM, senderId: 2, senderName: 'N', content: `m${id}`, enrolledAt: new Date(Date.UTC(2026, 10, 29, 9, 0, id)).toISOString(), clientMsgId: null,
});
const chats: ChatSummary[] = [
  { chatRoomId: 3, chatRoomName: '나와의 채팅', lastMessage: null, lastMessageTime: null, lastReadAt: null, memberCount: 1, self: true },
  { chatRoomId: ROOM, chatRoomName: '친구', lastMessage: 'm4', lastMessageTime: null, lastReadAt: null, memberCount: 2, peer: { userId: 2, photoVersion: null } },
];
const friends: Friend[] = [2, 5].map((userId) => ({ userId, name: `f${userId}`, photoVersion: null, statusMessage: null, favourite: false, online: false }));

function open() {
  const http = new FakeHttp({
    [`GET ${api.chatHistory}`]: (): ChatHistoryResponse => ({ totalPages: 1, chatRoomName: '친구', users: [], messages: [1, 2, 3, 4].map(message), lastChangeSeq: 0 }),
    [`GET ${api.chats}`]: () => chats,
    [`GET ${api.friends}`]: () => friends,
    [`POST ${api.roomCreate}`]: (r: RecordedRequest) => ({ chatRoomId: 100 + (r.body as { targetUserId: number }).targetUserId }),
  });
  return createChatTestStore(http, ME);
}

describe('passing messages on in the room session', () => {
  let h: ReturnType<typeof open>;
  let hasFocus: sinon.SinonStub;
  beforeEach(async () => {
    hasFocus = sinon.stub(document, 'hasFocus').returns(true);
    h = open();
    h.store.dispatch(roomOpened({ chatRoomId: ROOM, userId: ME }));
    h.stomp.connect();
    await eventually(() => h.store.getState().room.status === 'ready', 'room ready');
  });
  afterEach(() => {
    h.stop();
    hasFocus.restore();
  });
  const ids = () => selectMessages(h.store.getState()).map((m) => m.messageId);

  it('deletes for me at once, sends one hide per message, and drops what another tab of the user hid', async () => {
    h.store.dispatch(hideRequested([2, 3]));
    await eventually(() => h.stomp.sentTo(app.hideMessage).length === 2, 'hides sent');
    expect(h.stomp.sentTo(app.hideMessage)).to.deep.equal([{ messageId: 2 }, { messageId: 3 }]);
    expect(ids()).to.deep.equal([1, 4]);
    h.stomp.deliver(topics.chatRoomEvents(ROOM), { type: 'hidden', chatRoomId: ROOM, messageId: 4 });
    await settle();
    expect(ids()).to.deep.equal([1]);
  });

  it('lists the rooms and the friends with no 1:1, then forwards each message to every room, a friend\'s 1:1 opened first', async () => {
    h.store.dispatch(forwardTargetsRequested());
    await eventually(() => selectPassOn(h.store.getState()).targets !== null, 'targets');
    expect(selectPassOn(h.store.getState()).targets).to.deep.equal({
      rooms: [{ chatRoomId: 3, name: '나와의 채팅', memberCount: 1, self: true }, { chatRoomId: ROOM, name: '친구', memberCount: 2, self: false }],
      friends: [{ userId: 5, name: 'f5' }],
    });
    h.store.dispatch(forwardRequested({ messageIds: [2, 4], chatRoomIds: [3, ROOM], userIds: [5] }));
    await eventually(() => selectPassOn(h.store.getState()).result !== null, 'forwarded');
    expect(h.http.requested('POST', api.roomCreate).map((r) => r.body)).to.deep.equal([{ targetUserId: 5 }]);
    const sent = h.stomp.sentTo(app.forwardMessage) as Array<{ messageId: number; chatRoomIds: number[]; clientMsgId: string }>;
    expect(sent.map((s) => [s.messageId, s.chatRoomIds])).to.deep.equal([[2, [3, ROOM, 105]], [4, [3, ROOM, 105]]]);
    expect(sent[0].clientMsgId).to.be.a('string').and.not.equal(sent[1].clientMsgId);
    expect(selectPassOn(h.store.getState())).to.deep.include({ status: 'idle', result: { ok: true, count: 3 } });
  });

  it('says a forward failed when the connection is down', async () => {
    h.stomp.drop();
    h.store.dispatch(forwardRequested({ messageIds: [2], chatRoomIds: [3], userIds: [] }));
    await eventually(() => selectPassOn(h.store.getState()).result !== null, 'finished');
    expect(selectPassOn(h.store.getState()).result).to.deep.equal({ ok: false, count: 0 });
  });
});
