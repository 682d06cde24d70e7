// Invite search and adding a user to the room (docs/spec.md §2, §5, §8).
import type { PayloadAction } from '@reduxjs/toolkit';
import { call, put, takeEvery, takeLatest, type SagaGenerator } from 'typed-redux-saga';
import { api, type RoomSearchResponse } from '@common/api';
import { isSearchableKeyword } from '@common/rules';
import { service } from '../../kernel/sagaContext';
import { ko } from '../../i18n/ko';
import { addFailed, addRequested, inviteResultsLoaded, inviteSearchSubmitted, toCandidates, userAdded } from './inviteSlice';

export function* searchForInvite(action: PayloadAction<{ chatRoomId: number; keyword: string }>): SagaGenerator<void> {
  const { chatRoomId, keyword } = action.payload;
  if (!isSearchableKeyword(keyword)) {
    yield* put(inviteResultsLoaded([]));
    return;
  }
  const http = yield* service('http');
  try {
    const response = yield* call([http, http.get<RoomSearchResponse>], api.roomSearch, { keyword: keyword.trim(), chatRoomId });
    yield* put(inviteResultsLoaded(toCandidates(response)));
  } catch (error) {
    // docs/spec.md §8: on the invite screen a failed search is logged and shows an empty list.
    const logError = yield* service('logError');
    yield* call(logError, 'invite search', error);
    yield* put(inviteResultsLoaded([]));
  }
}

export function* addUser(action: PayloadAction<{ chatRoomId: number; userId: number }>): SagaGenerator<void> {
  const http = yield* service('http');
  try {
    yield* call([http, http.post], api.addUser, action.payload);
    yield* put(userAdded(action.payload.userId));
  } catch (error) {
    const logError = yield* service('logError');
    const alert = yield* service('alert');
    yield* call(logError, 'add user', error);
    yield* put(addFailed());
    yield* call(alert, ko.invite.addFailed);
  }
}

export function* inviteSaga(): SagaGenerator<void> {
  yield* takeLatest(inviteSearchSubmitted, searchForInvite);
  yield* takeEvery(addRequested, addUser);
}
