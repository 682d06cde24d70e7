// The chat list's pane (app/TwoPaneLayout.tsx loads it lazily): the list and the home's tabs.
export { default as ChatListPage } from '../features/chatList/ChatListPage';
export { default as HomeTabs } from './HomeTabs';
