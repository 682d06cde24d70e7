// Leaving a room (docs/spec.md §7 leave-chat): the member is removed and the room told; a room left
// empty is deleted with its messages, their search index rows and its attachments
// (RoomsRepository.removeMember). The leaver's own tabs get the leave message before their
// subscriptions to the room end (so they close the room), and their chat list refreshes.
import { topics } from '@common/destinations';
import { NotAMemberError } from '../errors';
import type { ChatDeps } from './chat-deps';
import { requireMember } from './membership';
import { systemMessages, type SystemMessage } from './system-messages';

type LeaveDeps = Pick<ChatDeps, 'rooms' | 'members' | 'sender' | 'readMarkers' | 'publisher' | 'memberLeft'>;

export async function leaveRoom(deps: LeaveDeps, callerId: number, roomId: number): Promise<void> {
  const { rooms, members, readMarkers, publisher } = deps;
  const { me: leaver } = await requireMember(rooms, roomId, callerId);
  const roomName = (await rooms.roomName(roomId)) ?? '';
  const { removed, roomDeleted } = await rooms.removeMember(roomId, callerId);
  if (!removed) throw new NotAMemberError();
  members.invalidate(roomId);
  readMarkers.memberLeft(callerId, roomId);
  deps.memberLeft?.(roomId, callerId);
  try {
    await announceLeave(deps, roomId, leaver.id, systemMessages.left(leaver, roomName), roomDeleted);
  } finally {
    // Already done when the message went out; this covers a failure before that.
    publisher.unsubscribeUser(callerId, topics.privateChat(roomId));
    publisher.unsubscribeUser(callerId, topics.chatRoomEvents(roomId));
    publisher.publish(topics.toggleRefresh(callerId), 'true');
  }
}

async function announceLeave(deps: LeaveDeps, roomId: number, leaverId: number, message: SystemMessage, roomDeleted: boolean): Promise<void> {
  const { rooms, sender } = deps;
  if (!roomDeleted) {
    try {
      await sender.postSystemMessage(roomId, message);
      return;
    } catch (err) {
      // The last other member left meanwhile: the room is gone with its messages, and this
      // leave still succeeded.
      if ((await rooms.roomName(roomId)) !== null) throw err;
    }
  }
  sender.tellLeaverOfDeletedRoom(roomId, leaverId, message);
}
