// Runs the searches the boxes ask for: the newest request per scope wins (takeLatest cancels
// the one in flight); 'more' asks the next page, older than the last result (beforeId).
import type { Action, PayloadAction } from '@reduxjs/toolkit';
import { all, call, put, select, takeEvery, takeLatest, type SagaGenerator } from 'typed-redux-saga';
import { api, type MessageSearchResponse } from '@common/api';
import { service } from '../../kernel/sagaContext';
import { moreRequested, resultsLoaded, searchFailed, searchRequested, selectSearch, type ScopeState, type SearchRequest, type SearchScope } from './messageSearchSlice';

function* fetchPage(scope: SearchScope, state: Pick<ScopeState, 'keyword' | 'chatRoomId'>, beforeId?: number): SagaGenerator<void> {
  const http = yield* service('http');
  const logError = yield* service('logError');
  const query: Record<string, string | number> = { keyword: state.keyword };
  if (scope === 'room' && state.chatRoomId !== null) query.chatRoomId = state.chatRoomId;
  if (beforeId !== undefined) query.beforeId = beforeId;
  try {
    const page = yield* call([http, http.get<MessageSearchResponse>], api.messageSearch, query);
    yield* put(resultsLoaded({ scope, keyword: state.keyword, results: page.results, hasMore: page.hasMore, more: beforeId !== undefined }));
  } catch (error) {
    yield* call(logError, 'message search', error);
    yield* put(searchFailed({ scope, keyword: state.keyword }));
  }
}

function* search(action: PayloadAction<SearchRequest>): SagaGenerator<void> {
  const { scope, keyword, chatRoomId } = action.payload;
  if (!keyword.trim()) return;
  yield* call(fetchPage, scope, { keyword: keyword.trim(), chatRoomId: chatRoomId ?? null });
}

function* more(action: PayloadAction<SearchScope>): SagaGenerator<void> {
  const state = yield* select(selectSearch(action.payload));
  const last = state.results.at(-1);
  if (!state.loadingMore || !last) return;
  yield* call(fetchPage, action.payload, state, last.messageId);
}

export function* messageSearchSaga(): SagaGenerator<void> {
  // One search in flight per scope: the room's box does not cancel the chat list's.
  const inScope = (scope: SearchScope) => (action: Action) => searchRequested.match(action) && action.payload.scope === scope;
  yield* all([takeLatest(inScope('room'), search), takeLatest(inScope('all'), search), takeEvery(moreRequested, more)]);
}
