// The chat list (docs/spec.md §2 /chat-list): the user's rooms with their newest message, the
// user's read marker and how many messages they have not read, the rooms the user pinned first
// (ours), then newest activity first. Rooms no
// one renamed are named from the user's side (common/room-names.ts). A newest message deleted for
// everyone reads as '삭제된 메시지입니다.'.
// Ours: a row is `mentioned` while an unread message mentions the user; the unread messages of
// people the user blocked are not counted, nor are their mentions, and their messages neither
// show in a row nor move it; a room left out of the list (a 1:1 opened by someone the user
// blocked) is not listed (rooms-repository's `hidden`). A two-member room's row names the other
// member (`peer`, for their photo); a room with a group call on says so (`groupCall`).
import type { ChatRowGroupCall, ChatSummary } from '@common/api';
import { DELETED_MESSAGE_TEXT } from '@common/system-text';
import type { ChatDeps } from './chat-deps';
import type { RoomSummary } from './rooms-repository';
import { viewerRoomName } from '@common/room-names';

type Row = RoomSummary & { shownSeq?: number };

/** rooms-repository's chatList order: pinned rooms first, then by newest message, rooms without one last. */
function listOrder(a: Row, b: Row): number {
  return Number(b.self === true) - Number(a.self === true)
    || Number(b.pinned) - Number(a.pinned)
    || Number(a.lastMessageId === null) - Number(b.lastMessageId === null)
    || (b.lastMessageId ?? 0) - (a.lastMessageId ?? 0)
    || b.roomId - a.roomId;
}

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

const NO_CALLS = () => Promise.resolve(new Map<number, ChatRowGroupCall>());

export async function chatList({ rooms, blocks, groupCalls = NO_CALLS }: Pick<ChatDeps, 'rooms' | 'blocks' | 'groupCalls'>, userId: number): Promise<ChatSummary[]> {
  const [found, companions, mentions, blocked, calls] = await Promise.all([
    rooms.chatList(userId), rooms.companionsOf(userId), rooms.mentionedRooms(userId), blocks.blockedBy(userId), groupCalls(),
  ]);
  const rows: Row[] = found;
  const unseen = blocked.size > 0 ? await rooms.unreadFrom(userId, [...blocked]) : new Map<number, number>();
  // A mention by someone the user blocked since marks nothing (nor does its message count).
  const mentioned = new Set([...mentions].filter(([, senders]) => senders.some((s) => !blocked.has(s))).map(([roomId]) => roomId));
  // A room whose newest message is from someone the user blocked shows, and is ordered by, the
  // newest before it: their messages move nothing in the blocker's list.
  const behind = rows.filter((r) => r.lastSenderId !== null && blocked.has(r.lastSenderId));
  await Promise.all(behind.map(async (r) => {
    const shown = await rooms.newestExcept(r.roomId, [...blocked]);
    r.lastMessage = shown?.content ?? null;
    r.lastMessageDeleted = shown?.deleted ?? false;
    r.lastMessageAtMs = shown?.atMs ?? null;
    r.lastMessageId = shown?.id ?? null;
    r.shownSeq = shown?.seq ?? 0;
  }));
  if (behind.length > 0) rows.sort(listOrder);
  return rows.map((r): ChatSummary => {
    const others = companions.get(r.roomId) ?? [];
    const call = calls.get(r.roomId);
    return {
      chatRoomId: r.roomId,
      chatRoomName: viewerRoomName(r.roomName, r.renamed, others.map((o) => o.name)),
      lastMessage: r.lastMessageDeleted ? DELETED_MESSAGE_TEXT : r.lastMessage,
      lastMessageTime: iso(r.lastMessageAtMs),
      lastReadAt: iso(r.lastReadAtMs),
      // A member's own messages move their read position, so what follows it is others' (or the
      // room's system messages about someone else).
      unreadCount: Math.max(0, r.lastSeq - r.lastReadSeq - (unseen.get(r.roomId) ?? 0)),
      // The newest message the user can see: a hidden one does not show as the room moving on.
      lastSeq: r.shownSeq ?? r.lastSeq,
      memberCount: others.length + 1,
      // Present only when set, like a message's `deleted`: rows of rooms never muted or pinned
      // keep the original shape.
      ...(r.muted ? { muted: true } : {}),
      ...(r.pinned ? { pinned: true } : {}),
      ...(mentioned.has(r.roomId) ? { mentioned: true } : {}),
      ...(others.length === 1 ? { peer: { userId: others[0].id, photoVersion: others[0].photoVersion } } : {}),
      ...(call ? { groupCall: call } : {}),
      ...(r.self ? { self: true } : {}),
    };
  });
}
