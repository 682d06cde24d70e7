// Pure rules for changes of messages already on screen: an edit, a deletion for
// everyone, a reaction set or cleared, and the whole messages a reconnect's changedSince
// answers. Each is told with the room's change counter (changeSeq, docs/protocol.md
// *Reconnecting*). Events can arrive out of counter order, so an edit applies only when it is
// newer than what the message shows; a reaction names one user and one emoji, so applying it
// again, or late, leaves the same set; a deletion is final.
import type { ChatMessage, LinkPreview, ReplyQuote } from '@common/api';
import { LIMITS, type Reaction } from '@common/rules';
import { DELETED_MESSAGE_TEXT } from '@common/system-text';
import { messagesAdapter, type MessagesState } from './messages';

export interface EditedChange { messageId: number; content: string; editedAt: string; changeSeq: number }
export interface DeletedChange { messageId: number; changeSeq: number }
export interface LinkPreviewChange { messageId: number; linkPreview: LinkPreview }
export interface ReactionChange { messageId: number; userId: number; emoji: Reaction; on: boolean; changeSeq: number }

const newer = (m: ChatMessage, changeSeq: number) => Math.max(m.changeSeq ?? 0, changeSeq);

/** A quote of the original as the server would now write it: at most 100 code points. */
export function quoteOf(content: string): string {
  return Array.from(content).slice(0, LIMITS.replyQuote).join('');
}

// Each rule below changes the room's messages in place: `messages` is the room slice's Immer
// draft. Only applyChangedMessages may bring a seq the copy on screen lacked, so only it goes
// through the adapter, which keeps `ids` in room order; the others change no id and no seq.

/** Replaces the message with that id and every quote of it. */
function update(messages: MessagesState, messageId: number, message: (m: ChatMessage) => ChatMessage, quote: (q: ReplyQuote) => ReplyQuote): void {
  const target = messages.entities[messageId];
  if (target) messages.entities[messageId] = message(target);
  for (const id of messages.ids) {
    const m = messages.entities[id];
    if (m.replyTo?.messageId === messageId) messages.entities[id] = { ...m, replyTo: quote(m.replyTo) };
  }
}

export function applyEdited(messages: MessagesState, change: EditedChange): void {
  const target = messages.entities[change.messageId];
  if (target && (target.deleted || (target.changeSeq ?? 0) >= change.changeSeq)) return;
  update(
    messages,
    change.messageId,
    (m) => ({ ...m, content: change.content, editedAt: change.editedAt, changeSeq: change.changeSeq }),
    (q) => (q.deleted ? q : { ...q, content: quoteOf(change.content) }),
  );
}

export function applyDeleted(messages: MessagesState, change: DeletedChange): void {
  update(
    messages,
    change.messageId,
    (m) => {
      const { replyTo: _replyTo, reactions: _reactions, ...rest } = m;
      return { ...rest, content: '', deleted: true, changeSeq: newer(m, change.changeSeq) };
    },
    (q) => ({ ...q, content: DELETED_MESSAGE_TEXT, deleted: true }),
  );
}

export function applyReaction(messages: MessagesState, change: ReactionChange): void {
  const m = messages.entities[change.messageId];
  if (!m || m.deleted) return;
  const reactions = (m.reactions ?? []).map((r) => ({ ...r, userIds: r.userIds.filter((id) => id !== change.userId || r.emoji !== change.emoji) }));
  if (change.on) {
    const existing = reactions.find((r) => r.emoji === change.emoji);
    if (existing) existing.userIds.push(change.userId);
    else reactions.push({ emoji: change.emoji, userIds: [change.userId] });
  }
  const left = reactions.filter((r) => r.userIds.length > 0);
  const { reactions: _old, ...rest } = m;
  messages.entities[change.messageId] = { ...rest, ...(left.length > 0 ? { reactions: left } : {}), changeSeq: newer(m, change.changeSeq) };
}

/**
 * A message's link preview arrived (issue 27). Not a change of the message (no changeSeq): a
 * deleted message is left alone. The preview is also held (the newest HELD_PREVIEWS), because it
 * can come before its message is on screen (the room still loading) or before a history page
 * fetched earlier replaces the message whole without it; reapplyLinkPreviews puts it back then.
 */
export function applyLinkPreview(messages: MessagesState, held: HeldPreviews, change: LinkPreviewChange): void {
  held[change.messageId] = change.linkPreview;
  const ids = Object.keys(held);
  if (ids.length > HELD_PREVIEWS) delete held[Number(ids[0])];
  reapplyLinkPreviews(messages, { [change.messageId]: change.linkPreview });
}

/** Link previews that came as events, by message id (the room's, while it is open). */
export type HeldPreviews = Record<number, LinkPreview>;
const HELD_PREVIEWS = 200;

/** Every held preview onto its message, when the message is on screen without one and not deleted. */
export function reapplyLinkPreviews(messages: MessagesState, held: HeldPreviews): void {
  for (const [id, linkPreview] of Object.entries(held)) {
    const m = messages.entities[Number(id)];
    if (m && !m.deleted && !m.linkPreview) messages.entities[Number(id)] = { ...m, linkPreview };
  }
}

/**
 * Messages answered by changedSince, whole: each replaces the copy on screen unless that copy
 * already shows a later change. Messages not on screen are left out: adding them would open a
 * gap in the list (they load with their page, as they are now). Set through the adapter, so
 * the order stays right even if a copy tells a seq the one on screen lacked.
 */
export function applyChangedMessages(messages: MessagesState, changed: readonly ChatMessage[]): void {
  const newerCopies = changed.filter((c) => {
    const held = messages.entities[c.messageId];
    return held !== undefined && (held.changeSeq ?? 0) <= (c.changeSeq ?? 0);
  });
  if (newerCopies.length > 0) messagesAdapter.setMany(messages, newerCopies);
}

/** The user's own reaction with that emoji, on or off. */
export function hasReacted(message: Pick<ChatMessage, 'reactions'>, emoji: string, userId: number): boolean {
  return message.reactions?.some((r) => r.emoji === emoji && r.userIds.includes(userId)) ?? false;
}

/** Whether the user may still delete the message for everyone (their own, within 24 hours). */
export function canDeleteForEveryone(message: Pick<ChatMessage, 'senderId' | 'enrolledAt' | 'deleted'>, userId: number, nowMs: number): boolean {
  return message.senderId === userId && !message.deleted && nowMs - Date.parse(message.enrolledAt) < LIMITS.deleteForEveryoneMs;
}
