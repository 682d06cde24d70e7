// Loads and saves the user's preferences through /api/user/preferences.
import type { PayloadAction } from '@reduxjs/toolkit';
import { call, put, takeLatest, type SagaGenerator } from 'typed-redux-saga';
import { api, type Preferences } from '@common/api';
import { service } from '../../kernel/sagaContext';
import { preferencesActions } from './preferencesSlice';

function* load(): SagaGenerator<void> {
  const http = yield* service('http');
  try {
    const preferences = yield* call([http, http.get<Preferences>], api.preferences);
    yield* put(preferencesActions.loaded(preferences));
  } catch (error) {
    const logError = yield* service('logError');
    yield* call(logError, 'preferences: load', error);
    yield* put(preferencesActions.failed());
  }
}

function* save(action: PayloadAction<boolean>): SagaGenerator<void> {
  const http = yield* service('http');
  try {
    const preferences = yield* call([http, http.patch<Preferences>], api.preferences, { sendTyping: action.payload });
    yield* put(preferencesActions.loaded(preferences));
  } catch (error) {
    const logError = yield* service('logError');
    yield* call(logError, 'preferences: save', error);
    yield* put(preferencesActions.failed());
  }
}

export function* preferencesSaga(): SagaGenerator<void> {
  yield* takeLatest(preferencesActions.opened, load);
  yield* takeLatest(preferencesActions.sendTypingToggled, save);
}
