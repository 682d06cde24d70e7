// Pure rules for a room's message list: ordering, de-duplication, pending sends and what system
// messages mean for the participant list (docs/spec.md §3, §4: never lost, duplicated or
// reordered). The list is normalized: one entry per messageId (messagesAdapter, kept in room
// order), and the sends awaiting their echo one per clientMsgId (pendingAdapter, in the order
// they were written), as they have no messageId yet.
import type { Attachment, ChatMessage, ReplyQuote, UserSummary } from '@common/api';
import { systemEventText } from '@common/system-text';
import { createEntityAdapter, type EntityState } from '../../kernel/entityAdapter';

/** A message the user sent that the server has not echoed back yet. */
export interface PendingMessage {
  clientMsgId: string;
  content: string;
  createdAt: string;
  /** No confirmation within the send timeout (or unsent before a reload): offer resend and delete. */
  failed?: boolean;
  /** Counts the sends of this message, so that only the latest send's timeout can fail it. */
  attempt?: number;
  /** The message this one replies to; every (re)send carries its replyToMessageId. */
  replyTo?: ReplyQuote;
  /** The uploaded photo or file this message sends; every (re)send carries its attachmentId. */
  attachment?: Attachment;
  /** The photos it sends at once (issue 27), `attachment` their first; every (re)send carries their attachmentIds. */
  attachments?: Attachment[];
}

/** System messages carry no sender (null; 0 in older data). */
export function isSystemMessage(message: Pick<ChatMessage, 'senderId'>): boolean {
  return message.senderId === null || message.senderId === 0;
}

/** Room order: by seq (the server's commit order in the room), by messageId where a seq is missing. */
function roomOrder(a: ChatMessage, b: ChatMessage): number {
  return a.seq && b.seq ? a.seq - b.seq : a.messageId - b.messageId;
}

/** A room's messages: one per messageId, `ids` in room order. */
export const messagesAdapter = createEntityAdapter<ChatMessage, number>({ selectId: (m) => m.messageId, sortComparer: roomOrder });
export type MessagesState = EntityState<ChatMessage, number>;

/** The user's sends awaiting their echo: one per clientMsgId, `ids` in the order they were written. */
export const pendingAdapter = createEntityAdapter<PendingMessage, string>({ selectId: (p) => p.clientMsgId });
export type PendingState = EntityState<PendingMessage, string>;

/**
 * The union of both, one entry per messageId, in room order (seq). A later copy of the same id
 * wins whole (set, not merged), so a re-fetched message replaces a stale one. Like every adapter
 * operation: on an Immer draft it changes the draft, on a plain state it returns a new one.
 */
export function mergeMessages(existing: MessagesState, incoming: readonly ChatMessage[]): MessagesState {
  return incoming.length === 0 ? existing : messagesAdapter.setMany(existing, incoming);
}

/** The seq of the newest message held, or null when none carries one. */
export function newestSeq(messages: MessagesState): number | null {
  for (let i = messages.ids.length - 1; i >= 0; i -= 1) {
    const seq = messages.entities[messages.ids[i]].seq;
    if (seq) return seq;
  }
  return null;
}

/**
 * Whether a message arriving now skips past messages we do not hold: its seq is more than one
 * beyond the newest we have. Those in between must be fetched (after the newest we have).
 */
export function skipsAhead(newest: number | null, message: Pick<ChatMessage, 'seq'>): boolean {
  return newest !== null && message.seq !== undefined && message.seq > newest + 1;
}

/**
 * Pending sends still waiting: those whose clientMsgId is not among the confirmed messages. The
 * state is left as it is (the same object) when none was confirmed: the room saga keeps the
 * pending sends in storage whenever they change.
 */
export function unconfirmed(pending: PendingState, confirmed: readonly ChatMessage[]): PendingState {
  if (pending.ids.length === 0) return pending;
  const done = confirmed.map((m) => m.clientMsgId).filter((id): id is string => Boolean(id) && pending.entities[id as string] !== undefined);
  return done.length === 0 ? pending : pendingAdapter.removeMany(pending, done);
}

export function newestMessageId(messages: MessagesState): number | null {
  return messages.ids.at(-1) ?? null;
}

export function oldestMessageId(messages: MessagesState): number | null {
  return messages.ids[0] ?? null;
}

/** Who a leave message says left: its structured actor, or the original's leftUserId. */
export function leaverOf(message: ChatMessage): number | null {
  if (!isSystemMessage(message)) return null;
  if (message.systemEvent?.type === 'left') return message.systemEvent.actorUserId;
  return message.leftUserId ?? null;
}

/** Who an add message says joined, from its structured fields; null for anything else. */
export function addedUserOf(message: ChatMessage): UserSummary | null {
  const event = message.systemEvent;
  if (!isSystemMessage(message) || event?.type !== 'added' || event.targetUserId === undefined) return null;
  return { userId: event.targetUserId, name: event.targetName ?? '', email: message.addedUserEmail ?? '' };
}

/**
 * The participant list after a system message: a leave removes the leaver, an add appends the
 * added user once. Other messages change nothing.
 */
export function applyToParticipants(users: readonly UserSummary[], message: ChatMessage): UserSummary[] {
  const leaver = leaverOf(message);
  if (leaver !== null) return users.filter((u) => u.userId !== leaver);
  const added = addedUserOf(message);
  if (added && !users.some((u) => u.userId === added.userId)) return [...users, added];
  return users as UserSummary[];
}

/** What a system message reads as: rendered from its structured fields when it has them. */
export function systemMessageText(message: ChatMessage): string {
  return message.systemEvent ? systemEventText(message.systemEvent) : message.content;
}
