import { expect } from 'chai';
import type { ChatMessage } from '@common/api';
import { DELETED_MESSAGE_TEXT } from '@common/system-text';
import { canDeleteForEveryone, quoteOf } from './messageChanges';
import {
  aroundLoaded,
  changesLoaded,
  deleteConfirmed,
  editStarted,
  focused,
  historyLoaded,
  messageDeleted,
  messageEdited,
  messageQueued,
  reactionChanged,
  replyStarted,
  roomOpened,
  roomReducer,
  selectMessages,
  type RoomState,
} from './roomSlice';

const msg = (messageId: number, extra: Partial<ChatMessage> = {}): ChatMessage => ({
  messageId, seq: messageId, senderId: 2, senderName: 'B', content: `m${messageId}`, enrolledAt: '2026-11-25T10:00:00.000Z', ...extra,
});

/** The room's messages in room order, as components and sagas read them. */
const list = (room: RoomState) => selectMessages({ room });

function roomWith(messages: ChatMessage[], lastChangeSeq = 0): RoomState {
  const opened = roomReducer(undefined, roomOpened({ chatRoomId: 7, userId: 1 }));
  return roomReducer(opened, historyLoaded({ totalPages: 1, chatRoomName: 'R', users: [], messages, lastChangeSeq }));
}

