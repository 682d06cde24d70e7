// Finding people (docs/spec.md §5 Searches): a trimmed keyword that is empty or just % finds nobody
// without a query, and so does one of a single character; names match by substring, e-mail
// addresses only whole or by their whole local part. The invite screen also learns who is
// already in the room.
import type { RoomSearchResponse, UserSummary } from '@common/api';
import { isSearchableKeyword, LIMITS } from '@common/rules';
import { InvalidError } from '../errors';
import type { ChatDeps } from './chat-deps';
import { requireMember } from './membership';

/** A single character (or "@") would list the whole directory: a search needs two. */
export const MIN_DIRECTORY_KEYWORD = 2;

export async function searchUsers({ users, online }: Pick<ChatDeps, 'users' | 'online'>, keyword: string): Promise<UserSummary[]> {
  if (keyword.length > LIMITS.searchInput) throw new InvalidError(`keyword is longer than ${LIMITS.searchInput} characters`);
  if (!isSearchableKeyword(keyword) || keyword.trim().length < MIN_DIRECTORY_KEYWORD) return [];
  const found = await users.search(keyword.trim(), LIMITS.searchResults);
  const onlineNow = await online.onlineAmong(found.map((u) => u.id));
  return found.map((u) => ({ userId: u.id, name: u.name, email: u.email, online: onlineNow.has(u.id), photoVersion: u.photoVersion, statusMessage: u.statusMessage }));
}

/** Users matching the keyword and the ids of the room's members, for the invite screen. */
export async function searchForRoom(deps: Pick<ChatDeps, 'users' | 'rooms' | 'online'>, callerId: number, roomId: number, keyword: string): Promise<RoomSearchResponse> {
  if (keyword.length > LIMITS.searchInput) throw new InvalidError(`keyword is longer than ${LIMITS.searchInput} characters`);
  const { members } = await requireMember(deps.rooms, roomId, callerId);
  return { allUsers: await searchUsers(deps, keyword), chatRoomUsers: members.map((u) => u.id) };
}
