// Inviting someone (docs/spec.md §7 add-user): any member adds a user who is not yet in the room;
// the room, the added user included, is told with a system message. Ours: someone the user
// blocked cannot add them (answered as if done, nothing happens: the blocked person is never
// told); the added member reads the room from their joining on (rooms-repository's addMember).
import { InvalidError } from '../errors';
import type { ChatDeps } from './chat-deps';
import { requireMember } from './membership';
import { systemMessages } from './system-messages';

export async function addUser(deps: Pick<ChatDeps, 'rooms' | 'users' | 'members' | 'sender' | 'clock' | 'blocks'>, callerId: number, roomId: number, userId: number): Promise<void> {
  const { rooms, users, members, sender, clock } = deps;
  const { me: inviter, members: present } = await requireMember(rooms, roomId, callerId);
  // Ours: a memo room (나와의 채팅) is its owner's alone.
  if (await rooms.isSelfRoom(roomId)) throw new InvalidError('no one can be added to a memo room');
  const target = await users.findById(userId);
  if (!target) throw new InvalidError('no such user');
  if (!present.some((m) => m.id === target.id) && (await deps.blocks.blocks(target.id, callerId))) return;
  if (!(await rooms.addMember(roomId, target.id, clock()))) throw new InvalidError('already a member of this chat room');
  members.invalidate(roomId);
  const roomName = (await rooms.roomName(roomId)) ?? '';
  // The system message toggles every member's refresh topic, the added user's included.
  await sender.postSystemMessage(roomId, systemMessages.added(inviter, { id: target.id, name: target.name, email: target.email }, roomName));
}
