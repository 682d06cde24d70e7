// Starting a chat (SPEC.md §7 chat-room/create): a new room of the caller and the target,
// named after both; both chat lists refresh.
import { topics } from '../../../../common/destinations';
import { ForbiddenError, InvalidError } from '../errors';
import type { ChatDeps } from './chat-deps';

export async function createRoom(deps: Pick<ChatDeps, 'rooms' | 'users' | 'publisher' | 'clock'>, callerId: number, targetUserId: number): Promise<number> {
  const { rooms, users, publisher, clock } = deps;
  if (targetUserId === callerId) throw new InvalidError('cannot start a chat with yourself');
  const [caller, target] = await Promise.all([users.findById(callerId), users.findById(targetUserId)]);
  if (!target) throw new InvalidError('no such user');
  if (!caller) throw new ForbiddenError('no such user');
  const roomId = await rooms.createRoom(`${caller.name}, ${target.name}`, [caller.id, target.id], clock());
  for (const id of [caller.id, target.id]) publisher.publish(topics.toggleRefresh(id), 'true');
  return roomId;
}
