// /find-user (SPEC.md §2 user search): the results of the last search.
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { UserSummary } from '@common/api';
import { isSearchableKeyword } from '@common/rules';

export interface UserSearchState {
  results: UserSummary[];
  searching: boolean;
  /** A real search ran (not an empty box): with no results the screen says nothing matched. */
  searched: boolean;
  startingWith: number | null;
}

const initialState: UserSearchState = { results: [], searching: false, searched: false, startingWith: null };

const userSearchSlice = createSlice({
  name: 'userSearch',
  initialState,
  reducers: {
    opened: () => initialState,
    submitted(state, action: PayloadAction<string>) {
      state.searching = true;
      state.searched = isSearchableKeyword(action.payload);
    },
    resultsLoaded(state, action: PayloadAction<UserSummary[]>) {
      state.results = action.payload;
      state.searching = false;
    },
    /** SPEC.md §8: a failed search clears the results (the saga then leaves for /chat-list). */
    failed(state) {
      state.results = [];
      state.searching = false;
      state.searched = false;
    },
    startChatRequested(state, action: PayloadAction<UserSummary>) {
      state.startingWith = action.payload.userId;
    },
    startChatFinished(state) {
      state.startingWith = null;
    },
  },
});

export const {
  opened: userSearchOpened,
  submitted: userSearchSubmitted,
  resultsLoaded: userSearchResultsLoaded,
  failed: userSearchFailed,
  startChatRequested,
  startChatFinished,
} = userSearchSlice.actions;

export const userSearchReducer = userSearchSlice.reducer;
export const selectUserSearch = (state: { userSearch: UserSearchState }) => state.userSearch;
