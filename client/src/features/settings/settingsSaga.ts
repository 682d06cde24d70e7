// Name and password update: validate as docs/spec.md §5 says, PATCH, then back to the chat list.
import { call, delay, put, takeLeading, type SagaGenerator } from 'typed-redux-saga';
import type { PayloadAction } from '@reduxjs/toolkit';
import { api, type UpdateInfoRequest, type UpdateInfoResponse } from '@common/api';
import { isValidName, LIMITS } from '@common/rules';
import { paths } from '../../kernel/paths';
import { service } from '../../kernel/sagaContext';
import { HttpError, NetworkError } from '../../services/http';
import { settingsActions, type SettingsForm, type SettingsMessage } from './settingsSlice';

export function settingsProblem(form: SettingsForm): SettingsMessage | null {
  if (!form.password) return 'passwordRequired';
  if (!isValidName(form.name)) return 'invalidName';
  if (form.password !== form.confirmPassword) return 'passwordMismatch';
  return null;
}

/** A new password needs the current one: the server says which is missing or wrong. */
function failureMessage(error: unknown): SettingsMessage {
  if (error instanceof NetworkError) return 'tryLater';
  if (error instanceof HttpError && error.status === 403) {
    if (error.body?.error === 'current_password_required') return 'currentPasswordRequired';
    if (error.body?.error === 'wrong_current_password') return 'wrongCurrentPassword';
  }
  return 'failed';
}

export function* updateProfile(action: PayloadAction<SettingsForm>): SagaGenerator<void> {
  const problem = settingsProblem(action.payload);
  if (problem) {
    yield* put(settingsActions.updateFailed(problem));
    return;
  }
  const http = yield* service('http');
  yield* put(settingsActions.updateStarted());
  let response: UpdateInfoResponse;
  try {
    const { name, password, currentPassword } = action.payload;
    const body: UpdateInfoRequest = currentPassword ? { name, password, currentPassword } : { name, password };
    response = yield* call([http, http.patch<UpdateInfoResponse>], api.userInfo, body);
  } catch (error) {
    const logError = yield* service('logError');
    yield* call(logError, 'user info update', error);
    yield* put(settingsActions.updateFailed(failureMessage(error)));
    return;
  }
  if (response.status === 'name') {
    yield* put(settingsActions.updateFailed('sameName'));
    return;
  }
  yield* put(settingsActions.updateSucceeded());
  yield* delay(LIMITS.redirectDelayMs);
  const navigate = yield* service('navigate');
  yield* call(navigate, paths.chatList);
}

export function* settingsSaga(): SagaGenerator<void> {
  yield* takeLeading(settingsActions.updateSubmitted, updateProfile);
}
