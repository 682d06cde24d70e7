// A member's own settings of a room (ours, docs/protocol.md, PATCH /api/chat-room/settings):
// muted (no Web Push for the room's messages) and pinned (first in the member's chat list).
// Members only. The members cache carries `muted` for the push hook, so it is dropped here (and
// on the other nodes) when the setting changes.
import type { RoomSettings } from '@common/api';
import { NotAMemberError } from '../errors';
import type { ChatDeps } from './chat-deps';
import type { MemberSettings } from './rooms-repository';

export async function updateRoomSettings(
  { rooms, members }: Pick<ChatDeps, 'rooms' | 'members'>, userId: number, roomId: number, changes: Partial<MemberSettings>,
): Promise<RoomSettings> {
  const stored = await rooms.setSettings(roomId, userId, changes);
  if (!stored) throw new NotAMemberError();
  if (changes.muted !== undefined) members.invalidate(roomId);
  return { chatRoomId: roomId, ...stored };
}
