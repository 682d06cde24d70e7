// Message search (GET /api/search/messages): one state for the room's search box and
// one for the chat list's (all rooms), since a desktop shows both at once.
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { MessageSearchResult } from '@common/api';

export type SearchScope = 'room' | 'all';
export type SearchStatus = 'idle' | 'loading' | 'done' | 'failed';

export interface ScopeState {
  keyword: string;
  /** The room searched (scope 'room'). */
  chatRoomId: number | null;
  status: SearchStatus;
  results: MessageSearchResult[];
  hasMore: boolean;
  loadingMore: boolean;
}

export type MessageSearchState = Record<SearchScope, ScopeState>;

const blank: ScopeState = { keyword: '', chatRoomId: null, status: 'idle', results: [], hasMore: false, loadingMore: false };
const initialState: MessageSearchState = { room: blank, all: blank };

export interface SearchRequest { scope: SearchScope; keyword: string; chatRoomId?: number }

const messageSearchSlice = createSlice({
  name: 'messageSearch',
  initialState,
  reducers: {
    searchRequested(state, action: PayloadAction<SearchRequest>) {
      const { scope, keyword, chatRoomId } = action.payload;
      state[scope] = { ...blank, keyword: keyword.trim(), chatRoomId: chatRoomId ?? null, status: keyword.trim() ? 'loading' : 'idle' };
    },
    resultsLoaded(state, action: PayloadAction<{ scope: SearchScope; keyword: string; results: MessageSearchResult[]; hasMore: boolean; more: boolean }>) {
      const { scope, keyword, results, hasMore, more } = action.payload;
      const s = state[scope];
      // A slower answer to an earlier keyword is dropped.
      if (s.keyword !== keyword) return;
      const known = new Set(more ? s.results.map((r) => r.messageId) : []);
      s.results = more ? [...s.results, ...results.filter((r) => !known.has(r.messageId))] : results;
      s.hasMore = hasMore;
      s.status = 'done';
      s.loadingMore = false;
    },
    searchFailed(state, action: PayloadAction<{ scope: SearchScope; keyword: string }>) {
      const s = state[action.payload.scope];
      if (s.keyword !== action.payload.keyword) return;
      s.status = 'failed';
      s.loadingMore = false;
    },
    moreRequested(state, action: PayloadAction<SearchScope>) {
      const s = state[action.payload];
      if (s.status === 'done' && s.hasMore) s.loadingMore = true;
    },
    searchCleared(state, action: PayloadAction<SearchScope>) {
      state[action.payload] = blank;
    },
  },
});

export const { searchRequested, resultsLoaded, searchFailed, moreRequested, searchCleared } = messageSearchSlice.actions;
export const messageSearchReducer = messageSearchSlice.reducer;

type WithSearch = { messageSearch: MessageSearchState };
export const selectSearch = (scope: SearchScope) => (state: WithSearch) => state.messageSearch[scope];
