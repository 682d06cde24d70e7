// The chat screens' layout. On a desktop (≥ 1024 px) two panes like KakaoTalk PC: the chat list
// on the left, the open screen (room, search, invite, call) on the right; on a phone one screen
// at a time, as before. Every route stays a deep link: /chat-room?cri=5 opens the room on the
// right with the list beside it.
import { Outlet, useMatch } from 'react-router-dom';
import { DESKTOP_QUERY, useMediaQuery } from '../components/useMediaQuery';
import ChatListPage from '../features/chatList/ChatListPage';
import { ChatBubbleIcon } from '../components/icons';
import { ko } from '../i18n/ko';
import { paths } from '../kernel/paths';

export default function TwoPaneLayout() {
  const desktop = useMediaQuery(DESKTOP_QUERY);
  // On /chat-list the list is the screen (its title, its h1); elsewhere it sits beside one.
  const onList = useMatch(paths.chatList) !== null;
  if (!desktop) return <Outlet />;
  return (
    <div className="panes">
      <div className="panes__list">
        <ChatListPage beside={!onList} />
      </div>
      <div className="panes__main">
        <Outlet />
      </div>
    </div>
  );
}

/** /chat-list: the list itself on a phone; on a desktop the list is already on the left, so the right pane invites to pick a chat. */
export function ChatListHome() {
  const desktop = useMediaQuery(DESKTOP_QUERY);
  if (!desktop) return <ChatListPage />;
  return (
    <section className="pick-chat" aria-label={ko.chatList.pickChat}>
      <span className="empty-state__icon">
        <ChatBubbleIcon />
      </span>
      <p className="pick-chat__text">{ko.chatList.pickChat}</p>
    </section>
  );
}
