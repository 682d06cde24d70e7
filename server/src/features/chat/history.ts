// A room's history (SPEC.md §7 chat-history): members only. By page (0 = newest 20), before a
// message id or seq (the 20 before it), after a seq (at most 100, oldest first, for catching
// up), around a seq (the 20 about it: a search result or a quote opened in its place), or
// changed since a change counter (at most 100, in change order: the edits, deletions and
// reactions a reconnecting client missed). Opening the room (a page, or before an id or seq)
// marks it read; catching up marks read what it answered; a page around a seq (an old place,
// not the newest) and changes mark nothing.
import type { ChatHistoryResponse } from '../../../../common/api';
import { LIMITS } from '../../../../common/rules';
import { memberAmong } from './membership';
import type { HistoryPage, Message, MessagesRepository } from './messages-repository';
import type { OnlineUsers } from './online-users';
import type { ReactionsRepository } from './reactions-repository';
import type { ReadMarkers } from './read-markers';
import { viewerRoomName } from './room-names';
import type { RoomsRepository } from './rooms-repository';
import { toChatMessage } from './send-message';

/** Which part of the history: a page of messages, or the messages changed since a counter. */
export type HistoryQuery = HistoryPage | { changedSince: number };

export interface HistoryDeps {
  online: Pick<OnlineUsers, 'isOnline'>;
  rooms: RoomsRepository;
  messages: MessagesRepository;
  reactions: Pick<ReactionsRepository, 'of'>;
  readMarkers: ReadMarkers;
}

function messagesOf(deps: HistoryDeps, roomId: number, which: HistoryQuery): Promise<Message[]> {
  if ('changedSince' in which) return deps.messages.changedSince(roomId, which.changedSince, LIMITS.changesPageSize + 1);
  return deps.messages.page(roomId, which, 'afterSeq' in which ? LIMITS.catchUpPageSize + 1 : LIMITS.historyPageSize);
}

export async function chatHistory(deps: HistoryDeps, userId: number, roomId: number, which: HistoryQuery): Promise<ChatHistoryResponse> {
  const { rooms, messages, readMarkers, online } = deps;
  const catchingUp = 'afterSeq' in which;
  const changes = 'changedSince' in which;
  const around = 'aroundSeq' in which;
  // The change counter is read before the messages: a change committed in between is then in
  // the answer and asked for again later (applying it twice is harmless), never skipped.
  const lastChangeSeq = await messages.lastChangeSeq(roomId);
  // The statements are independent, so they run at once: opening a room costs one round
  // trip's latency, not three. One more row than asked tells whether more follow.
  const [users, room, page] = await Promise.all([rooms.members(roomId), rooms.room(roomId), messagesOf(deps, roomId, which)]);
  const me = memberAmong(users, userId);
  const limit = changes ? LIMITS.changesPageSize : LIMITS.catchUpPageSize;
  const hasMore = (catchingUp || changes) && page.length > limit;
  if (hasMore) page.length = limit;
  const lastSeq = room?.lastSeq ?? 0;
  const readUpTo = catchingUp ? (page.at(-1)?.seq ?? 0) : lastSeq;
  // Re-opening a room already read writes nothing: the position read with the members says so.
  // Asking for changes reads no new message, so it marks nothing.
  const moves = !changes && !around && (me.lastReadSeq < readUpTo || (me.lastReadAtMs === null && !catchingUp));
  if (moves) await readMarkers.markRead(roomId, userId, readUpTo);
  const reactions = await deps.reactions.of(page.filter((m) => m.deletedAtMs == null).map((m) => m.id));
  const response: ChatHistoryResponse = {
    totalPages: Math.ceil(lastSeq / LIMITS.historyPageSize),
    chatRoomName: viewerRoomName(room?.name ?? '', room?.renamed ?? true, users.filter((u) => u.id !== userId).map((u) => u.name)),
    users: users.map((u) => ({
      userId: u.id, name: u.name, email: u.email,
      lastReadSeq: u.id === userId && moves ? Math.max(u.lastReadSeq, readUpTo) : u.lastReadSeq,
      online: online.isOnline(u.id),
    })),
    messages: page.map((m) => {
      const out = toChatMessage(m);
      const given = reactions.get(m.id);
      if (given) out.reactions = given;
      return out;
    }),
    // With more changes to fetch, the client continues after the last one it got.
    lastChangeSeq: hasMore && changes ? (page.at(-1)?.changeSeq ?? lastChangeSeq) : lastChangeSeq,
  };
  if (catchingUp || changes) response.hasMore = hasMore;
  // Around a seq: whether newer messages follow the page (the client fetches them with afterSeq).
  if (around) response.hasMore = (page.at(-1)?.seq ?? 0) < lastSeq;
  return response;
}
