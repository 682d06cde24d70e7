// Deleting one's own message for everyone (docs/protocol.md /app/delete-message), within 24
// hours of sending it. The text is emptied in the database, the message keeps its place (and
// seq) in the room, and the room hears {type: "deleted"}. Deleting it again changes nothing and
// is not an error: a client retrying after a lost RECEIPT must not be told it failed.
import { LIMITS } from '@common/rules';
import { InvalidError } from '../errors';
import type { MessageActionDeps } from './edit-message';
import { memberAndMessage } from './message-lookup';
import type { RoomEvents } from './room-events';
import type { RoomsRepository } from './rooms-repository';

export async function deleteMessage(
  deps: MessageActionDeps & { rooms: Pick<RoomsRepository, 'removeNotice'>; roomEvents: Pick<RoomEvents, 'notice'> }, userId: number, roomId: number, messageId: number): Promise<void> {
  const { message, members } = await memberAndMessage(deps, userId, roomId, messageId);
  if (message.senderId !== userId) throw new InvalidError('only your own messages can be deleted');
  if (message.deletedAtMs != null) return;
  const at = deps.clock();
  if (at - message.createdAtMs > LIMITS.deleteForEveryoneMs) throw new InvalidError('messages can be deleted for everyone only within 24 hours');
  const change = await deps.messages.deleteForEveryone(roomId, messageId, at);
  if (!change) return;
  deps.roomEvents.messageDeleted(roomId, messageId, change.changeSeq, { userId, members });
  // A deleted message is no notice: removed for everyone, who hear of it.
  if (await deps.rooms.removeNotice(roomId, messageId)) deps.roomEvents.notice(roomId, null);
  // Its files go with it: after the commit, so a failure here leaves bytes, never a message half
  // deleted. Ours: unless another message still shows one (a forward references the original's files, issue 27).
  for (const a of message.attachments ?? (message.attachment ? [message.attachment] : [])) {
    if (!(await deps.messages.attachmentInUse(a.id))) await deps.attachments?.remove(a.id);
  }
}
