// /chat-list (docs/spec.md §2): the user's rooms, newest activity first, with the way to a call, to a
// new conversation, to the settings and out.
import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { Link } from 'wouter';
import { useAppDispatch, useAppSelector } from '../../kernel/hooks';
import { paths } from '../../kernel/paths';
import { ko } from '../../i18n/ko';
import { logoutRequested } from '../auth';
import { Avatar } from '../../components/Avatar';
import { AddPersonIcon, ChatBubbleIcon, ClockIcon, PhoneIcon, SettingsIcon } from '../../components/icons';
import { useDocumentTitle } from '../../components/documentTitle';
import '../../styles/chat.css';
import { MessageSearchPanel } from '../messageSearch';
import { ChatRow } from './ChatRow';
import { chatListClosed, chatListOpened, selectChatListUnseen, selectChats, selectMe } from './chatListSlice';

// Issue 27: 나와의 채팅 until the user has one (then the server lists it as a row).
const MemoRoomEntry = lazy(() => import(/* webpackChunkName: "memo-room" */ './MemoRoomEntry').then((m) => ({ default: m.MemoRoomEntry })));

/** Relative times ("3분 전") move on while the list stays open. */
function useNow(intervalMs = 30_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

/**
 * The list as its own screen, or (`beside`) as the left pane next to another screen, which then
 * names the tab and holds the page's h1.
 */
export default function ChatListPage({ beside = false }: { beside?: boolean }) {
  const dispatch = useAppDispatch();
  const chats = useAppSelector(selectChats);
  const me = useAppSelector(selectMe);
  const unseen = useAppSelector(selectChatListUnseen);
  const now = useNow();
  const Heading = beside ? 'h2' : 'h1';

  useEffect(() => {
    dispatch(chatListOpened());
    return () => {
      dispatch(chatListClosed());
    };
  }, [dispatch]);

  return (
    <div className="screen-wrap">
      {!beside && <ListTitle unseen={unseen} />}
      <Screen beside={beside}>
        <header className="screen__header">
          <Heading className="screen__title">{ko.chatList.title}</Heading>
          <Link className="icon-btn" to={paths.call} aria-label={ko.chatList.call} title={ko.chatList.call}>
            <PhoneIcon />
          </Link>
          <Link className="icon-btn" to={paths.calls} aria-label={ko.chatList.callHistory} title={ko.chatList.callHistory}>
            <ClockIcon />
          </Link>
          <Link className="icon-btn icon-btn--accent" to={paths.findUser} aria-label={ko.chatList.findUser} title={ko.chatList.findUser}>
            <AddPersonIcon />
          </Link>
        </header>
        <section className="profile-bar" aria-label={me?.name}>
          <Avatar name={me?.name ?? ''} size={40} />
          <div className="profile-bar__text">
            <span className="profile-bar__name" data-testid="my-name">{me ? ko.chatList.greeting(me.name) : ' '}</span>
            <span className="profile-bar__email">{me?.email}</span>
          </div>
          <div className="profile-bar__actions">
            {me ? (
              <Link className="chip" to={paths.settings} state={{ name: me.name, email: me.email }}>
                <SettingsIcon />
                {ko.chatList.settings}
              </Link>
            ) : (
              // Settings need the name and e-mail (docs/spec.md §2): usable once they are loaded.
              <button type="button" className="chip" disabled>
                <SettingsIcon />
                {ko.chatList.settings}
              </button>
            )}
            <button type="button" className="chip" onClick={() => dispatch(logoutRequested())}>
              {ko.chatList.logout}
            </button>
          </div>
        </section>
        <MessageSearchPanel scope="all" />
        <div className="screen__body">
          {chats === null ? (
            <p className="loading-line">{ko.app.loading}</p>
          ) : chats.length === 0 ? (
            <div className="empty-state">
              <span className="empty-state__icon"><ChatBubbleIcon /></span>
              <p className="empty-state__title">{ko.chatList.emptyTitle}</p>
              <p>{ko.chatList.emptyHint}</p>
              <ul className="chat-rows">
                <Suspense fallback={null}>
                  <MemoRoomEntry />
                </Suspense>
              </ul>
            </div>
          ) : (
            <ul className="chat-rows">
              {!chats.some((chat) => chat.self) && (
                <Suspense fallback={null}>
                  <MemoRoomEntry />
                </Suspense>
              )}
              {chats.map((chat) => (
                <ChatRow key={chat.chatRoomId} chat={chat} now={now} />
              ))}
            </ul>
          )}
        </div>
      </Screen>
    </div>
  );
}

/** The tab title of the list as its own screen, with the count of news (docs/spec.md §2). */
function ListTitle({ unseen }: { unseen: number }) {
  useDocumentTitle(ko.chatList.title, unseen);
  return null;
}

/** A landmark: the page's main content on its own, a navigation pane beside another screen. */
function Screen({ beside, children }: { beside: boolean; children: ReactNode }) {
  return beside ? (
    <nav className="screen" aria-label={ko.chatList.title}>
      {children}
    </nav>
  ) : (
    <main className="screen">{children}</main>
  );
}
