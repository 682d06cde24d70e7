import { expect } from 'chai';
import sinon from 'sinon';
import { api, type ChatHistoryResponse, type ChatMessage } from '@common/api';
import { app, topics } from '@common/destinations';
import { eventually, FakeHttp, settle, type RecordedRequest } from '../../app/fakeServices';
import { createChatTestStore } from '../../app/chatFakes.test-support';
import { deleteConfirmed, editSubmitted, jumpRequested, messageSubmitted, reactionToggled, replyStarted, roomOpened, selectMessages, selectPending } from './roomSlice';

const ROOM = 7;
const ME = 1;
const OTHER = 2;
const EVENTS = topics.chatRoomEvents(ROOM);

const message = (id: number, extra: Partial<ChatMessage> = {}): ChatMessage => ({
  messageId: id, seq: id, chatRoomId: ROOM, senderId: id % 2 === 0 ? ME : OTHER, senderName: 'N', content: `m${id}`,
  enrolledAt: new Date(Date.UTC(2026, 10, 25, 10, 0, id)).toISOString(), clientMsgId: null, ...extra,
});

/** A room of `count` messages; history pages of 20 by page, beforeId, aroundSeq and afterSeq; changedSince from `changes`. */
function open(count: number) {
  const all = Array.from({ length: count }, (_, i) => message(i + 1));
  let changes: ChatMessage[] = [];
  const history = (r: RecordedRequest): ChatHistoryResponse => {
    const q = r.query ?? {};
    const base = { totalPages: Math.ceil(all.length / 20), chatRoomName: 'R', users: [], lastChangeSeq: 3 };
    if (q.changedSince !== undefined) {
      const since = Number(q.changedSince);
      const picked = changes.filter((m) => (m.changeSeq ?? 0) > since);
      return { ...base, messages: picked, hasMore: false, lastChangeSeq: Math.max(since, ...picked.map((m) => m.changeSeq ?? 0)) };
    }
    if (q.aroundSeq !== undefined) {
      const s = Number(q.aroundSeq);
      const messages = all.filter((m) => m.seq! >= s - 10 && m.seq! < s + 10);
      return { ...base, messages, hasMore: messages.at(-1)!.seq! < all.length };
    }
    if (q.afterSeq !== undefined) return { ...base, messages: all.filter((m) => m.seq! > Number(q.afterSeq)).slice(0, 100), hasMore: false };
    const newestFirst = [...all].reverse();
    const slice = q.beforeId !== undefined ? newestFirst.filter((m) => m.messageId < Number(q.beforeId)).slice(0, 20) : newestFirst.slice(0, 20);
    return { ...base, messages: slice.reverse() };
  };
  const http = new FakeHttp({ [`GET ${api.chatHistory}`]: history });
  const h = createChatTestStore(http, ME);
  const room = () => h.store.getState().room;
  const messages = () => selectMessages(h.store.getState());
  const pending = () => selectPending(h.store.getState());
  return { ...h, room, messages, pending, setChanges: (c: ChatMessage[]) => { changes = c; } };
}

type Harness = ReturnType<typeof open>;

async function openRoom(h: Harness, aroundSeq?: number) {
  h.store.dispatch(roomOpened({ chatRoomId: ROOM, userId: ME, ...(aroundSeq ? { aroundSeq } : {}) }));
  h.stomp.connect();
  await eventually(() => h.room().status === 'ready' && h.room().connection === 'live', 'room ready');
  await settle();
}

