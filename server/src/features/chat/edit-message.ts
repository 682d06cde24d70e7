// Editing one's own message (docs/protocol.md /app/edit-message): the same rules as a new
// message (1 to 3000 characters after trimming, no control or bidi-override characters); a
// deleted message stays deleted. The room hears {type: "edited"} on its room-events topic.
import { hasForbiddenCharacters, isSendableMessage, LIMITS } from '@common/rules';
import { InvalidError } from '../errors';
import type { AttachmentPort } from '../attachments/attachments-service';
import type { Clock } from '../types';
import { memberAndMessage, requireOwnLiveMessage, type MessageLookupDeps } from './message-lookup';
import type { MessagesRepository } from './messages-repository';
import type { RoomEvents } from './room-events';

export interface MessageActionDeps extends MessageLookupDeps {
  messages: Pick<MessagesRepository, 'findById' | 'edit' | 'deleteForEveryone' | 'attachmentInUse'>;
  roomEvents: Pick<RoomEvents, 'messageEdited' | 'messageDeleted' | 'reaction'>;
  clock: Clock;
  /** Removes a deleted message's attachment. */
  attachments?: Pick<AttachmentPort, 'remove'>;
}

export async function editMessage(deps: MessageActionDeps, userId: number, roomId: number, messageId: number, content: string): Promise<void> {
  if (hasForbiddenCharacters(content, 'message')) throw new InvalidError('content holds control or bidi-override characters');
  if (!isSendableMessage(content)) throw new InvalidError(`content must be 1 to ${LIMITS.message} characters`);
  const { message, members } = await memberAndMessage(deps, userId, roomId, messageId);
  requireOwnLiveMessage(message, userId, 'edited');
  const text = content.trim();
  const at = deps.clock();
  const change = await deps.messages.edit(roomId, messageId, text, at);
  if (!change) throw new InvalidError('the message was deleted');
  deps.roomEvents.messageEdited(roomId, messageId, text, at, change.changeSeq, { userId, members });
}
