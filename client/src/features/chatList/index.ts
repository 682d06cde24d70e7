// What other features use of the chat list: its load of the rooms, and its rule for an unread
// room (notifications, otherRooms.ts). Other features import the chat list only here.
export { chatsLoaded } from './chatListSlice';
export { hasUnread, isAudible } from './unread';
