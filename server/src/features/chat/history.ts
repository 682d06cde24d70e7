// A room's history (SPEC.md §7 chat-history): members only. By page (0 = newest 20), before a
// message id or seq (the 20 before it), or after a seq (at most 100, oldest first, for catching
// up). Opening the room (a page, or before an id or seq) marks it read; catching up marks read
// what it answered.
import type { ChatHistoryResponse } from '../../../../common/api';
import { LIMITS } from '../../../../common/rules';
import { memberAmong } from './membership';
import type { HistoryPage, MessagesRepository } from './messages-repository';
import type { OnlineUsers } from './online-users';
import type { ReadMarkers } from './read-markers';
import { viewerRoomName } from './room-names';
import type { RoomsRepository } from './rooms-repository';
import { toChatMessage } from './send-message';

export interface HistoryDeps {
  online: Pick<OnlineUsers, 'isOnline'>;
  rooms: RoomsRepository;
  messages: MessagesRepository;
  readMarkers: ReadMarkers;
}

export async function chatHistory(deps: HistoryDeps, userId: number, roomId: number, which: HistoryPage): Promise<ChatHistoryResponse> {
  const { rooms, messages, readMarkers, online } = deps;
  const catchingUp = 'afterSeq' in which;
  // The statements are independent, so they run at once: opening a room costs one round
  // trip's latency, not three. One more row than asked tells whether more follow.
  const [users, room, page] = await Promise.all([
    rooms.members(roomId),
    rooms.room(roomId),
    messages.page(roomId, which, catchingUp ? LIMITS.catchUpPageSize + 1 : LIMITS.historyPageSize),
  ]);
  const me = memberAmong(users, userId);
  const hasMore = catchingUp && page.length > LIMITS.catchUpPageSize;
  if (hasMore) page.length = LIMITS.catchUpPageSize;
  const lastSeq = room?.lastSeq ?? 0;
  const readUpTo = catchingUp ? (page.at(-1)?.seq ?? 0) : lastSeq;
  // Re-opening a room already read writes nothing: the position read with the members says so.
  const moves = me.lastReadSeq < readUpTo || (me.lastReadAtMs === null && !catchingUp);
  if (moves) await readMarkers.markRead(roomId, userId, readUpTo);
  const response: ChatHistoryResponse = {
    totalPages: Math.ceil(lastSeq / LIMITS.historyPageSize),
    chatRoomName: viewerRoomName(room?.name ?? '', room?.renamed ?? true, users.filter((u) => u.id !== userId).map((u) => u.name)),
    users: users.map((u) => ({
      userId: u.id, name: u.name, email: u.email,
      lastReadSeq: u.id === userId ? Math.max(u.lastReadSeq, readUpTo) : u.lastReadSeq,
      online: online.isOnline(u.id),
    })),
    messages: page.map(toChatMessage),
  };
  if (catchingUp) response.hasMore = hasMore;
  return response;
}
