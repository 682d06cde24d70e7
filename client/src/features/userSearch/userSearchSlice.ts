// /find-user (docs/spec.md §2 user search) and the call screen's name search: the results of the last search.
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

/**
 * What a failed search does besides clearing the results (docs/spec.md §8): /find-user goes back
 * to /chat-list after 2 s; the call screen (/call), which searches through this one search too,
 * stays with an empty list.
 */
export interface UserSearchOptions {
  leaveOnFailure: boolean;
}

const initialState: UserSearchState = { results: [], searching: false, searched: false, startingWith: null };

const userSearchSlice = createSlice({
  name: 'userSearch',
  initialState,
  reducers: {
    opened: () => initialState,
    submitted: {
      reducer(state, action: PayloadAction<string, string, UserSearchOptions>) {
        state.searching = true;
        state.searched = isSearchableKeyword(action.payload);
      },
      prepare: (keyword: string, options: Partial<UserSearchOptions> = {}) => ({ payload: keyword, meta: { leaveOnFailure: options.leaveOnFailure ?? true } }),
    },
    resultsLoaded(state, action: PayloadAction<UserSummary[]>) {
      state.results = action.payload;
      state.searching = false;
    },
    /** docs/spec.md §8: a failed search clears the results (the saga then leaves for /chat-list). */
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
