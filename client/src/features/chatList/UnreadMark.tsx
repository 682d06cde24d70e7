// A chat row's unread mark: the number of messages waiting (99+ beyond 99) when the
// server counts them, otherwise the spec's dot (docs/spec.md §4).
import { ko } from '../../i18n/ko';
import type { ChatSummary } from '@common/api';
import { countLabel, isUnread } from './unread';

export function UnreadMark({ chat }: { chat: ChatSummary }) {
  if (chat.unreadCount !== undefined) {
    const label = countLabel(chat.unreadCount);
    if (label === null) return null;
    return (
      <span className="unread-count" aria-label={ko.chatList.unreadCount(chat.unreadCount)} data-testid="unread-count">
        {label}
      </span>
    );
  }
  return isUnread(chat) ? <span className="unread-dot" role="img" aria-label={ko.chatList.unread} data-testid="unread-dot" /> : null;
}
