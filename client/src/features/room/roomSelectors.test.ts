import { expect } from 'chai';
import { combineReducers, type UnknownAction } from '@reduxjs/toolkit';
import type { ChatHistoryResponse, ChatMessage, RoomUser } from '@common/api';
import { liveReducer, presenceChanged, selectMembersWithPresence, selectTypingNames, typingSeen } from './liveSlice';
import { selectMessageItems } from './messageLayout';
import { readEventReceived, readsReducer, selectUnreadByOf } from './readsSlice';
import {
  activityChanged,
  caughtUp,
  historyLoaded,
  messageQueued,
  messageReceived,
  notificationConfirmed,
  reactionChanged,
  replyStarted,
  roomOpened,
  roomReducer,
  selectMessageById,
  selectMessageIds,
  selectMessages,
  selectNewestMessageId,
  selectNewestSeq,
  selectOldestMessageId,
  selectPending,
  sendAttempted,
  unsentRestored,
} from './roomSlice';

const ROOM = 4;
const ME = 1;
const KIM = 2;
const rootReducer = combineReducers({ room: roomReducer, reads: readsReducer, live: liveReducer });
type State = ReturnType<typeof rootReducer>;

const msg = (id: number, extra: Partial<ChatMessage> = {}): ChatMessage => ({
  messageId: id, seq: id, senderId: KIM, senderName: '김철수', content: `m${id}`, enrolledAt: '2026-11-25T10:00:00.000Z', clientMsgId: null, ...extra,
});
const users: RoomUser[] = [
  { userId: ME, name: '김민지', email: 'minji@x', lastReadSeq: 3 },
  { userId: KIM, name: '김철수', email: 'kim@x', lastReadSeq: 1 },
];
const page = (messages: ChatMessage[]): ChatHistoryResponse => ({ totalPages: 1, chatRoomName: '방', users, messages });

function run(...actions: UnknownAction[]): State {
  return actions.reduce<State>((state, action) => rootReducer(state, action), rootReducer(undefined, { type: 'init' }));
}
const opened = () => run(roomOpened({ chatRoomId: ROOM, userId: ME }), historyLoaded(page([msg(1), msg(2), msg(3)])));

describe('the room\'s selectors', () => {
  it('hold each message once by id, whatever repeats a page, an echo or a catch-up brings', () => {
    let s = run(roomOpened({ chatRoomId: ROOM, userId: ME }), historyLoaded(page([msg(2), msg(1), msg(2), msg(3)])));
    s = rootReducer(s, messageReceived(msg(3)));
    s = rootReducer(s, caughtUp({ chatRoomName: '방', users, messages: [msg(3, { content: '다시 받은 글' }), msg(4)] }));
    expect(selectMessages(s).map((m) => m.messageId)).to.deep.equal([1, 2, 3, 4]);
    expect(selectMessageIds(s)).to.deep.equal([1, 2, 3, 4]);
    expect(selectMessageById(s, 3)?.content).to.equal('다시 받은 글');
    expect(selectMessageById(s, 9)).to.equal(undefined);
    expect([selectOldestMessageId(s), selectNewestMessageId(s), selectNewestSeq(s)]).to.deep.equal([1, 4, 4]);
  });

  it('give the same list for the same messages, and a new one only when a message changes', () => {
    const s = opened();
    const messages = selectMessages(s);
    const items = selectMessageItems(s);
    expect(selectMessages(s)).to.equal(messages);
    // Changes beside the messages leave the list and its layout as they were.
    const after = [activityChanged(false), notificationConfirmed(), replyStarted({ messageId: 1, senderName: '김철수', content: 'm1' }), typingSeen({ userId: KIM, name: '김철수', token: 1 })]
      .reduce<State>((state, action) => rootReducer(state, action), s);
    expect(selectMessages(after)).to.equal(messages);
    expect(selectMessageItems(after)).to.equal(items);
    // An echo of a message already held changes nothing at all.
    const echoed = rootReducer(after, messageReceived(msg(2)));
    expect(echoed.room.messages).to.equal(after.room.messages);
    expect(selectMessages(echoed)).to.equal(messages);
    // A reaction changes that message only: a new list, the other messages the same objects.
    const reacted = rootReducer(after, reactionChanged({ messageId: 2, userId: ME, emoji: '👍', on: true, changeSeq: 1 }));
    expect(selectMessages(reacted)).not.to.equal(messages);
    expect(selectMessages(reacted)[0]).to.equal(messages[0]);
    expect(selectMessageItems(reacted)).not.to.equal(items);
  });

  it('keep pending sends once per clientMsgId in the order written, the same list until one changes', () => {
    let s = opened();
    s = rootReducer(s, messageQueued({ clientMsgId: 'b', content: '둘', createdAt: '2026-11-25T10:01:00.000Z' }));
    s = rootReducer(s, unsentRestored([{ clientMsgId: 'a', content: '하나', createdAt: '2026-11-25T09:00:00.000Z', failed: true }, { clientMsgId: 'b', content: '둘', createdAt: '' }]));
    const pending = selectPending(s);
    expect(pending.map((p) => p.clientMsgId)).to.deep.equal(['a', 'b']);
    expect(pending[1].content).to.equal('둘');
    // A message that confirms none of them, or restoring ones already there, leaves the list as it was.
    s = rootReducer(s, messageReceived(msg(4, { clientMsgId: 'x' })));
    s = rootReducer(s, unsentRestored([{ clientMsgId: 'a', content: '하나', createdAt: '' }]));
    expect(selectPending(s)).to.equal(pending);
    s = rootReducer(s, sendAttempted('a'));
    expect(selectPending(s)).not.to.equal(pending);
    expect(selectPending(s)[0]).to.include({ failed: false, attempt: 1 });
    // The echo of 'b' confirms it; the layout shows the stored message and the one still pending.
    s = rootReducer(s, messageReceived(msg(5, { senderId: ME, clientMsgId: 'b' })));
    expect(selectPending(s).map((p) => p.clientMsgId)).to.deep.equal(['a']);
    const items = selectMessageItems(s).filter((item) => item.kind === 'message');
    expect(items.map((item) => [item.messageId, item.pending, item.mine])).to.deep.equal([[1, false, false], [2, false, false], [3, false, false], [4, false, false], [5, false, true], [null, true, true]]);
  });

  it('give read counts that follow read events, and the same function until the members or a position change', () => {
    let s = opened();
    const unreadByOf = selectUnreadByOf(s);
    expect([1, 2, 3].map(unreadByOf)).to.deep.equal([0, 1, 1]);
    s = rootReducer(s, activityChanged(false));
    expect(selectUnreadByOf(s)).to.equal(unreadByOf);
    s = rootReducer(s, readEventReceived({ userId: KIM, lastReadSeq: 3 }));
    expect(selectUnreadByOf(s)).not.to.equal(unreadByOf);
    expect([1, 2, 3].map(selectUnreadByOf(s))).to.deep.equal([0, 0, 0]);
  });

  it('name who is typing and the members\' presence, memoized', () => {
    let s = opened();
    expect(selectTypingNames(s)).to.equal(null);
    s = rootReducer(s, typingSeen({ userId: KIM, name: '김철수', token: 1 }));
    expect(selectTypingNames(s)).to.equal('김철수');
    const members = selectMembersWithPresence(s);
    expect(selectMembersWithPresence(rootReducer(s, activityChanged(false)))).to.equal(members);
    s = rootReducer(s, presenceChanged({ userId: KIM, online: true }));
    expect(selectMembersWithPresence(s).map((u) => u.online)).to.deep.equal([undefined, true]);
  });
});
