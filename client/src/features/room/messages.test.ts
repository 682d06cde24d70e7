import { expect } from 'chai';
import type { ChatMessage, UserSummary } from '@common/api';
import {
  applyToParticipants,
  isSystemMessage,
  leaverOf,
  mergeMessages,
  messagesAdapter,
  newestMessageId,
  oldestMessageId,
  pendingAdapter,
  systemMessageText,
  unconfirmed,
  type MessagesState,
  type PendingMessage,
  type PendingState,
} from './messages';

function msg(messageId: number, extra: Partial<ChatMessage> = {}): ChatMessage {
  return { messageId, senderId: 1, senderName: 'A', content: `m${messageId}`, enrolledAt: '2026-11-21T10:00:00.000Z', ...extra };
}
const ids = (list: ChatMessage[]) => list.map((m) => m.messageId);
const { selectAll: inOrder } = messagesAdapter.getSelectors();
/** A room's messages as the slice holds them, from a list as the server sends it (any order, repeats). */
const held = (list: ChatMessage[]): MessagesState => mergeMessages(messagesAdapter.getInitialState(), list);
const pendingOf = (list: PendingMessage[]): PendingState => pendingAdapter.setAll(pendingAdapter.getInitialState(), list);

describe('merging a room\'s messages', () => {
  const table: Array<[string, number[], number[], number[]]> = [
    ['appends live messages after history', [1, 2, 3], [4, 5], [1, 2, 3, 4, 5]],
    ['puts an older page before the loaded ones', [21, 22], [19, 20], [19, 20, 21, 22]],
    ['drops a live echo already fetched with history', [1, 2, 3], [3], [1, 2, 3]],
    ['drops duplicates inside one batch', [], [5, 5, 6], [5, 6]],
    ['orders out-of-order arrivals by messageId', [1, 4], [3, 2], [1, 2, 3, 4]],
    ['fills a gap found after a reconnect', [1, 2, 6], [3, 4, 5, 6, 7], [1, 2, 3, 4, 5, 6, 7]],
    ['keeps an empty room empty', [], [], []],
  ];
  for (const [what, existing, incoming, expected] of table) {
    it(what, () => {
      const merged = mergeMessages(held(existing.map((id) => msg(id))), incoming.map((id) => msg(id)));
      expect(ids(inOrder(merged))).to.deep.equal(expected);
      expect(merged.ids).to.deep.equal(expected);
      expect(Object.keys(merged.entities).map(Number).sort((a, b) => a - b)).to.deep.equal(expected);
      expect([oldestMessageId(merged), newestMessageId(merged)]).to.deep.equal([expected[0] ?? null, expected.at(-1) ?? null]);
    });
  }

  it('lets a re-fetched copy replace the stale one', () => {
    const merged = mergeMessages(held([msg(1, { content: 'old', reactions: [{ emoji: '👍', userIds: [2] }] })]), [msg(1, { content: 'new' })]);
    expect(inOrder(merged)).to.deep.equal([msg(1, { content: 'new' })]);
  });

  it('orders by seq where both have one, whatever their ids', () => {
    const merged = mergeMessages(held([msg(30, { seq: 2 })]), [msg(10, { seq: 3 }), msg(20, { seq: 1 })]);
    expect(merged.ids).to.deep.equal([20, 30, 10]);
  });

  it('leaves the state as it is when nothing comes in', () => {
    const existing = held([msg(1)]);
    expect(mergeMessages(existing, [])).to.equal(existing);
  });
});

describe('pending sends', () => {
  const pending: PendingMessage[] = [
    { clientMsgId: 'a', content: 'one', createdAt: '' },
    { clientMsgId: 'b', content: 'two', createdAt: '' },
  ];

  it('stay pending until a message with their clientMsgId is confirmed', () => {
    const state = pendingOf(pending);
    // None confirmed: the very same state, so a saga watching it sees no change.
    expect(unconfirmed(state, [msg(1, { clientMsgId: 'x' }), msg(2, { clientMsgId: null }), msg(3)])).to.equal(state);
    expect(pendingAdapter.getSelectors().selectAll(state)).to.deep.equal(pending);
    expect(unconfirmed(state, [msg(4, { clientMsgId: 'a' })]).ids).to.deep.equal(['b']);
    expect(unconfirmed(state, [msg(4, { clientMsgId: 'b' }), msg(5, { clientMsgId: 'a' })])).to.deep.equal(pendingAdapter.getInitialState());
  });
});

describe('system messages and the participant list', () => {
  const users: UserSummary[] = [
    { userId: 1, name: 'A', email: 'a@x.io' },
    { userId: 2, name: 'B', email: 'b@x.io' },
  ];
  const carol: UserSummary = { userId: 3, name: 'C', email: 'c@x.io' };

  it('recognises a system message by a null or 0 sender', () => {
    expect(isSystemMessage({ senderId: null })).to.equal(true);
    expect(isSystemMessage({ senderId: 0 })).to.equal(true);
    expect(isSystemMessage({ senderId: 4 })).to.equal(false);
  });

  it('removes the user a leave message names', () => {
    const leave = msg(9, { senderId: null, leftUserId: 2, content: '"B"님이 채팅에서 나갔습니다' });
    expect(applyToParticipants(users, leave).map((u) => u.userId)).to.deep.equal([1]);
    const structured = msg(9, { senderId: null, content: '"B"님이 채팅에서 나갔습니다', systemEvent: { type: 'left', actorUserId: 2, actorName: 'B' } });
    expect(applyToParticipants(users, structured).map((u) => u.userId)).to.deep.equal([1]);
    expect(leaverOf(structured)).to.equal(2);
  });

  it('adds the user an add message names, once, from its structured fields', () => {
    const add = msg(9, {
      senderId: null, addedUserEmail: 'c@x.io', content: '"A" 님이 "C" 님을 추가했습니다',
      systemEvent: { type: 'added', actorUserId: 1, actorName: 'A', targetUserId: 3, targetName: 'C' },
    });
    const after = applyToParticipants(users, add);
    expect(after.map((u) => u.userId)).to.deep.equal([1, 2, 3]);
    expect(after[2]).to.deep.equal(carol);
    expect(applyToParticipants(after, add).map((u) => u.userId)).to.deep.equal([1, 2, 3]);
  });

  it('leaves the list alone for renames and ordinary messages', () => {
    const rename = msg(9, { senderId: null, content: '"A"님이 채팅 이름을 "새 방" (으)로 변경하였습니다' });
    expect(applyToParticipants(users, rename)).to.equal(users);
    expect(applyToParticipants(users, msg(10, { leftUserId: 2 }))).to.equal(users);
  });

  it('reads a system message from its structured fields, and an older one as stored', () => {
    const rename = msg(9, {
      senderId: null, content: 'stored text the client does not parse',
      systemEvent: { type: 'renamed', actorUserId: 1, actorName: '김철수', newName: '새 방' },
    });
    expect(systemMessageText(rename)).to.equal('"김철수"님이 채팅 이름을 "새 방" (으)로 변경하였습니다');
    const added = msg(10, { senderId: null, content: 'x', systemEvent: { type: 'added', actorUserId: 1, actorName: '김철수', targetUserId: 3, targetName: "O'Neil .-" } });
    expect(systemMessageText(added)).to.equal('"김철수" 님이 "O\'Neil .-" 님을 추가했습니다');
    expect(systemMessageText(msg(11, { senderId: null, content: '"A"님이 채팅에서 나갔습니다' }))).to.equal('"A"님이 채팅에서 나갔습니다');
  });
});
