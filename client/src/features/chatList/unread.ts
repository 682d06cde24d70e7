// docs/spec.md §4: a room is unread when it has a last message and either the user has never read it
// or that message is later than the user's read marker.
import type { ChatSummary } from '@common/api';

export function isUnread(chat: Pick<ChatSummary, 'lastMessage' | 'lastMessageTime' | 'lastReadAt'>): boolean {
  if (chat.lastMessage === null || chat.lastMessageTime === null) return false;
  if (chat.lastReadAt === null) return true;
  const last = Date.parse(chat.lastMessageTime);
  const read = Date.parse(chat.lastReadAt);
  if (Number.isNaN(read)) return true;
  return last > read;
}

/** Whether the row shows as unread: by the server's count when it sends one, else the dot's rule. */
export function hasUnread(chat: Pick<ChatSummary, 'lastMessage' | 'lastMessageTime' | 'lastReadAt' | 'unreadCount'>): boolean {
  return chat.unreadCount !== undefined ? chat.unreadCount > 0 : isUnread(chat);
}

/** What the badge shows: nothing at 0, the count up to 99, then 99+. */
export function countLabel(count: number): string | null {
  if (count <= 0) return null;
  return count > 99 ? '99+' : String(count);
}
