// The chat list (docs/spec.md §2 /chat-list): the user's rooms with their newest message, the
// user's read marker and how many messages they have not read, the rooms the user pinned first
// (ours), then newest activity first. Rooms no
// one renamed are named from the user's side (common/room-names.ts). A newest message deleted for
// everyone reads as '삭제된 메시지입니다.'.
import type { ChatSummary } from '@common/api';
import { DELETED_MESSAGE_TEXT } from '@common/system-text';
import type { ChatDeps } from './chat-deps';
import { viewerRoomName } from '@common/room-names';

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

export async function chatList({ rooms }: Pick<ChatDeps, 'rooms'>, userId: number): Promise<ChatSummary[]> {
  const [rows, company] = await Promise.all([rooms.chatList(userId), rooms.companyOf(userId)]);
  return rows.map((r): ChatSummary => ({
    chatRoomId: r.roomId,
    chatRoomName: viewerRoomName(r.roomName, r.renamed, company.get(r.roomId) ?? []),
    lastMessage: r.lastMessageDeleted ? DELETED_MESSAGE_TEXT : r.lastMessage,
    lastMessageTime: iso(r.lastMessageAtMs),
    lastReadAt: iso(r.lastReadAtMs),
    // A member's own messages move their read position, so what follows it is others' (or the
    // room's system messages about someone else).
    unreadCount: Math.max(0, r.lastSeq - r.lastReadSeq),
    lastSeq: r.lastSeq,
    memberCount: (company.get(r.roomId)?.length ?? 0) + 1,
    // Present only when set, like a message's `deleted`: rows of rooms never muted or pinned
    // keep the original shape.
    ...(r.muted ? { muted: true } : {}),
    ...(r.pinned ? { pinned: true } : {}),
  }));
}
