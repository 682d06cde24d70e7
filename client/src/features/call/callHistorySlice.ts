// 통화 기록 (docs/spec.md §2 Call history): the user's calls from GET /api/calls, newest first,
// a page at a time, and how many of the loaded ones were missed.
import { createSelector, createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { CallRecord, CallsResponse } from '@common/api';
import { isMissedCall } from './callHistoryRules';

export interface CallHistoryState {
  entries: CallRecord[];
  hasMore: boolean;
  loading: boolean;
  failed: boolean;
}

export const initialCallHistoryState: CallHistoryState = { entries: [], hasMore: false, loading: false, failed: false };

const callHistorySlice = createSlice({
  name: 'callHistory',
  initialState: initialCallHistoryState,
  reducers: {
    /** The screen opened: the first page again. */
    historyOpened(state) {
      Object.assign(state, { ...initialCallHistoryState, loading: true });
    },
    historyMoreRequested(state) {
      if (state.hasMore && !state.loading) state.loading = true;
    },
    historyPageLoaded(state, action: PayloadAction<{ page: CallsResponse; first: boolean }>) {
      const { page, first } = action.payload;
      const known = new Set(first ? [] : state.entries.map((entry) => entry.callId));
      state.entries = [...(first ? [] : state.entries), ...page.calls.filter((entry) => !known.has(entry.callId))];
      state.hasMore = page.hasMore;
      state.loading = false;
      state.failed = false;
    },
    historyFailed(state) {
      state.loading = false;
      state.failed = true;
    },
  },
});

export const callHistoryActions = callHistorySlice.actions;
export const callHistoryReducer = callHistorySlice.reducer;

interface WithHistory {
  callHistory: CallHistoryState;
}
export const selectCallHistory = (state: WithHistory) => state.callHistory;
export const selectMissedCallCount = createSelector([(state: WithHistory) => state.callHistory.entries], (entries) => entries.filter(isMissedCall).length);
