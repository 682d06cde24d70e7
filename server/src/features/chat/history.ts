// A room's history (SPEC.md §7 chat-history): members only. By page (0 = newest 20), before a
// message id or seq (the 20 before it), after a seq (at most 100, oldest first, for catching
// up), around a seq (the 20 about it: a search result or a quote opened in its place), or
// changed since a change counter (at most 100, in change order: the edits, deletions and
// reactions a reconnecting client missed). Opening the room (a page, or before an id or seq)
// marks it read; catching up marks read what it answered; a page around a seq (an old place,
// not the newest) and changes mark nothing.
//
// Two round trips to the database (issue 11: p99 ≤ 5 ms with 1,000,000 messages): first the
// room's row with its members (one statement), then, at once, the page, its reactions, the
// members' presence and the read marker. Seqs are gap-free, so the first answer already says
// which seqs a page holds: page n is the seqs before the room's newest minus n pages, and the
// reactions are read by that seq range beside the page instead of after it; in a room whose
// change counter never moved (no reaction, edit or deletion ever) they are not read at all.
import type { ChatHistoryResponse, ReactionSummary } from '../../../../common/api';
import { viewerRoomName } from '../../../../common/room-names';
import { LIMITS } from '../../../../common/rules';
import { memberAmong } from './membership';
import { pageSeqRange, type HistoryPage, type Message, type MessagesRepository } from './messages-repository';
import type { OnlineUsers } from './online-users';
import type { ReactionsRepository } from './reactions-repository';
import type { ReadMarkers } from './read-markers';
import type { RoomsRepository } from './rooms-repository';
import { toChatMessage } from './send-message';

/** Which part of the history: a page of messages, or the messages changed since a counter. */
export type HistoryQuery = HistoryPage | { changedSince: number };

export interface HistoryDeps {
  online: Pick<OnlineUsers, 'onlineAmong'>;
  rooms: Pick<RoomsRepository, 'withMembers'>;
  messages: Pick<MessagesRepository, 'page' | 'changedSince'>;
  reactions: Pick<ReactionsRepository, 'of' | 'ofSeqs'>;
  readMarkers: Pick<ReadMarkers, 'markRead'>;
}

/** A page by number as the seqs it holds: page n ends n pages before the room's newest message. */
function bySeq(which: HistoryQuery, lastSeq: number): HistoryQuery {
  return 'page' in which ? { beforeSeq: lastSeq - which.page * LIMITS.historyPageSize + 1 } : which;
}

export async function chatHistory(deps: HistoryDeps, userId: number, roomId: number, asked: HistoryQuery): Promise<ChatHistoryResponse> {
  const { rooms, messages, readMarkers, online } = deps;
  const catchingUp = 'afterSeq' in asked;
  const changes = 'changedSince' in asked;
  const around = 'aroundSeq' in asked;
  // The change counter is read with the room, before the messages: a change committed in
  // between is then in the answer and asked for again later (applying it twice is harmless),
  // never skipped.
  const found = await rooms.withMembers(roomId);
  const users = found?.members ?? [];
  const me = memberAmong(users, userId);
  const { room, lastChangeSeq } = found!;
  const lastSeq = room.lastSeq;
  const which = bySeq(asked, lastSeq);
  // One more row than asked tells whether more follow.
  const limit = changes ? LIMITS.changesPageSize + 1 : catchingUp ? LIMITS.catchUpPageSize + 1 : LIMITS.historyPageSize;
  const range = 'changedSince' in which ? null : pageSeqRange(which, limit);
  // Opening the room reads it up to its newest message, known already; re-opening a room
  // already read writes nothing (the position read with the members says so). Catching up
  // reads what it answers, so it is marked after the page. Asking for changes marks nothing.
  const opening = !changes && !catchingUp && !around;
  const marking = opening && (me.lastReadSeq < lastSeq || me.lastReadAtMs === null) ? readMarkers.markRead(roomId, userId, lastSeq) : null;
  // Every reaction takes the room's change counter: a room that never changed has none to read.
  // (One reacted to since the counter was read comes live, or with the next changes asked for.)
  const mayHaveReactions = lastChangeSeq > 0;
  const [page, rangeReactions, onlineNow] = await Promise.all([
    'changedSince' in which ? messages.changedSince(roomId, which.changedSince, limit) : messages.page(roomId, which, limit),
    !mayHaveReactions ? new Map<number, ReactionSummary[]>() : range ? deps.reactions.ofSeqs(roomId, range.from, range.to) : null,
    online.onlineAmong(users.map((u) => u.id)),
    marking,
  ]);
  const hasMore = (catchingUp || changes) && page.length > limit - 1;
  if (hasMore) page.length = limit - 1;
  const readUpTo = catchingUp ? (page.at(-1)?.seq ?? 0) : lastSeq;
  if (catchingUp && me.lastReadSeq < readUpTo) await readMarkers.markRead(roomId, userId, readUpTo);
  const reactions = rangeReactions ?? (await deps.reactions.of(page.filter((m) => m.deletedAtMs == null).map((m) => m.id)));
  const response: ChatHistoryResponse = {
    totalPages: Math.ceil(lastSeq / LIMITS.historyPageSize),
    chatRoomName: viewerRoomName(room.name, room.renamed, users.filter((u) => u.id !== userId).map((u) => u.name)),
    renamed: room.renamed,
    users: users.map((u) => ({
      userId: u.id, name: u.name, email: u.email,
      lastReadSeq: u.id === userId && (opening || catchingUp) ? Math.max(u.lastReadSeq, readUpTo) : u.lastReadSeq,
      online: onlineNow.has(u.id),
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
