// Renaming a room (docs/spec.md §7 update-subject): any member, 1 to 50 characters after trimming;
// the room is told with a system message.
import { hasForbiddenCharacters, isValidRoomName, LIMITS } from '@common/rules';
import { InvalidError } from '../errors';
import type { ChatDeps } from './chat-deps';
import { requireMember } from './membership';
import { systemMessages } from './system-messages';

export async function renameRoom(deps: Pick<ChatDeps, 'rooms' | 'members' | 'sender'>, callerId: number, roomId: number, requested: string): Promise<string> {
  const { rooms, members, sender } = deps;
  if (hasForbiddenCharacters(requested, 'name')) throw new InvalidError('chatRoomName holds control or bidi-override characters');
  if (!isValidRoomName(requested)) throw new InvalidError(`chatRoomName must be 1 to ${LIMITS.roomName} characters`);
  const { me } = await requireMember(rooms, roomId, callerId);
  const name = requested.trim();
  await rooms.rename(roomId, name);
  members.invalidate(roomId);
  await sender.postSystemMessage(roomId, systemMessages.renamed(me, name));
  return name;
}
