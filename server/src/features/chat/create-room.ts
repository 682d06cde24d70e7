// Starting a chat (docs/spec.md §7 chat-room/create): a new room of the caller and the target,
// named after both. A two-person room of the same two that no one renamed is
// reopened instead of made again, and only the caller's list refreshes: the target hears of the
// room with its first message, so creating it raises no count on their tab.
// Ours: a new room opened by someone the target blocked is left out of the target's chat list
// (they are never told); reopening a room one had left out of one's own list shows it again.
import { topics } from '@common/destinations';
import { ForbiddenError, InvalidError } from '../errors';
import type { ChatDeps } from './chat-deps';

export async function createRoom(deps: Pick<ChatDeps, 'rooms' | 'users' | 'publisher' | 'clock' | 'blocks'>, callerId: number, targetUserId: number): Promise<number> {
  const { rooms, users, publisher, clock } = deps;
  if (targetUserId === callerId) throw new InvalidError('cannot start a chat with yourself');
  const [caller, target] = await Promise.all([users.findById(callerId), users.findById(targetUserId)]);
  if (!target) throw new InvalidError('no such user');
  if (!caller) throw new ForbiddenError('no such user');
  const existing = await rooms.twoPersonRoom(caller.id, target.id);
  if (existing !== null) {
    await rooms.setHidden(existing, caller.id, false);
    return existing;
  }
  const hiddenFor = (await deps.blocks.blocks(target.id, caller.id)) ? target.id : null;
  const roomId = await rooms.createRoom(`${caller.name}, ${target.name}`, [caller.id, target.id], clock(), hiddenFor);
  publisher.publish(topics.toggleRefresh(caller.id), 'true');
  return roomId;
}
