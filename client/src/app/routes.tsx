// Every route of docs/spec.md §2. Wiring only: each page lives in its feature folder and loads in a
// chunk of its own with the features (slices and sagas) it needs (app/lazyWithFeatures.tsx), so
// a screen downloads only what it shows; /login needs no STOMP, chat list, room or call code.
import { lazy, Suspense, type ReactNode } from 'react';
import type { AppRoute } from '../kernel/routing';
import { ScreenSkeleton } from '../components/ScreenSkeleton';
import { AppShell } from './AppShell';
import { EntryRedirect } from './EntryRedirect';
import notificationsCss from '../features/notifications/notifications.css';
import chatCss from '../styles/chat.css';
import readsCss from '../features/room/reads.css';
import messageActionsCss from '../features/room/messageActions.css';
import attachmentsCss from '../features/room/attachments.css';
import messageSearchCss from '../features/messageSearch/messageSearch.css';
import { lazyWithFeatures } from './lazyWithFeatures';
import { paths } from '../kernel/paths';
import { lazySignedInHosts } from './signedInHosts';

const LoginPage = lazy(() => import(/* webpackChunkName: "login" */ '../features/auth/LoginPage'));
const SignUpPage = lazyWithFeatures(
  () => import(/* webpackChunkName: "sign-up" */ '../features/signUp/SignUpPage'),
  () => import(/* webpackChunkName: "sign-up" */ '../features/signUp/signUpFeature').then((m) => [m.signUpFeature]),
);
// The settings show the profile photo, status message and 차단 관리 of the friends feature.
const SettingsPage = lazyWithFeatures(
  () => import(/* webpackChunkName: "settings" */ './SettingsRoute'),
  () =>
    Promise.all([
      import(/* webpackChunkName: "settings" */ '../features/settings/settingsFeature'),
      import(/* webpackChunkName: "people" */ '../features/friends/friendsFeature'),
    ]).then(([settings, friends]) => [settings.settingsFeature, friends.friendsFeature]),
);
const NotFoundPage = lazy(() => import(/* webpackChunkName: "not-found" */ '../features/notFound/NotFoundPage'));
// The chat screens' stylesheets, files of their own (webpack.config.ts) linked with the first chat
// screen: read counts and unread badges, the notification prompt on the chat list, the screens,
// then attachments, the message menu and message search (linked in the order the app used to inject them).
const chat = { stylesheets: [readsCss, notificationsCss, chatCss, attachmentsCss, messageActionsCss, messageSearchCss] };
// The chat list (and its message search) is beside every chat screen on a desktop, so its features come with the layout;
// both are in the chunk every signed-in screen loads (the call listener's, AppShell.tsx).
const chatListFeatures = () =>
  Promise.all([
    import(/* webpackChunkName: "signed-in" */ '../features/chatList/chatListFeature'),
    import(/* webpackChunkName: "signed-in" */ '../features/messageSearch/messageSearchFeature'),
  ]).then(([list, search]) => [list.chatListFeature, search.messageSearchFeature]);
// Where the chat list shows from the start (two panes, or a home tab on a phone), its chunk comes with the layout's.
const loadLayout = () =>
  import(/* webpackChunkName: "signed-in" */ './TwoPaneLayout').then((layout) => {
    layout.prefetchChatListPane();
    return layout;
  });
const TwoPaneLayout = lazyWithFeatures(loadLayout, chatListFeatures, { lateServices: true, ...chat });
const ChatListHome = lazyWithFeatures(
  () => loadLayout().then((m) => ({ default: m.ChatListHome })),
  chatListFeatures,
  { lateServices: true, ...chat },
);
const FindUserPage = lazyWithFeatures(
  () => import(/* webpackChunkName: "find-user" */ './FindUserRoute'),
  () => import(/* webpackChunkName: "find-user" */ '../features/userSearch/userSearchFeature').then((m) => [m.userSearchFeature]),
  chat,
);
const ChatRoomPage = lazyWithFeatures(
  () => import(/* webpackChunkName: "chat-room" */ '../features/room/ChatRoomPage'),
  () => import(/* webpackChunkName: "chat-room" */ '../features/room/roomFeature').then((m) => [m.roomFeature]),
  { lateServices: true, ...chat },
);
const InvitePage = lazyWithFeatures(
  () => import(/* webpackChunkName: "invite" */ '../features/invite/InvitePage'),
  () => import(/* webpackChunkName: "invite" */ '../features/invite/inviteFeature').then((m) => [m.inviteFeature]),
  chat,
);
// The call screen's name search is the user search: its feature comes with the page.
const CallPage = lazyWithFeatures(
  () => import(/* webpackChunkName: "call" */ '../features/call/CallPage'),
  () =>
    Promise.all([
      import(/* webpackChunkName: "signed-in" */ '../features/call/callFeature'),
      import(/* webpackChunkName: "call" */ '../features/userSearch/userSearchFeature'),
    ]).then(([call, search]) => [call.callFeature, search.userSearchFeature]),
  { lateServices: true },
);

// 통화 기록: its slice and saga come with the page.
const CallHistoryPage = lazyWithFeatures(
  () => import(/* webpackChunkName: "call-history" */ '../features/call/CallHistoryPage'),
  () =>
    Promise.all([
      import(/* webpackChunkName: "signed-in" */ '../features/call/callFeature'),
      import(/* webpackChunkName: "call-history" */ '../features/call/callHistoryFeature'),
    ]).then(([call, history]) => [call.callFeature, history.callHistoryFeature]),
  { lateServices: true },
);

// 친구, the home's first tab: the friends and the profile card, with the friends feature.
const FriendsPage = lazyWithFeatures(
  () => import(/* webpackChunkName: "people" */ './FriendsRoute'),
  () => import(/* webpackChunkName: "people" */ '../features/friends/friendsFeature').then((m) => [m.friendsFeature]),
  { lateServices: true, ...chat },
);

/** A page that may still be loading: the neutral skeleton stands in until its chunk is there. */
const page = (element: ReactNode) => <Suspense fallback={<ScreenSkeleton />}>{element}</Suspense>;

export const routes: AppRoute[] = [
  {
    element: <AppShell hosts={lazySignedInHosts} />,
    children: [
      { path: paths.entry, element: <EntryRedirect /> },
      { path: paths.login, element: page(<LoginPage />) },
      { path: paths.signUp, element: page(<SignUpPage />) },
      {
        // The chat screens: two panes on a desktop, the list beside the open screen.
        element: page(<TwoPaneLayout />),
        children: [
          { path: paths.chatList, element: page(<ChatListHome />) },
          { path: paths.findUser, element: page(<FindUserPage />) },
          { path: paths.chatRoom, element: page(<ChatRoomPage />) },
          { path: paths.invite, element: page(<InvitePage />) },
          { path: paths.call, element: page(<CallPage />) },
          { path: paths.calls, element: page(<CallHistoryPage />) },
          { path: paths.friends, element: page(<FriendsPage />) },
          { path: paths.settings, element: page(<SettingsPage />) },
        ],
      },
      { path: '*', element: page(<NotFoundPage />) },
    ],
  },
];
