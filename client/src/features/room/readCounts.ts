// KakaoTalk's number beside a message: how many members have not read it yet. Pure,
// from the members' read positions (history's lastReadSeq, then the room-events topic) and the
// rule that an author has read the room up to their own message.
import type { ChatMessage, RoomUser } from '@common/api';

/** userId → read position (every message up to this seq is read). */
export type ReadPositions = Record<number, number>;

/** The positions with one moved forward (never backwards). */
export function advance(positions: ReadPositions, userId: number, seq: number): ReadPositions {
  return (positions[userId] ?? 0) >= seq ? positions : { ...positions, [userId]: seq };
}

/** The positions a history page tells: each member's lastReadSeq, kept where we know more. */
export function fromRoomUsers(positions: ReadPositions, users: readonly RoomUser[]): ReadPositions {
  return users.reduce((acc, u) => (u.lastReadSeq === undefined ? acc : advance(acc, u.userId, u.lastReadSeq)), positions);
}

/** The author of a message (its sender, or a system message's actor), who has read up to it. */
export function authorOf(message: Pick<ChatMessage, 'senderId' | 'systemEvent'>): number | null {
  return message.senderId || message.systemEvent?.actorUserId || null;
}

/** How many of the members have not read the message with this seq; 0 once all have. */
export function unreadBy(memberIds: readonly number[], positions: ReadPositions, seq: number): number {
  return memberIds.filter((id) => (positions[id] ?? 0) < seq).length;
}
