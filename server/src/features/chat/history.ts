// A room's history (docs/spec.md §7 chat-history): members only. By page (0 = newest 20), before a
// message id or seq (the 20 before it), after a seq (at most 100, oldest first, for catching
// up), around a seq (the 20 about it: a search result or a quote opened in its place), or
// changed since a change counter (at most 100, in change order: the edits, deletions and
// reactions a reconnecting client missed). Opening the room (a page, or before an id or seq)
// marks it read; catching up marks read what it answered; a page around a seq (an old place,
// not the newest) and changes mark nothing.
//
// One round trip to the database in a room that never changed (goal: p99 ≤ 5 ms with
// 1,000,000 messages): the room's members and the page are read at once, on two connections. The
// page needs nothing from the members: seqs are gap-free, so every page is a seq range (page n
// counted back from the room's newest, in the same statement), and it brings the room's counters
// as that statement saw them, so the change counter answered always describes the messages
// answered. A non-member's page is read and thrown away. Reactions are read after the page, by
// its messages, and only in a room whose change counter ever moved (every reaction moves it).
import type { ChatHistoryResponse, ReactionSummary } from '@common/api';
import { viewerRoomName } from '@common/room-names';
import { LIMITS } from '@common/rules';
import { NotAMemberError } from '../errors';
import { memberAmong } from './membership';
import type { HistoryQuery, Message, MessagesRepository } from './messages-repository';
import type { OnlineUsers } from './online-users';
import type { ReactionsRepository } from './reactions-repository';
import type { ReadMarkers } from './read-markers';
import type { RoomsRepository } from './rooms-repository';
import { toChatMessage } from './send-message';

export interface HistoryDeps {
  online: Pick<OnlineUsers, 'onlineAmong'>;
  rooms: Pick<RoomsRepository, 'withMembers'>;
  messages: Pick<MessagesRepository, 'page'>;
  reactions: Pick<ReactionsRepository, 'of'>;
  readMarkers: Pick<ReadMarkers, 'markRead'>;
}

export async function chatHistory(deps: HistoryDeps, userId: number, roomId: number, asked: HistoryQuery): Promise<ChatHistoryResponse> {
  const { rooms, messages, readMarkers, online } = deps;
  const catchingUp = 'afterSeq' in asked;
  const changes = 'changedSince' in asked;
  const around = 'aroundSeq' in asked;
  // One more row than asked tells whether more follow.
  const limit = changes ? LIMITS.changesPageSize + 1 : catchingUp ? LIMITS.catchUpPageSize + 1 : LIMITS.historyPageSize;
  const reading = messages.page(roomId, asked, limit);
  // Thrown away unread by a non-member (and never left to reject unhandled).
  reading.catch(() => {});
  const found = await rooms.withMembers(roomId);
  const users = found?.members ?? [];
  const me = memberAmong(users, userId);
  const { room } = found!;
  const [read, onlineNow] = await Promise.all([reading, online.onlineAmong(users.map((u) => u.id))]);
  // (Deleted with its last member between the two statements: as if asked a moment later.)
  if (!read) throw new NotAMemberError();
  const { messages: page, lastSeq, lastChangeSeq } = read;
  const hasMore = (catchingUp || changes) && page.length > limit - 1;
  if (hasMore) page.length = limit - 1;
  // Opening the room (a page, before an id or a seq) reads it up to its newest message, as the
  // page's statement saw it; catching up reads what it answers; a page around a seq (an old
  // place) and changes mark nothing. Re-opening a room already read writes nothing.
  const opening = !changes && !catchingUp && !around;
  const readUpTo = catchingUp ? (page.at(-1)?.seq ?? 0) : lastSeq;
  const marks = (opening && (me.lastReadSeq < readUpTo || me.lastReadAtMs === null)) || (catchingUp && me.lastReadSeq < readUpTo);
  // Every reaction takes the room's change counter: a room that never changed has none to read.
  const [reactions] = await Promise.all([
    lastChangeSeq > 0 ? deps.reactions.of(page.filter((m) => m.deletedAtMs == null).map((m) => m.id)) : new Map<number, ReactionSummary[]>(),
    marks ? readMarkers.markRead(roomId, userId, readUpTo) : null,
  ]);
  const response: ChatHistoryResponse = {
    totalPages: Math.ceil(lastSeq / LIMITS.historyPageSize),
    chatRoomName: viewerRoomName(room.name, room.renamed, users.filter((u) => u.id !== userId).map((u) => u.name)),
    renamed: room.renamed,
    users: users.map((u) => ({
      userId: u.id, name: u.name, email: u.email,
      lastReadSeq: u.id === userId && (opening || catchingUp) ? Math.max(u.lastReadSeq, readUpTo) : u.lastReadSeq,
      online: onlineNow.has(u.id),
      photoVersion: u.photoVersion, statusMessage: u.statusMessage,
    })),
    messages: page.map((m) => withReactions(m, m.deletedAtMs == null ? reactions.get(m.id) : undefined)),
    // With more changes to fetch, the client continues after the last one it got.
    lastChangeSeq: hasMore && changes ? (page.at(-1)?.changeSeq ?? lastChangeSeq) : lastChangeSeq,
  };
  if (catchingUp || changes) response.hasMore = hasMore;
  // Around a seq: whether newer messages follow the page (the client fetches them with afterSeq).
  if (around) response.hasMore = (page.at(-1)?.seq ?? 0) < lastSeq;
  return response;
}

function withReactions(m: Message, given: ReactionSummary[] | undefined): ReturnType<typeof toChatMessage> {
  const out = toChatMessage(m);
  if (given) out.reactions = given;
  return out;
}
