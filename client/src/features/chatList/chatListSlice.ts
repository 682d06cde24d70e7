// The chat list screen (docs/spec.md §2, §4): the user's name and e-mail, the rooms (none until
// the first load) and the count of new-message signals for the tab title. The rooms are
// normalized, one per chatRoomId, `ids` in the server's order (newest activity first).
import { createAction, createSelector, createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { ChatSummary, NameAndEmail } from '@common/api';
import { DELETED_MESSAGE_TEXT } from '@common/system-text';
import { messageDeletedInRoom, roomSettingsChanged } from '../room';
import { createEntityAdapter, type EntityState } from '../../kernel/entityAdapter';

const chatsAdapter = createEntityAdapter<ChatSummary, number>({ selectId: (chat) => chat.chatRoomId });

export interface ChatListState {
  chats: EntityState<ChatSummary, number>;
  /** The list has loaded (or failed to, and shows empty): until then the screen says it is loading. */
  loaded: boolean;
  me: NameAndEmail | null;
  unseenCount: number;
}

/**
 * Pinned rooms first, each group keeping its order (the server's: newest activity first). The
 * server sorts so too; a room pinned here moves before the next load.
 */
export function pinnedFirst<T extends Pick<ChatSummary, 'pinned' | 'self'>>(chats: readonly T[]): T[] {
  // Ours (issue 27): the memo room (나와의 채팅) before everything, as the server lists it.
  return [...chats.filter((c) => c.self), ...chats.filter((c) => c.pinned && !c.self), ...chats.filter((c) => !c.pinned && !c.self)];
}

/** Ours (issue 27): open the user's memo room (나와의 채팅), made on first use (POST /api/chat-room/self). */
export const memoRoomRequested = createAction('chatList/memoRoomRequested');

const initialState: ChatListState = { chats: chatsAdapter.getInitialState(), loaded: false, me: null, unseenCount: 0 };

const chatListSlice = createSlice({
  name: 'chatList',
  initialState,
  reducers: {
    opened(state) {
      state.unseenCount = 0;
    },
    closed(state) {
      state.unseenCount = 0;
    },
    profileLoaded(state, action: PayloadAction<NameAndEmail>) {
      state.me = action.payload;
    },
    chatsLoaded(state, action: PayloadAction<ChatSummary[]>) {
      chatsAdapter.setAll(state.chats, pinnedFirst(action.payload));
      state.loaded = true;
    },
    /** docs/spec.md §8: a failed load shows an empty list (and the saga goes to /login). */
    loadFailed(state) {
      chatsAdapter.removeAll(state.chats);
      state.loaded = true;
    },
    newMessagesSignalled(state) {
      state.unseenCount += 1;
    },
    windowFocused(state) {
      state.unseenCount = 0;
    },
  },
  extraReducers: (builder) => {
    /** A message deleted for everyone in an open room; when it is the room's last, the list says so. */
    builder.addCase(messageDeletedInRoom, (state, action) => {
      const chat = state.chats.entities[action.payload.chatRoomId];
      if (chat && chat.lastSeq === action.payload.seq) chat.lastMessage = DELETED_MESSAGE_TEXT;
    });
    /** The member muted or pinned a room (the room menu): the row shows it, pinned rooms first at once. */
    builder.addCase(roomSettingsChanged, (state, action) => {
      const chat = state.chats.entities[action.payload.chatRoomId];
      if (!chat) return;
      if (action.payload.muted) chat.muted = true;
      else delete chat.muted;
      if (action.payload.pinned) chat.pinned = true;
      else delete chat.pinned;
      state.chats.ids = pinnedFirst(state.chats.ids.map((id) => state.chats.entities[id])).map((c) => c.chatRoomId);
    });
  },
});

export const {
  opened: chatListOpened,
  closed: chatListClosed,
  profileLoaded,
  chatsLoaded,
  loadFailed,
  newMessagesSignalled,
  windowFocused,
} = chatListSlice.actions;

export const chatListReducer = chatListSlice.reducer;

type WithChatList = { chatList: ChatListState };
const chatSelectors = chatsAdapter.getSelectors((state: WithChatList) => state.chatList.chats);

/** The rooms in the server's order, or null until the list has loaded: the same array until it changes. */
export const selectChats = createSelector([chatSelectors.selectAll, (state: WithChatList) => state.chatList.loaded], (chats, loaded) => (loaded ? chats : null));
export const selectMe = (state: WithChatList) => state.chatList.me;
export const selectChatListUnseen = (state: WithChatList) => state.chatList.unseenCount;
