// The signed-in screens' layout. On a desktop (≥ 1024 px) two panes like KakaoTalk PC: the home's
// tabs (친구, 채팅, 통화) and the chat list on the left, the open screen (room, search, invite,
// call, friends, call history, settings) on the right; on a phone one screen at a time, with the
// tabs below the three home screens. Every route stays a deep link: /chat-room?cri=5 opens the
// room on the right with the list beside it.
import { lazy, Suspense } from 'react';
import { useLocation, useRoute } from 'wouter';
import { Outlet } from '../kernel/routing';
import { DESKTOP_QUERY, useMediaQuery } from '../components/useMediaQuery';
import { ChatBubbleIcon } from '../components/icons';
import { ko } from '../i18n/ko';
import { paths } from '../kernel/paths';
import { ProfileCardHost } from './ProfileCardHost';

/** The paths whose screens the home's tabs switch between (on a phone the tabs show on these only). */
const HOME_PATHS: readonly string[] = [paths.friends, paths.chatList, paths.calls];

/**
 * The chat list and the home's tabs, in a chunk of their own: a phone showing a room, a search or
 * a call does not show them, so it does not download them (issue 26's client-load goal). The
 * layout's loader (app/routes.tsx) starts this chunk at once where the list shows from the start.
 */
export const loadChatListPane = () => import(/* webpackChunkName: "chat-list" */ './chatListPane');
const ChatListPage = lazy(() => loadChatListPane().then((m) => ({ default: m.ChatListPage })));
const HomeTabs = lazy(() => loadChatListPane().then((m) => ({ default: m.HomeTabs })));

/** Starts the chat list's chunk where it shows from the start (two panes, or a home tab on a phone). */
export function prefetchChatListPane(): void {
  const desktop = typeof window.matchMedia === 'function' && window.matchMedia(DESKTOP_QUERY).matches;
  if (desktop || HOME_PATHS.includes(window.location.pathname)) void loadChatListPane();
}

/** The signed-in screens, any of which can open a person's profile card (kernel/profileCard.ts). */
export default function TwoPaneLayout() {
  return (
    <ProfileCardHost>
      <Panes />
    </ProfileCardHost>
  );
}

function Panes() {
  const desktop = useMediaQuery(DESKTOP_QUERY);
  // On /chat-list the list is the screen (its title, its h1); elsewhere it sits beside one.
  const [onList] = useRoute(paths.chatList);
  const home = HOME_PATHS.includes(useLocation()[0]);
  if (!desktop) {
    if (!home) return <Outlet />;
    return (
      <div className="home-layout">
        <div className="home-layout__main">
          <Outlet />
        </div>
        <Suspense fallback={null}>
          <HomeTabs />
        </Suspense>
      </div>
    );
  }
  return (
    <div className="panes">
      <div className="panes__list">
        <Suspense fallback={<p className="loading-line">{ko.app.loading}</p>}>
          <HomeTabs />
          <div className="panes__list-body">
            <ChatListPage beside={!onList} />
          </div>
        </Suspense>
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
  // The route's own Suspense (app/routes.tsx) shows the skeleton while the list's chunk loads.
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
