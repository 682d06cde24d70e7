// The kernel's member check: only a room's members act on it. Every chat rule that needs the
// caller to be a member asks here, and refuses with NotAMemberError (403 / ERROR frame).
import { NotAMemberError } from '../errors';
import type { ChatUser, RoomsRepository } from './rooms-repository';

export interface Membership {
  me: ChatUser;
  /** Every member of the room, the caller included, in the order they joined. */
  members: ChatUser[];
}

export function memberAmong<T extends ChatUser>(members: T[], userId: number): T {
  const me = members.find((u) => u.id === userId);
  if (!me) throw new NotAMemberError();
  return me;
}

export async function requireMember(rooms: Pick<RoomsRepository, 'members'>, roomId: number, userId: number): Promise<Membership> {
  const members = await rooms.members(roomId);
  return { me: memberAmong(members, userId), members };
}
