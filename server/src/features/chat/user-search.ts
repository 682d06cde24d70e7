// Finding people (SPEC.md §5 Searches): a trimmed keyword that is empty or just % finds nobody
// without a query; the invite screen also learns who is already in the room.
import type { RoomSearchResponse, UserSummary } from '../../../../common/api';
import { isSearchableKeyword, LIMITS } from '../../../../common/rules';
import { InvalidError } from '../errors';
import type { ChatDeps } from './chat-deps';
import { requireMember } from './membership';

export async function searchUsers({ users }: Pick<ChatDeps, 'users'>, keyword: string): Promise<UserSummary[]> {
  if (keyword.length > LIMITS.searchInput) throw new InvalidError(`keyword is longer than ${LIMITS.searchInput} characters`);
  if (!isSearchableKeyword(keyword)) return [];
  const found = await users.search(keyword.trim(), LIMITS.searchResults);
  return found.map((u) => ({ userId: u.id, name: u.name, email: u.email }));
}

/** Users matching the keyword and the ids of the room's members, for the invite screen. */
export async function searchForRoom(deps: Pick<ChatDeps, 'users' | 'rooms'>, callerId: number, roomId: number, keyword: string): Promise<RoomSearchResponse> {
  if (keyword.length > LIMITS.searchInput) throw new InvalidError(`keyword is longer than ${LIMITS.searchInput} characters`);
  const { members } = await requireMember(deps.rooms, roomId, callerId);
  return { allUsers: await searchUsers(deps, keyword), chatRoomUsers: members.map((u) => u.id) };
}
