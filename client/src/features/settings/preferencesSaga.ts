// Loads and saves the user's preferences (issue 11) through /api/user/preferences.
import type { PayloadAction } from '@reduxjs/toolkit';
import type { SagaIterator } from 'redux-saga';
import { call, put, takeLatest } from 'redux-saga/effects';
import { api, type Preferences } from '@common/api';
import { service } from '../../kernel/sagaContext';
import { preferencesActions } from './preferencesSlice';

function* load(): SagaIterator {
  const http = yield* service('http');
  try {
    const preferences: Preferences = yield call([http, http.get], api.preferences);
    yield put(preferencesActions.loaded(preferences));
  } catch (error) {
    const logError = yield* service('logError');
    yield call(logError, 'preferences: load', error);
    yield put(preferencesActions.failed());
  }
}

function* save(action: PayloadAction<boolean>): SagaIterator {
  const http = yield* service('http');
  try {
    const preferences: Preferences = yield call([http, http.patch], api.preferences, { sendTyping: action.payload });
    yield put(preferencesActions.loaded(preferences));
  } catch (error) {
    const logError = yield* service('logError');
    yield call(logError, 'preferences: save', error);
    yield put(preferencesActions.failed());
  }
}

export function* preferencesSaga(): SagaIterator {
  yield takeLatest(preferencesActions.opened.type, load);
  yield takeLatest(preferencesActions.sendTypingToggled.type, save);
}