describe('acting on messages in the room session', () => {
  let h: Harness;
  let hasFocus: sinon.SinonStub;
  beforeEach(() => {
    hasFocus = sinon.stub(document, 'hasFocus').returns(true);
  });
  afterEach(() => {
    h?.stop();
    hasFocus.restore();
  });

  it('sends a reply with replyToMessageId and shows it pending with its quote', async () => {
    h = open(5);
    await openRoom(h);
    h.store.dispatch(replyStarted({ messageId: 5, senderName: 'N', content: 'm5' }));
    h.store.dispatch(messageSubmitted('답장이야'));
    await settle();
    expect(h.stomp.sentTo(app.privateMessage)[0]).to.include({ content: '답장이야', replyToMessageId: 5 });
    expect(h.pending()[0].replyTo?.messageId).to.equal(5);
    expect(h.room().replyTo).to.equal(null);
  });

  it('sets a reaction the user has not given and clears one they have, and applies what the room-events topic tells', async () => {
    h = open(5);
    await openRoom(h);
    h.store.dispatch(reactionToggled({ messageId: 5, emoji: '👍' }));
    await settle();
    h.stomp.deliver(EVENTS, { type: 'reaction', chatRoomId: ROOM, messageId: 5, userId: ME, emoji: '👍', on: true, changeSeq: 4 });
    await settle();
    expect(h.messages().at(-1)?.reactions).to.deep.equal([{ emoji: '👍', userIds: [ME] }]);
    h.store.dispatch(reactionToggled({ messageId: 5, emoji: '👍' }));
    await settle();
    expect(h.stomp.sentTo(app.reaction)).to.deep.equal([
      { chatRoomId: ROOM, messageId: 5, emoji: '👍', on: true },
      { chatRoomId: ROOM, messageId: 5, emoji: '👍', on: false },
    ]);
  });

  it('sends an edit only when the text changed, and a deletion; both show once the room hears them', async () => {
    h = open(4);
    await openRoom(h);
    h.store.dispatch(editSubmitted({ messageId: 4, content: 'm4' }));
    h.store.dispatch(editSubmitted({ messageId: 4, content: '  고친 글 ' }));
    h.store.dispatch(deleteConfirmed(2));
    await settle();
    expect(h.stomp.sentTo(app.editMessage)).to.deep.equal([{ chatRoomId: ROOM, messageId: 4, content: '고친 글' }]);
    expect(h.stomp.sentTo(app.deleteMessage)).to.deep.equal([{ chatRoomId: ROOM, messageId: 2 }]);
    h.stomp.deliver(EVENTS, { type: 'edited', chatRoomId: ROOM, messageId: 4, content: '고친 글', editedAt: '2026-11-25T10:05:00.000Z', changeSeq: 5 });
    h.stomp.deliver(EVENTS, { type: 'deleted', chatRoomId: ROOM, messageId: 2, changeSeq: 6 });
    await settle();
    expect(h.messages().find((m) => m.messageId === 4)).to.include({ content: '고친 글', editedAt: '2026-11-25T10:05:00.000Z' });
    expect(h.messages().find((m) => m.messageId === 2)).to.include({ content: '', deleted: true });
    expect(h.room().lastChangeSeq).to.equal(6);
  });

  it('tells the user an action sent while disconnected did not go out', async () => {
    h = open(4);
    await openRoom(h);
    h.stomp.drop();
    h.store.dispatch(deleteConfirmed(2));
    await settle();
    expect(h.alerts).to.have.length(1);
  });

  it('jumps to a quoted message pages back, loading older pages until it is held', async () => {
    h = open(50);
    await openRoom(h);
    expect(h.messages()[0].messageId).to.equal(31);
    h.store.dispatch(jumpRequested(3));
    await eventually(() => h.room().focus?.messageId === 3, 'focused');
    expect(h.http.requests.filter((r) => r.query?.beforeId !== undefined).map((r) => r.query?.beforeId)).to.deep.equal([31, 11]);
    expect(h.room().jumping).to.equal(false);
  });

  it('after a reconnect replaces the messages changed while away, from the last change counter seen', async () => {
    h = open(5);
    await openRoom(h);
    h.stomp.drop();
    h.setChanges([message(3, { content: '', deleted: true, changeSeq: 4 }), message(5, { reactions: [{ emoji: '🙏', userIds: [OTHER] }], changeSeq: 5 })]);
    h.stomp.connect();
    await eventually(() => h.room().lastChangeSeq === 5, 'changes caught up');
    expect(h.http.requests.filter((r) => r.query?.changedSince !== undefined).map((r) => r.query?.changedSince)).to.deep.equal([3]);
    expect(h.messages().find((m) => m.messageId === 3)).to.include({ deleted: true });
    expect(h.messages().find((m) => m.messageId === 5)?.reactions).to.deep.equal([{ emoji: '🙏', userIds: [OTHER] }]);
  });

  it('opens around a seq, fills in everything newer and focuses the message', async () => {
    h = open(60);
    await openRoom(h, 12);
    await eventually(() => h.room().focus?.messageId === 12, 'focused');
    expect(h.messages().map((m) => m.seq)).to.deep.equal(Array.from({ length: 59 }, (_, i) => i + 2));
    expect(h.room().hasOlder).to.equal(true);
  });
});
