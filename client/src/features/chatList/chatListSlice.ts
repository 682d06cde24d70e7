// The chat list screen (SPEC.md §2, §4): the user's name and e-mail, the rooms (null while
// loading) and the count of new-message signals for the tab title.
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { ChatSummary, NameAndEmail } from '@common/api';
import { DELETED_MESSAGE_TEXT } from '@common/system-text';
import { messageDeletedInRoom } from '../room';

export interface ChatListState {
  chats: ChatSummary[] | null;
  me: NameAndEmail | null;
  unseenCount: number;
}

const initialState: ChatListState = { chats: null, me: null, unseenCount: 0 };

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
      state.chats = action.payload;
    },
    /** SPEC.md §8: a failed load shows an empty list (and the saga goes to /login). */
    loadFailed(state) {
      state.chats = [];
    },
    newMessagesSignalled(state) {
      state.unseenCount += 1;
    },
    windowFocused(state) {
      state.unseenCount = 0;
    },
  },
  extraReducers: (builder) => {
    /** Issue 13: a message deleted for everyone in an open room; when it is the room's last, the list says so. */
    builder.addCase(messageDeletedInRoom, (state, action) => {
      const chat = state.chats?.find((c) => c.chatRoomId === action.payload.chatRoomId);
      if (chat && chat.lastSeq === action.payload.seq) chat.lastMessage = DELETED_MESSAGE_TEXT;
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
export const selectChats = (state: WithChatList) => state.chatList.chats;
export const selectMe = (state: WithChatList) => state.chatList.me;
export const selectChatListUnseen = (state: WithChatList) => state.chatList.unseenCount;
