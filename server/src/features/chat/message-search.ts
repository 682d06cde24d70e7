// GET /api/search/messages (docs/protocol.md): messages of the caller's rooms containing a
// keyword, newest first, 20 a page. The spec's search rules hold: a trimmed keyword that is
// empty, just '%', too long or holding control characters finds nothing (and is no error).
// Asking within a room the caller is not in is refused.
import type { MessageSearchResponse } from '../../../../common/api';
import { isSearchableKeyword, LIMITS } from '../../../../common/rules';
import { NotAMemberError } from '../errors';
import type { MessageSearchEngine } from './message-search-repository';
import { viewerRoomName } from '../../../../common/room-names';
import type { RoomsRepository } from './rooms-repository';

export interface MessageSearchDeps {
  rooms: Pick<RoomsRepository, 'companyOf' | 'isMember'>;
  search: MessageSearchEngine;
}

export async function searchMessages(
  deps: MessageSearchDeps, userId: number, keyword: string, where: { roomId?: number; beforeId?: number },
): Promise<MessageSearchResponse> {
  if (where.roomId !== undefined && !(await deps.rooms.isMember(where.roomId, userId))) throw new NotAMemberError();
  if (!isSearchableKeyword(keyword)) return { results: [], hasMore: false };
  const limit = LIMITS.messageSearchPageSize;
  const [hits, company] = await Promise.all([
    deps.search.search(keyword.trim(), { userId, ...where, limit: limit + 1 }),
    deps.rooms.companyOf(userId),
  ]);
  const hasMore = hits.length > limit;
  return {
    results: hits.slice(0, limit).map((h) => ({
      chatRoomId: h.roomId,
      chatRoomName: viewerRoomName(h.roomName, h.roomRenamed, company.get(h.roomId) ?? []),
      messageId: h.messageId,
      seq: h.seq,
      senderName: h.senderName,
      content: h.content,
      enrolledAt: new Date(h.createdAtMs).toISOString(),
    })),
    hasMore,
  };
}
