// One room in the chat list: name, unread count (or dot), last message (or an invitation to start) and
// how long ago it was sent.
import { Link } from 'react-router-dom';
import type { ChatSummary } from '@common/api';
import { cx } from '../../components/classNames';
import { ko } from '../../i18n/ko';
import { chatRoomPath } from '../../kernel/roomPaths';
import { relativeTime } from '../../components/relativeTime';
import { RoomAvatar } from './RoomAvatar';
import { UnreadMark } from './UnreadMark';
import { hasUnread } from './unread';

export function ChatRow({ chat, now }: { chat: ChatSummary; now: number }) {
  const unread = hasUnread(chat);
  return (
    <li>
      <Link className={cx('chat-row', unread && 'chat-row--unread')} to={chatRoomPath(chat.chatRoomId)} data-testid="chat-row">
        <RoomAvatar name={chat.chatRoomName} memberCount={chat.memberCount} />
        <span className="chat-row__main">
          <span className="chat-row__top">
            <span className="chat-row__name">{chat.chatRoomName}</span>
            <time className="chat-row__time" dateTime={chat.lastMessageTime ?? undefined}>
              {relativeTime(chat.lastMessageTime, now)}
            </time>
          </span>
          <span className="chat-row__bottom">
            <span className={cx('chat-row__last', chat.lastMessage === null && 'chat-row__last--empty')}>
              {chat.lastMessage ?? ko.chatList.startConversation}
            </span>
            <UnreadMark chat={chat} />
          </span>
        </span>
      </Link>
    </li>
  );
}
