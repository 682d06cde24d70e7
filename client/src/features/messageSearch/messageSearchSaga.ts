// Runs the searches the boxes ask for: the newest request per scope wins (takeLatest cancels
// the one in flight); 'more' asks the next page, older than the last result (beforeId).
import type { Action, PayloadAction } from '@reduxjs/toolkit';
import type { SagaIterator } from 'redux-saga';
import { all, call, put, select, takeEvery, takeLatest } from 'redux-saga/effects';
import { api, type MessageSearchResponse } from '@common/api';
import { service } from '../../kernel/sagaContext';
import { moreRequested, resultsLoaded, searchFailed, searchRequested, selectSearch, type ScopeState, type SearchRequest, type SearchScope } from './messageSearchSlice';

function* fetchPage(scope: SearchScope, state: Pick<ScopeState, 'keyword' | 'chatRoomId'>, beforeId?: number): SagaIterator {
  const http = yield* service('http');
  const logError = yield* service('logError');
  const query: Record<string, string | number> = { keyword: state.keyword };
  if (scope === 'room' && state.chatRoomId !== null) query.chatRoomId = state.chatRoomId;
  if (beforeId !== undefined) query.beforeId = beforeId;
  try {
    const page: MessageSearchResponse = yield call([http, http.get], api.messageSearch, query);
    yield put(resultsLoaded({ scope, keyword: state.keyword, results: page.results, hasMore: page.hasMore, more: beforeId !== undefined }));
  } catch (error) {
    yield call(logError, 'message search', error);
    yield put(searchFailed({ scope, keyword: state.keyword }));
  }
}

function* search(action: PayloadAction<SearchRequest>): SagaIterator {
  const { scope, keyword, chatRoomId } = action.payload;
  if (!keyword.trim()) return;
  yield call(fetchPage, scope, { keyword: keyword.trim(), chatRoomId: chatRoomId ?? null });
}

function* more(action: PayloadAction<SearchScope>): SagaIterator {
  const state: ScopeState = yield select(selectSearch(action.payload));
  const last = state.results.at(-1);
  if (!state.loadingMore || !last) return;
  yield call(fetchPage, action.payload, state, last.messageId);
}

export function* messageSearchSaga(): SagaIterator {
  // One search in flight per scope: the room's box does not cancel the chat list's.
  const inScope = (scope: SearchScope) => (action: Action) => searchRequested.match(action) && action.payload.scope === scope;
  yield all([takeLatest(inScope('room'), search), takeLatest(inScope('all'), search), takeEvery(moreRequested.type, more)]);
}
