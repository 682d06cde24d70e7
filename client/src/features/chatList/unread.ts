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

/** Whether news in the room calls for attention (issue 26): not in a muted room, unless it mentions the member. */
export function isAudible(chat: Pick<ChatSummary, 'muted' | 'mentioned'>): boolean {
  return !chat.muted || chat.mentioned === true;
}

/**
 * Whether a refresh signal counts for the tab title: not when the rooms whose last message
 * changed are all muted (and mention no one), nor when no last message changed but a row's group
 * call did (issue 25: a call starting or changing size is no message; its record when it ends is
 * one). A signal whose news the list does not show (nothing changed) counts, as the spec counts
 * every signal.
 */
export function signalCounts(previous: readonly ChatSummary[], chats: readonly ChatSummary[]): boolean {
  const before = new Map(previous.map((chat) => [chat.chatRoomId, chat]));
  const changed = chats.filter((chat) => before.get(chat.chatRoomId)?.lastMessageTime !== chat.lastMessageTime);
  if (changed.length > 0) return changed.some(isAudible);
  return chats.every((chat) => callKey(chat) === callKey(before.get(chat.chatRoomId)));
}

const callKey = (chat: ChatSummary | undefined): string => (chat?.groupCall ? `${chat.groupCall.media}:${chat.groupCall.participantCount}` : '');