describe('changes of messages on screen', () => {
  it('keeps the change counter of history and of every event, the largest one', () => {
    let s = roomWith([msg(1), msg(2)], 5);
    expect(s.lastChangeSeq).to.equal(5);
    s = roomReducer(s, reactionChanged({ messageId: 1, userId: 3, emoji: '👍', on: true, changeSeq: 7 }));
    s = roomReducer(s, messageEdited({ messageId: 2, content: 'x', editedAt: '2026-11-25T10:01:00.000Z', changeSeq: 6 }));
    expect(s.lastChangeSeq).to.equal(7);
  });

  it('applies an edit to the message and to the quotes of it, but not an older edit after a newer one', () => {
    let s = roomWith([msg(1), msg(2, { replyTo: { messageId: 1, senderName: 'B', content: 'm1' } })]);
    s = roomReducer(s, messageEdited({ messageId: 1, content: 'second', editedAt: 't2', changeSeq: 3 }));
    s = roomReducer(s, messageEdited({ messageId: 1, content: 'first', editedAt: 't1', changeSeq: 2 }));
    expect(list(s)[0]).to.include({ content: 'second', editedAt: 't2', changeSeq: 3 });
    expect(list(s)[1].replyTo?.content).to.equal('second');
  });

  it('empties a deleted message, drops its quote, reactions and any reply or edit of it under way, and tells its quotes', () => {
    let s = roomWith([msg(1, { reactions: [{ emoji: '😂', userIds: [3] }], replyTo: { messageId: 9, senderName: 'C', content: 'q' } }), msg(2, { replyTo: { messageId: 1, senderName: 'B', content: 'm1' } })]);
    s = roomReducer(s, replyStarted({ messageId: 1, senderName: 'B', content: 'm1' }));
    s = roomReducer(s, messageDeleted({ messageId: 1, changeSeq: 4 }));
    expect(list(s)[0]).to.deep.include({ content: '', deleted: true, changeSeq: 4 });
    expect(list(s)[0].reactions).to.equal(undefined);
    expect(list(s)[0].replyTo).to.equal(undefined);
    expect(list(s)[1].replyTo).to.deep.equal({ messageId: 1, senderName: 'B', content: DELETED_MESSAGE_TEXT, deleted: true });
    expect(s.replyTo).to.equal(null);
    // An edit arriving late does not bring the text back.
    s = roomReducer(s, messageEdited({ messageId: 1, content: 'back', editedAt: 't', changeSeq: 5 }));
    expect(list(s)[0].content).to.equal('');
  });

  it('sets and clears reactions idempotently, in the order first given, and ignores them on a deleted message', () => {
    let s = roomWith([msg(1), msg(2, { deleted: true, content: '' })]);
    const r = (userId: number, emoji: '👍' | '❤️', on: boolean, changeSeq: number) => reactionChanged({ messageId: 1, userId, emoji, on, changeSeq });
    s = roomReducer(s, r(3, '👍', true, 1));
    s = roomReducer(s, r(4, '❤️', true, 2));
    s = roomReducer(s, r(1, '👍', true, 3));
    s = roomReducer(s, r(1, '👍', true, 3));
    expect(list(s)[0].reactions).to.deep.equal([{ emoji: '👍', userIds: [3, 1] }, { emoji: '❤️', userIds: [4] }]);
    s = roomReducer(s, r(4, '❤️', false, 4));
    s = roomReducer(s, r(4, '❤️', false, 4));
    expect(list(s)[0].reactions).to.deep.equal([{ emoji: '👍', userIds: [3, 1] }]);
    s = roomReducer(s, reactionChanged({ messageId: 2, userId: 3, emoji: '👍', on: true, changeSeq: 5 }));
    expect(list(s)[1].reactions).to.equal(undefined);
  });

  it('replaces held messages with what changedSince answered unless they show a later change, and adds none', () => {
    let s = roomWith([msg(1, { changeSeq: 9, content: 'newer' }), msg(2)]);
    s = roomReducer(s, changesLoaded({ messages: [msg(1, { changeSeq: 8, content: 'older' }), msg(2, { changeSeq: 10, editedAt: 't', content: 'fixed' }), msg(3, { changeSeq: 11 })], lastChangeSeq: 11 }));
    expect(list(s).map((m) => m.content)).to.deep.equal(['newer', 'fixed']);
    expect(s.lastChangeSeq).to.equal(11);
  });

  it('sends a reply once: queuing the message clears the quote; editing and replying exclude each other', () => {
    let s = roomWith([msg(1)]);
    s = roomReducer(s, replyStarted({ messageId: 1, senderName: 'B', content: 'm1' }));
    s = roomReducer(s, editStarted({ messageId: 1, content: 'm1' }));
    expect(s.replyTo).to.equal(null);
    s = roomReducer(s, replyStarted({ messageId: 1, senderName: 'B', content: 'm1' }));
    expect(s.editing).to.equal(null);
    s = roomReducer(s, messageQueued({ clientMsgId: 'c', content: 'hi', createdAt: 't', replyTo: { messageId: 1, senderName: 'B', content: 'm1' } }));
    expect(s.replyTo).to.equal(null);
    s = roomReducer(s, editStarted({ messageId: 1, content: 'm1' }));
    s = roomReducer(s, deleteConfirmed(1));
    expect(s.editing).to.equal(null);
  });

  it('opens around a seq with older pages to load when it does not start at 1, and focuses with a new token each time', () => {
    const opened = roomReducer(undefined, roomOpened({ chatRoomId: 7, userId: 1, aroundSeq: 30 }));
    let s = roomReducer(opened, aroundLoaded({ totalPages: 3, chatRoomName: 'R', users: [], messages: [msg(20), msg(21)], lastChangeSeq: 2, hasMore: true }));
    expect(s).to.include({ status: 'ready', hasOlder: true, lastChangeSeq: 2 });
    s = roomReducer(s, focused(21));
    s = roomReducer(s, focused(21));
    expect(s.focus).to.deep.equal({ messageId: 21, token: 2 });
    const atStart = roomReducer(opened, aroundLoaded({ totalPages: 1, chatRoomName: 'R', users: [], messages: [msg(1)], hasMore: false }));
    expect(atStart.hasOlder).to.equal(false);
  });

  it('quotes at most 100 code points and lets only the author delete within 24 hours', () => {
    expect(Array.from(quoteOf('가'.repeat(150)))).to.have.length(100);
    expect(quoteOf('😀'.repeat(120))).to.equal('😀'.repeat(100));
    const sent = Date.parse('2026-11-25T10:00:00.000Z');
    const m = { senderId: 1, enrolledAt: '2026-11-25T10:00:00.000Z' };
    expect(canDeleteForEveryone(m, 1, sent + 23 * 3600_000)).to.equal(true);
    expect(canDeleteForEveryone(m, 1, sent + 24 * 3600_000)).to.equal(false);
    expect(canDeleteForEveryone(m, 2, sent)).to.equal(false);
    expect(canDeleteForEveryone({ ...m, deleted: true }, 1, sent)).to.equal(false);
  });
});
