// Every route of SPEC.md §2. Wiring only: each page lives in its feature folder.
import type { RouteObject } from 'react-router-dom';
import LoginPage from '../features/auth/LoginPage';
import CallPage from '../features/call/CallPage';
import InvitePage from '../features/invite/InvitePage';
import NotFoundPage from '../features/notFound/NotFoundPage';
import ChatRoomPage from '../features/room/ChatRoomPage';
import SettingsPage from '../features/settings/SettingsPage';
import SignUpPage from '../features/signUp/SignUpPage';
import FindUserPage from '../features/userSearch/FindUserPage';
import { AppShell } from './AppShell';
import { EntryRedirect } from './EntryRedirect';
import { ChatListHome, TwoPaneLayout } from './TwoPaneLayout';
import { paths } from './paths';

export const routes: RouteObject[] = [
  {
    element: <AppShell />,
    children: [
      { path: paths.entry, element: <EntryRedirect /> },
      { path: paths.login, element: <LoginPage /> },
      { path: paths.signUp, element: <SignUpPage /> },
      { path: paths.settings, element: <SettingsPage /> },
      {
        // The chat screens: two panes on a desktop, the list beside the open screen.
        element: <TwoPaneLayout />,
        children: [
          { path: paths.chatList, element: <ChatListHome /> },
          { path: paths.findUser, element: <FindUserPage /> },
          { path: paths.chatRoom, element: <ChatRoomPage /> },
          { path: paths.invite, element: <InvitePage /> },
          { path: paths.call, element: <CallPage /> },
        ],
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];
