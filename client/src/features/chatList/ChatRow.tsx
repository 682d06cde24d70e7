// One room in the chat list: name, unread count (or dot), last message (or an invitation to start) and
// how long ago it was sent; the member's marks (issue 26): pinned, muted (its count greyed) and '@'
// while an unread message mentions them; the other person's photo in a two-person room, and a
// mark while a group call is on in the room (issue 25: the row of a room not open anywhere).
import { Link } from 'wouter';
import type { ChatSummary } from '@common/api';
import { cx } from '../../components/classNames';
import { ko } from '../../i18n/ko';
import { koRoomMarks } from '../../i18n/koRoomMarks';
import { chatRoomPath } from '../../kernel/roomPaths';
import { relativeTime } from '../../components/relativeTime';
import { BellOffIcon, CallOnIcon, PinIcon } from '../../components/roomIcons';
import { RoomAvatar } from './RoomAvatar';
import { UnreadMark } from './UnreadMark';
import { hasUnread } from './unread';

export function ChatRow({ chat, now }: { chat: ChatSummary; now: number }) {
  const unread = hasUnread(chat);
  return (
    <li>
      <Link className={cx('chat-row', unread && 'chat-row--unread', chat.muted && 'chat-row--muted')} to={chatRoomPath(chat.chatRoomId)} data-testid="chat-row">
        <RoomAvatar name={chat.chatRoomName} memberCount={chat.memberCount} peer={chat.peer} />
        <span className="chat-row__main">
          <span className="chat-row__top">
            <span className="chat-row__name">{chat.chatRoomName}</span>
            {chat.groupCall && (
              <span className="chat-row__call" role="img" aria-label={koRoomMarks.chatList.groupCall(chat.groupCall.participantCount)} data-testid="group-call-mark">
                <CallOnIcon />
                <span aria-hidden="true">{chat.groupCall.participantCount}</span>
              </span>
            )}
            {chat.pinned && (
              <span className="chat-row__mark" role="img" aria-label={koRoomMarks.chatList.pinned} data-testid="pinned-mark">
                <PinIcon />
              </span>
            )}
            {chat.muted && (
              <span className="chat-row__mark" role="img" aria-label={koRoomMarks.chatList.muted} data-testid="muted-mark">
                <BellOffIcon />
              </span>
            )}
            <time className="chat-row__time" dateTime={chat.lastMessageTime ?? undefined}>
              {relativeTime(chat.lastMessageTime, now)}
            </time>
          </span>
          <span className="chat-row__bottom">
            <span className={cx('chat-row__last', chat.lastMessage === null && 'chat-row__last--empty')}>
              {chat.lastMessage ?? ko.chatList.startConversation}
            </span>
            {chat.mentioned && (
              <span className="mention-mark" role="img" aria-label={koRoomMarks.chatList.mentioned} data-testid="mention-mark">
                @
              </span>
            )}
            <UnreadMark chat={chat} />
          </span>
        </span>
      </Link>
    </li>
  );
}
