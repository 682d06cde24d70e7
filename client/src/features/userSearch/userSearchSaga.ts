// User search and starting a chat (docs/spec.md §2, §5, §8), for /find-user and the call screen (/call).
// A new search replaces one in flight.
import type { PayloadAction } from '@reduxjs/toolkit';
import { call, delay, put, takeLatest, takeLeading, type SagaGenerator } from 'typed-redux-saga';
import { api, type CreateRoomResponse, type UserSummary } from '@common/api';
import { isSearchableKeyword } from '@common/rules';
import { paths } from '../../kernel/paths';
import { service } from '../../kernel/sagaContext';
import { ko } from '../../i18n/ko';
import { chatRoomPath } from '../../kernel/roomPaths';
import { startChatFinished, startChatRequested, userSearchFailed, userSearchResultsLoaded, userSearchSubmitted, type UserSearchOptions } from './userSearchSlice';

/** docs/spec.md §8: after a failed search the screen returns to the chat list after 2 s. */
export const SEARCH_FAILURE_EXIT_MS = 2000;

export function* search(action: PayloadAction<string, string, UserSearchOptions>): SagaGenerator<void> {
  const keyword = action.payload;
  if (!isSearchableKeyword(keyword)) {
    yield* put(userSearchResultsLoaded([]));
    return;
  }
  const http = yield* service('http');
  try {
    const users = yield* call([http, http.get<UserSummary[]>], api.userSearch, { keyword: keyword.trim() });
    yield* put(userSearchResultsLoaded(users));
  } catch (error) {
    const logError = yield* service('logError');
    yield* call(logError, 'user search', error);
    yield* put(userSearchFailed());
    if (!action.meta.leaveOnFailure) return;
    yield* delay(SEARCH_FAILURE_EXIT_MS);
    const navigate = yield* service('navigate');
    yield* call(navigate, paths.chatList);
  }
}

export function* startChat(action: PayloadAction<UserSummary>): SagaGenerator<void> {
  const http = yield* service('http');
  const target = action.payload;
  try {
    const { chatRoomId } = yield* call([http, http.post<CreateRoomResponse>], api.roomCreate, {
      targetUserId: target.userId,
      targetUserName: target.name,
    });
    const navigate = yield* service('navigate');
    yield* call(navigate, chatRoomPath(chatRoomId));
  } catch (error) {
    const logError = yield* service('logError');
    const alert = yield* service('alert');
    yield* call(logError, 'start chat', error);
    yield* call(alert, ko.userSearch.startFailed);
  } finally {
    yield* put(startChatFinished());
  }
}

export function* userSearchSaga(): SagaGenerator<void> {
  yield* takeLatest(userSearchSubmitted, search);
  yield* takeLeading(startChatRequested, startChat);
}
