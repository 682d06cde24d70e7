// Ours (issue 27, docs/protocol.md): passing messages on. Forwarding a message to up to 10 of
// the sender's rooms (through the send path: the writer and the fan-out, so blocks, refresh,
// push and link previews apply as to any message of theirs), hiding one for oneself (delete for
// me), and the user's own memo room (나와의 채팅).
import { topics } from '@common/destinations';
import { LIMITS } from '@common/rules';
import { MEMO_ROOM_NAME } from '@common/system-text';
import { InvalidError } from '../errors';
import type { ChatDeps } from './chat-deps';
import type { HiddenMessagesRepository } from './hidden-messages-repository';
import { memberAmong } from './membership';
import type { Message } from './messages-repository';
import type { ForwardedParts } from './send-message';

/** A message the caller cannot read, as unknown as one that does not exist: ids reveal nothing. */
const unknownMessage = () => new InvalidError('no such message in your chat rooms');

/** The message and the caller's membership of its room, when the caller may read it (a member, not a private past, not someone they blocked). */
async function readableMessage(deps: Pick<ChatDeps, 'members' | 'messages'>, userId: number, messageId: number): Promise<Message> {
  const message = await deps.messages.findById(messageId);
  if (!message) throw unknownMessage();
  const members = await deps.members.get(message.roomId, userId);
  const me = members.find((m) => m.id === userId);
  if (!me || message.seq < (me.visibleFromSeq ?? 0)) throw unknownMessage();
  if (message.senderId !== null && me.blocks?.includes(message.senderId) === true) throw unknownMessage();
  return message;
}

/**
 * What a forward carries over from its original: the text, and the attachment referenced (the
 * same row, not a copy). The one place to extend when a message carries several attachments.
 */
export function carriedParts(original: Message): ForwardedParts {
  return { content: original.content, attachments: original.attachments ?? (original.attachment ? [original.attachment] : []) };
}

/**
 * /app/forward-message: a person's message the caller can read, not deleted, into each of the
 * rooms (distinct, at most LIMITS.forwardRooms, every one checked before any is sent). Each
 * forward is a new message of the caller's with `forwarded: true`; `clientMsgId` makes a retry
 * store nothing twice (it is unique per sender and room).
 */
export async function forwardMessage(
  deps: Pick<ChatDeps, 'members' | 'messages' | 'sender'>, userId: number, messageId: number, roomIds: readonly number[], clientMsgId: string | null,
): Promise<void> {
  const rooms = [...new Set(roomIds)];
  if (rooms.length === 0 || rooms.length > LIMITS.forwardRooms) throw new InvalidError(`a message can be forwarded to 1 to ${LIMITS.forwardRooms} chat rooms at once`);
  const original = await readableMessage(deps, userId, messageId);
  if (original.senderId === null) throw new InvalidError('a system message cannot be forwarded');
  if (original.deletedAtMs != null) throw new InvalidError('the message was deleted');
  for (const roomId of rooms) memberAmong(await deps.members.get(roomId, userId), userId);
  const parts = carriedParts(original);
  await Promise.all(rooms.map((roomId) => deps.sender.sendForward(userId, roomId, parts, clientMsgId)));
}

/**
 * /app/hide-message (delete for me): the message leaves the caller's history and search, for
 * them alone; their own subscriptions of the room's events (every tab) hear `hidden`. Again is
 * no error and tells nothing.
 */
export async function hideMessage(
  deps: Pick<ChatDeps, 'members' | 'messages' | 'roomEvents' | 'clock'> & { hidden: Pick<HiddenMessagesRepository, 'hide'> }, userId: number, messageId: number,
): Promise<void> {
  const message = await readableMessage(deps, userId, messageId);
  if (await deps.hidden.hide(userId, message.id, deps.clock())) deps.roomEvents.hidden(message.roomId, userId, message.id);
}

/** POST /api/chat-room/self: the user's memo room, made on first use (its one member: them). */
export async function memoRoom(deps: Pick<ChatDeps, 'rooms' | 'publisher' | 'clock'>, userId: number): Promise<number> {
  const existing = await deps.rooms.selfRoom(userId);
  if (existing !== null) return existing;
  const { roomId, made } = await deps.rooms.createSelfRoom(userId, MEMO_ROOM_NAME, deps.clock());
  if (made) deps.publisher.publish(topics.toggleRefresh(userId), 'true');
  return roomId;
}
