// A room's history, page by page (SPEC.md §7 chat-history): members only; loading a page
// marks the room read.
import type { ChatHistoryResponse } from '../../../../common/api';
import { LIMITS } from '../../../../common/rules';
import { memberAmong } from './membership';
import type { HistoryPage, MessagesRepository } from './messages-repository';
import type { ReadMarkers } from './read-markers';
import type { RoomsRepository } from './rooms-repository';
import { toChatMessage } from './send-message';

export interface HistoryDeps {
  rooms: RoomsRepository;
  messages: MessagesRepository;
  readMarkers: ReadMarkers;
}

export async function chatHistory(deps: HistoryDeps, userId: number, roomId: number, which: HistoryPage): Promise<ChatHistoryResponse> {
  const { rooms, messages, readMarkers } = deps;
  // The statements are independent, so they run at once: opening a room costs one round
  // trip's latency, not five. The read marker is keyed by (room, user), so for a non-member
  // it changes nothing before the refusal below.
  const [users, roomName, page, total] = await Promise.all([
    rooms.members(roomId),
    rooms.roomName(roomId),
    messages.page(roomId, which, LIMITS.historyPageSize),
    messages.count(roomId),
    readMarkers.markAllRead(roomId, userId),
  ]);
  memberAmong(users, userId);
  return {
    totalPages: Math.ceil(total / LIMITS.historyPageSize),
    chatRoomName: roomName ?? '',
    users: users.map((u) => ({ userId: u.id, name: u.name, email: u.email })),
    messages: page.map(toChatMessage),
  };
}
