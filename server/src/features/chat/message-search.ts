// GET /api/search/messages (docs/protocol.md): messages of the caller's rooms containing a
// keyword, newest first, 20 a page. The spec's search rules hold: a trimmed keyword that is
// empty, just '%', too long or holding control characters finds nothing (and is no error).
// Asking within a room the caller is not in is refused. A search walks the index in every room
// of the caller, so one user runs at most SEARCHES_AT_ONCE at a time on a node (429 beyond).
// Ours: the messages of people the caller blocked, and those of a room from before the caller
// joined it (a private past), are left out of the page after it is read (a page may then be
// shorter; `hasMore` and beforeId still walk on).
import type { MessageSearchResponse } from '@common/api';
import { isSearchableKeyword, LIMITS } from '@common/rules';
import { NotAMemberError, RateLimitedError } from '../errors';
import type { MessageSearchEngine } from './message-search-repository';
import { viewerRoomName } from '@common/room-names';
import type { RoomsRepository } from './rooms-repository';
import type { BlockLookup } from './block-lookup';
import type { HiddenMessagesRepository } from './hidden-messages-repository';

export interface MessageSearchDeps {
  rooms: Pick<RoomsRepository, 'companyOf' | 'isMember' | 'visibleFrom'>;
  blocks: Pick<BlockLookup, 'blockedBy'>;
  search: MessageSearchEngine;
  searchesInFlight: SearchesInFlight;
  /** Ours: the caller's delete-for-me, left out like blocked senders' messages. */
  hidden?: Pick<HiddenMessagesRepository, 'hiddenAmong'>;
}

// Our client runs one search per box (the room's and the chat list's) and its next page: four leave room for a second tab.
const SEARCHES_AT_ONCE = 4;

/** How many searches each user has running on this node, refusing one beyond the limit. */
export class SearchesInFlight {
  private readonly running = new Map<number, number>();

  constructor(private readonly max = SEARCHES_AT_ONCE) {}

  async run<T>(userId: number, search: () => Promise<T>): Promise<T> {
    const now = this.running.get(userId) ?? 0;
    if (now >= this.max) throw new RateLimitedError(1, 'too many searches at once');
    this.running.set(userId, now + 1);
    try {
      return await search();
    } finally {
      const left = this.running.get(userId)! - 1;
      if (left === 0) this.running.delete(userId);
      else this.running.set(userId, left);
    }
  }
}

export async function searchMessages(
  deps: MessageSearchDeps, userId: number, keyword: string, where: { roomId?: number; beforeId?: number },
): Promise<MessageSearchResponse> {
  if (where.roomId !== undefined && !(await deps.rooms.isMember(where.roomId, userId))) throw new NotAMemberError();
  if (!isSearchableKeyword(keyword)) return { results: [], hasMore: false };
  const limit = LIMITS.messageSearchPageSize;
  const [hits, company, blocked, visibleFrom] = await deps.searchesInFlight.run(userId, () => Promise.all([
    deps.search.search(keyword.trim(), { userId, ...where, limit: limit + 1 }),
    deps.rooms.companyOf(userId),
    deps.blocks.blockedBy(userId),
    deps.rooms.visibleFrom(userId),
  ]));
  const hasMore = hits.length > limit;
  const page = hits.slice(0, limit);
  const hidden = deps.hidden ? await deps.hidden.hiddenAmong(userId, page.map((h) => h.messageId)) : new Set<number>();
  const readable = page.filter((h) => !blocked.has(h.senderId) && h.seq >= (visibleFrom.get(h.roomId) ?? 0) && !hidden.has(h.messageId));
  return {
    results: readable.map((h) => ({
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
