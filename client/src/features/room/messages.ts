// Pure rules for a room's message list: ordering, de-duplication, pending sends and what system
// messages mean for the participant list (SPEC.md §3, §4; issue 4: never lost, duplicated or
// reordered).
import type { ChatMessage, UserSummary } from '../../../../common/api';

/** A message the user sent that the server has not echoed back yet. */
export interface PendingMessage {
  clientMsgId: string;
  content: string;
  createdAt: string;
}

/** System messages carry no sender (null; 0 in older data). */
export function isSystemMessage(message: Pick<ChatMessage, 'senderId'>): boolean {
  return message.senderId === null || message.senderId === 0;
}

/**
 * The union of both lists, one entry per messageId, in messageId order (the server's commit
 * order). A later copy of the same id wins, so a re-fetched message replaces a stale one.
 */
export function mergeMessages(existing: readonly ChatMessage[], incoming: readonly ChatMessage[]): ChatMessage[] {
  if (incoming.length === 0) return existing as ChatMessage[];
  const byId = new Map<number, ChatMessage>();
  for (const m of existing) byId.set(m.messageId, m);
  for (const m of incoming) byId.set(m.messageId, m);
  return [...byId.values()].sort((a, b) => a.messageId - b.messageId);
}

/** Pending sends still waiting: those whose clientMsgId is not among the confirmed messages. */
export function unconfirmed(pending: readonly PendingMessage[], confirmed: readonly ChatMessage[]): PendingMessage[] {
  if (pending.length === 0) return pending as PendingMessage[];
  const seen = new Set(confirmed.map((m) => m.clientMsgId).filter((id): id is string => Boolean(id)));
  const left = pending.filter((p) => !seen.has(p.clientMsgId));
  return left.length === pending.length ? (pending as PendingMessage[]) : left;
}

export function newestMessageId(messages: readonly ChatMessage[]): number | null {
  return messages.length ? messages[messages.length - 1].messageId : null;
}

export function oldestMessageId(messages: readonly ChatMessage[]): number | null {
  return messages.length ? messages[0].messageId : null;
}

const ADDED = /^"(.*)" 님이 "(.*)" 님을 추가했습니다$/s;

/** The added user's name from `"{inviter}" 님이 "{added}" 님을 추가했습니다`, or null. */
export function addedUserName(content: string): string | null {
  return ADDED.exec(content)?.[2] ?? null;
}

/**
 * The participant list after a system message: a leave removes the leaver, an add appends the
 * added user (when the caller could resolve who that is). Other messages change nothing.
 */
export function applyToParticipants(users: readonly UserSummary[], message: ChatMessage, added: UserSummary | null): UserSummary[] {
  if (!isSystemMessage(message)) return users as UserSummary[];
  if (message.leftUserId != null) return users.filter((u) => u.userId !== message.leftUserId);
  if (added && !users.some((u) => u.userId === added.userId)) return [...users, added];
  return users as UserSummary[];
}

function optionalNumber(value: unknown): value is number | undefined | null {
  return value === undefined || value === null || typeof value === 'number';
}

/**
 * A frame from /topic/private-chat/{id} as a ChatMessage, or null when it is not one for this
 * room (the client trusts the shape of nothing it did not check).
 */
export function decodeChatMessage(body: unknown, chatRoomId: number): ChatMessage | null {
  if (typeof body !== 'object' || body === null) return null;
  const m = body as Record<string, unknown>;
  if (typeof m.messageId !== 'number' || typeof m.content !== 'string' || typeof m.enrolledAt !== 'string') return null;
  if (m.chatRoomId !== undefined && m.chatRoomId !== chatRoomId) return null;
  if (!optionalNumber(m.senderId) || !optionalNumber(m.leftUserId)) return null;
  const message: ChatMessage = {
    messageId: m.messageId,
    chatRoomId,
    senderId: m.senderId ?? null,
    senderName: typeof m.senderName === 'string' ? m.senderName : '',
    content: m.content,
    enrolledAt: m.enrolledAt,
    clientMsgId: typeof m.clientMsgId === 'string' ? m.clientMsgId : null,
  };
  if (typeof m.leftUserId === 'number') message.leftUserId = m.leftUserId;
  if (typeof m.addedUserEmail === 'string') message.addedUserEmail = m.addedUserEmail;
  return message;
}
