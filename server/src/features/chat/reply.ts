// Replies (docs/protocol.md replyTo): a message may reply to one message of the same room, not a
// deleted one. The quote is read with the reply, so it shows the original as it is now: at
// most 100 characters of its text, or the deleted text once it is deleted for everyone.
import type { ReplyQuote } from '@common/api';
import { LIMITS } from '@common/rules';
import { BLOCKED_QUOTE_TEXT, DELETED_MESSAGE_TEXT } from '@common/system-text';
import { InvalidError } from '../errors';
import type { MessagesRepository, RepliedMessage } from './messages-repository';

/**
 * The original a new message replies to; InvalidError unless it is a live message of the room
 * the sender may read (`visibleFromSeq`: not one from before they joined, a private past).
 */
export async function repliedMessage(messages: Pick<MessagesRepository, 'findById'>, roomId: number, replyToId: number, visibleFromSeq = 0): Promise<RepliedMessage> {
  const original = await messages.findById(replyToId);
  if (!original || original.roomId !== roomId || original.seq < visibleFromSeq) throw new InvalidError('replyToMessageId is not a message of this chat room');
  if (original.deletedAtMs != null) throw new InvalidError('a deleted message cannot be replied to');
  return { id: original.id, senderName: original.senderName, content: original.content, deleted: false, senderId: original.senderId };
}

/**
 * A quote as a reader who blocked the quoted sender sees it: no text of theirs (their message is
 * kept from the reader, so is what others quote of it).
 */
export function blockedQuote(q: ReplyQuote): ReplyQuote {
  return { messageId: q.messageId, senderName: q.senderName, content: BLOCKED_QUOTE_TEXT, blocked: true };
}

/** Whether a reader who blocked these people sees the reply's quote as blockedQuote. */
export function quotesBlocked(replyTo: RepliedMessage | null | undefined, blocked: ReadonlySet<number> | readonly number[] | undefined): boolean {
  const id = replyTo?.senderId;
  if (id == null || !blocked) return false;
  return 'has' in blocked ? blocked.has(id) : blocked.includes(id);
}

/** The wire form of a quote, cut by code points so no emoji is split in half. */
export function toReplyQuote(r: RepliedMessage): ReplyQuote {
  if (r.deleted) return { messageId: r.id, senderName: r.senderName, content: DELETED_MESSAGE_TEXT, deleted: true };
  const chars = Array.from(r.content);
  return { messageId: r.id, senderName: r.senderName, content: chars.length > LIMITS.replyQuote ? chars.slice(0, LIMITS.replyQuote).join('') : r.content };
}
