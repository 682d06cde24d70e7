// Replies (docs/protocol.md replyTo): a message may reply to one message of the same room, not a
// deleted one. The quote is read with the reply, so it shows the original as it is now: at
// most 100 characters of its text, or the deleted text once it is deleted for everyone.
import type { ReplyQuote } from '@common/api';
import { LIMITS } from '@common/rules';
import { DELETED_MESSAGE_TEXT } from '@common/system-text';
import { InvalidError } from '../errors';
import type { MessagesRepository, RepliedMessage } from './messages-repository';

/** The original a new message replies to; InvalidError unless it is a live message of the room. */
export async function repliedMessage(messages: Pick<MessagesRepository, 'findById'>, roomId: number, replyToId: number): Promise<RepliedMessage> {
  const original = await messages.findById(replyToId);
  if (!original || original.roomId !== roomId) throw new InvalidError('replyToMessageId is not a message of this chat room');
  if (original.deletedAtMs != null) throw new InvalidError('a deleted message cannot be replied to');
  return { id: original.id, senderName: original.senderName, content: original.content, deleted: false };
}

/** The wire form of a quote, cut by code points so no emoji is split in half. */
export function toReplyQuote(r: RepliedMessage): ReplyQuote {
  if (r.deleted) return { messageId: r.id, senderName: r.senderName, content: DELETED_MESSAGE_TEXT, deleted: true };
  const chars = Array.from(r.content);
  return { messageId: r.id, senderName: r.senderName, content: chars.length > LIMITS.replyQuote ? chars.slice(0, LIMITS.replyQuote).join('') : r.content };
}
