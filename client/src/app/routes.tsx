// Every route of SPEC.md §2. Wiring only: each page lives in its feature folder and loads in a
// chunk of its own (React.lazy), so a screen downloads only what it shows; /login needs no STOMP,
// room or call code.
import { lazy, Suspense, type ReactNode } from 'react';
import type { RouteObject } from 'react-router-dom';
import { ScreenSkeleton } from '../components/ScreenSkeleton';
import { AppShell } from './AppShell';
import { EntryRedirect } from './EntryRedirect';
import { paths } from './paths';

const LoginPage = lazy(() => import(/* webpackChunkName: "login" */ '../features/auth/LoginPage'));
const SignUpPage = lazy(() => import(/* webpackChunkName: "sign-up" */ '../features/signUp/SignUpPage'));
const SettingsPage = lazy(() => import(/* webpackChunkName: "settings" */ '../features/settings/SettingsPage'));
const NotFoundPage = lazy(() => import(/* webpackChunkName: "not-found" */ '../features/notFound/NotFoundPage'));
const TwoPaneLayout = lazy(() => import(/* webpackChunkName: "chat-layout" */ './TwoPaneLayout'));
const ChatListHome = lazy(() => import(/* webpackChunkName: "chat-layout" */ './TwoPaneLayout').then((m) => ({ default: m.ChatListHome })));
const FindUserPage = lazy(() => import(/* webpackChunkName: "find-user" */ '../features/userSearch/FindUserPage'));
const ChatRoomPage = lazy(() => import(/* webpackChunkName: "chat-room" */ '../features/room/ChatRoomPage'));
const InvitePage = lazy(() => import(/* webpackChunkName: "invite" */ '../features/invite/InvitePage'));
const CallPage = lazy(() => import(/* webpackChunkName: "call" */ '../features/call/CallPage'));

/** A page that may still be loading: the neutral skeleton stands in until its chunk is there. */
const page = (element: ReactNode) => <Suspense fallback={<ScreenSkeleton />}>{element}</Suspense>;

export const routes: RouteObject[] = [
  {
    element: <AppShell />,
    children: [
      { path: paths.entry, element: <EntryRedirect /> },
      { path: paths.login, element: page(<LoginPage />) },
      { path: paths.signUp, element: page(<SignUpPage />) },
      { path: paths.settings, element: page(<SettingsPage />) },
      {
        // The chat screens: two panes on a desktop, the list beside the open screen.
        element: page(<TwoPaneLayout />),
        children: [
          { path: paths.chatList, element: page(<ChatListHome />) },
          { path: paths.findUser, element: page(<FindUserPage />) },
          { path: paths.chatRoom, element: page(<ChatRoomPage />) },
          { path: paths.invite, element: page(<InvitePage />) },
          { path: paths.call, element: page(<CallPage />) },
        ],
      },
      { path: '*', element: page(<NotFoundPage />) },
    ],
  },
];
