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
//
// Ours (docs/protocol.md, blocks and a private past): whom the reader blocked is read beside the
// two (a third connection, no later trip), and their messages are left out of what is answered;
// so are their reactions and what replies quote of them, and they read as offline; so are messages before the reader joined,
// for a member added later (their visibleFromSeq).
// Both are dropped after the page is cut, so a catch-up still moves past them. Every answer
// carries the room's notice, read with the members.
import type { ChatHistoryResponse, LinkPreview, ReactionSummary, RoomNotice } from '@common/api';
import { viewerRoomName } from '@common/room-names';
import { LIMITS } from '@common/rules';
import { NotAMemberError } from '../errors';
import { memberAmong } from './membership';
import { blockedQuote, quotesBlocked } from './reply';
import type { HistoryQuery, Message, MessagesRepository } from './messages-repository';
import type { OnlineUsers } from './online-users';
import type { ReactionsRepository } from './reactions-repository';
import type { ReadMarkers } from './read-markers';
import type { RoomsRepository, StoredNotice } from './rooms-repository';
import type { BlockLookup, LinkPreviewLookup } from './chat-deps';
import { toChatMessage } from './send-message';

export interface HistoryDeps {
  online: Pick<OnlineUsers, 'onlineAmong'>;
  rooms: Pick<RoomsRepository, 'withMembers'>;
  messages: Pick<MessagesRepository, 'page'>;
  reactions: Pick<ReactionsRepository, 'of'>;
  readMarkers: Pick<ReadMarkers, 'markRead'>;
  blocks: Pick<BlockLookup, 'blockedBy'>;
  linkPreviews?: LinkPreviewLookup;
}

/** Only a message with a link can have a preview: a page without one costs no lookup. */
const MAY_HAVE_PREVIEW = /https?:\/\//i;

export function toRoomNotice(n: StoredNotice | null | undefined): RoomNotice | null {
  return n ? { messageId: n.messageId, content: n.content, setByName: n.setByName, setAt: new Date(n.setAtMs).toISOString() } : null;
}

/** How many pages of 20 a reader has, counted back from the newest, from the first seq they may read. */
function pagesFrom(lastSeq: number, visibleFromSeq: number): number {
  return Math.max(0, Math.ceil((lastSeq - Math.max(visibleFromSeq, 1) + 1) / LIMITS.historyPageSize));
}

export async function chatHistory(deps: HistoryDeps, userId: number, roomId: number, asked: HistoryQuery): Promise<ChatHistoryResponse> {
  const { rooms, messages, readMarkers, online } = deps;
  const catchingUp = 'afterSeq' in asked;
  const changes = 'changedSince' in asked;
  const around = 'aroundSeq' in asked;
  // One more row than asked tells whether more follow.
  const limit = changes ? LIMITS.changesPageSize + 1 : catchingUp ? LIMITS.catchUpPageSize + 1 : LIMITS.historyPageSize;
  const reading = messages.page(roomId, asked, limit, userId);
  const blocking = deps.blocks.blockedBy(userId);
  // Thrown away unread by a non-member (and never left to reject unhandled).
  reading.catch(() => {});
  blocking.catch(() => {});
  const found = await rooms.withMembers(roomId);
  const users = found?.members ?? [];
  const me = memberAmong(users, userId);
  const { room } = found!;
  const [read, onlineNow, blocked] = await Promise.all([reading, online.onlineAmong(users.map((u) => u.id)), blocking]);
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
  // Ours: and the messages the reader hid for themselves (delete for me), read with the page.
  const shown = page.filter((m) => m.seq >= me.visibleFromSeq && (m.senderId === null || !blocked.has(m.senderId)) && m.hidden !== true);
  // Every reaction takes the room's change counter: a room that never changed has none to read.
  const linked = deps.linkPreviews ? shown.filter((m) => m.deletedAtMs == null && m.senderId !== null && MAY_HAVE_PREVIEW.test(m.content)).map((m) => m.id) : [];
  const [reactions, previews] = await Promise.all([
    lastChangeSeq > 0 ? deps.reactions.of(shown.filter((m) => m.deletedAtMs == null).map((m) => m.id)) : new Map<number, ReactionSummary[]>(),
    linked.length > 0 && deps.linkPreviews ? deps.linkPreviews(linked) : new Map<number, LinkPreview>(),
    marks ? readMarkers.markRead(roomId, userId, readUpTo) : null,
  ]);
  const response: ChatHistoryResponse = {
    totalPages: me.visibleFromSeq > 1 ? pagesFrom(lastSeq, me.visibleFromSeq) : Math.ceil(lastSeq / LIMITS.historyPageSize),
    chatRoomName: viewerRoomName(room.name, room.renamed, users.filter((u) => u.id !== userId).map((u) => u.name)),
    renamed: room.renamed,
    users: users.map((u) => ({
      userId: u.id, name: u.name, email: u.email,
      lastReadSeq: u.id === userId && (opening || catchingUp) ? Math.max(u.lastReadSeq, readUpTo) : u.lastReadSeq,
      // Whom the reader blocked reads as offline: their presence events do not reach the reader either.
      online: onlineNow.has(u.id) && !blocked.has(u.id),
      photoVersion: u.photoVersion, statusMessage: u.statusMessage,
    })),
    messages: shown.map((m) => withExtras(m, m.deletedAtMs == null ? unblocked(reactions.get(m.id), blocked) : undefined, previews.get(m.id), blocked)),
    // With more changes to fetch, the client continues after the last one it got.
    lastChangeSeq: hasMore && changes ? (page.at(-1)?.changeSeq ?? lastChangeSeq) : lastChangeSeq,
  };
  if (catchingUp || changes) response.hasMore = hasMore;
  // Around a seq: whether newer messages follow the page (the client fetches them with afterSeq).
  if (around) response.hasMore = (page.at(-1)?.seq ?? 0) < lastSeq;
  // A notice of a message the reader blocked the sender of is none for them (room-notice.ts).
  const noticeSender = room.notice?.senderId;
  response.notice = noticeSender != null && blocked.has(noticeSender) ? null : toRoomNotice(room.notice);
  return response;
}

/** Reactions without those of people the reader blocked (whose reaction events do not reach them either). */
function unblocked(given: ReactionSummary[] | undefined, blocked: ReadonlySet<number>): ReactionSummary[] | undefined {
  if (!given || blocked.size === 0) return given;
  const kept = given.map((r) => ({ ...r, userIds: r.userIds.filter((id) => !blocked.has(id)) })).filter((r) => r.userIds.length > 0);
  return kept.length > 0 ? kept : undefined;
}

function withExtras(m: Message, given: ReactionSummary[] | undefined, preview: LinkPreview | undefined, blocked: ReadonlySet<number>): ReturnType<typeof toChatMessage> {
  const out = toChatMessage(m);
  if (out.replyTo && quotesBlocked(m.replyTo, blocked)) out.replyTo = blockedQuote(out.replyTo);
  if (given) out.reactions = given;
  if (preview) out.linkPreview = preview;
  return out;
}
