// The kernel of acting on a message (edit, delete, react, reply): the caller is a member of
// the room and the message is one of that room's. A message id of another room is refused as
// unknown, so ids reveal nothing about rooms the caller is not in.
import { InvalidError } from '../errors';
import type { MembersCache } from './members-cache';
import { memberAmong } from './membership';
import type { Message, MessagesRepository } from './messages-repository';
import type { ChatUser } from './rooms-repository';

export interface MessageLookupDeps {
  members: Pick<MembersCache, 'get'>;
  messages: Pick<MessagesRepository, 'findById'>;
}

/** The member and the room's message; NotAMemberError or InvalidError otherwise. */
export async function memberAndMessage(deps: MessageLookupDeps, userId: number, roomId: number, messageId: number): Promise<{ me: ChatUser; message: Message; members: ChatUser[] }> {
  const members = await deps.members.get(roomId, userId);
  const me = memberAmong(members, userId);
  const message = await deps.messages.findById(messageId);
  // One from before the member joined (a private past) is as unknown to them as any other.
  if (!message || message.roomId !== roomId || message.seq < (me.visibleFromSeq ?? 0)) throw new InvalidError('no such message in this chat room');
  return { me, message, members };
}

/** The caller's own message, not deleted: what edit and delete act on. */
export function requireOwnLiveMessage(message: Message, userId: number, action: string): void {
  if (message.senderId !== userId) throw new InvalidError(`only your own messages can be ${action}`);
  if (message.deletedAtMs != null) throw new InvalidError('the message was deleted');
}
