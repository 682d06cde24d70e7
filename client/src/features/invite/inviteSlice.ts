// /add-user-to-chat (docs/spec.md §2 invite, §3 chat-room search): search results with isInChat.
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { RoomSearchResponse, UserSummary } from '@common/api';
import { isSearchableKeyword } from '@common/rules';

export interface InviteCandidate extends UserSummary {
  isInChat: boolean;
}

export interface InviteState {
  results: InviteCandidate[];
  searching: boolean;
  /** A real search ran (not an empty box): with no results the screen says nothing matched. */
  searched: boolean;
  adding: number | null;
}

const initialState: InviteState = { results: [], searching: false, searched: false, adding: null };

/** docs/spec.md §3: the client derives isInChat from the room's user ids. */
export function toCandidates(response: RoomSearchResponse): InviteCandidate[] {
  const members = new Set(response.chatRoomUsers);
  return response.allUsers.map((u) => ({ userId: u.userId, name: u.name, email: u.email, isInChat: members.has(u.userId) }));
}

const inviteSlice = createSlice({
  name: 'invite',
  initialState,
  reducers: {
    opened: () => initialState,
    submitted(state, action: PayloadAction<{ chatRoomId: number; keyword: string }>) {
      state.searching = true;
      state.searched = isSearchableKeyword(action.payload.keyword);
    },
    resultsLoaded(state, action: PayloadAction<InviteCandidate[]>) {
      state.results = action.payload;
      state.searching = false;
    },
    addRequested(state, action: PayloadAction<{ chatRoomId: number; userId: number }>) {
      state.adding = action.payload.userId;
    },
    userAdded(state, action: PayloadAction<number>) {
      const user = state.results.find((u) => u.userId === action.payload);
      if (user) user.isInChat = true;
      state.adding = null;
    },
    addFailed(state) {
      state.adding = null;
    },
  },
});

export const {
  opened: inviteOpened,
  submitted: inviteSearchSubmitted,
  resultsLoaded: inviteResultsLoaded,
  addRequested,
  userAdded,
  addFailed,
} = inviteSlice.actions;

export const inviteReducer = inviteSlice.reducer;
export const selectInvite = (state: { invite: InviteState }) => state.invite;
