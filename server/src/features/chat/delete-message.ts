// Deleting one's own message for everyone (docs/protocol.md /app/delete-message), within 24
// hours of sending it. The text is emptied in the database, the message keeps its place (and
// seq) in the room, and the room hears {type: "deleted"}. Deleting it again changes nothing and
// is not an error: a client retrying after a lost RECEIPT must not be told it failed.
import { LIMITS } from '@common/rules';
import { InvalidError } from '../errors';
import type { MessageActionDeps } from './edit-message';
import { memberAndMessage } from './message-lookup';

export async function deleteMessage(deps: MessageActionDeps, userId: number, roomId: number, messageId: number): Promise<void> {
  const { message } = await memberAndMessage(deps, userId, roomId, messageId);
  if (message.senderId !== userId) throw new InvalidError('only your own messages can be deleted');
  if (message.deletedAtMs != null) return;
  const at = deps.clock();
  if (at - message.createdAtMs > LIMITS.deleteForEveryoneMs) throw new InvalidError('messages can be deleted for everyone only within 24 hours');
  const change = await deps.messages.deleteForEveryone(roomId, messageId, at);
  if (!change) return;
  deps.roomEvents.messageDeleted(roomId, messageId, change.changeSeq);
  // Its file goes with it: after the commit, so a failure here leaves bytes, never a message half deleted.
  if (message.attachment) await deps.attachments?.remove(message.attachment.id);
}
