// Login, OAuth start and logout. Plain request/response flows: one worker each.
import type { SagaIterator } from 'redux-saga';
import { call, delay, put, takeEvery, takeLeading } from 'redux-saga/effects';
import type { PayloadAction } from '@reduxjs/toolkit';
import { api, type LoginRequest, type LoginResponse, type OAuthProvider, type OAuthStartResponse } from '../../../../common/api';
import { LIMITS } from '../../../../common/rules';
import { paths } from '../../app/paths';
import { service } from '../../app/sagaContext';
import {
  loginFailed,
  loginPageOpened,
  loginRejectedAsIncomplete,
  loginStarted,
  loginSubmitted,
  loginSucceeded,
  logoutRequested,
  oauthFailed,
  oauthRequested,
} from './authSlice';

function* clearUidOnLoginPage(): SagaIterator {
  // Opening /login acts as a logout on this device (SPEC.md §2).
  const uid = yield* service('uid');
  yield call([uid, uid.clear]);
}

export function* login(action: PayloadAction<LoginRequest>): SagaIterator {
  const { email, password } = action.payload;
  if (!email || !password) {
    yield put(loginRejectedAsIncomplete());
    return;
  }
  const http = yield* service('http');
  yield put(loginStarted());
  let response: LoginResponse;
  try {
    response = yield call([http, http.post], api.login, { email, password } satisfies LoginRequest);
  } catch (error) {
    const logError = yield* service('logError');
    yield call(logError, 'login', error);
    yield put(loginFailed());
    return;
  }
  const uid = yield* service('uid');
  yield call([uid, uid.store], response.userId);
  yield put(loginSucceeded(response));
  yield delay(LIMITS.redirectDelayMs);
  const navigate = yield* service('navigate');
  yield call(navigate, paths.chatList);
}

export function* startOAuth(action: PayloadAction<OAuthProvider>): SagaIterator {
  const http = yield* service('http');
  try {
    const { url }: OAuthStartResponse = yield call([http, http.get], api.oauthLogin(action.payload));
    if (!url) throw new Error('no start address in the answer');
    const redirect = yield* service('redirect');
    yield call(redirect, url);
  } catch (error) {
    const logError = yield* service('logError');
    yield call(logError, `oauth ${action.payload}`, error);
    yield put(oauthFailed(action.payload));
  }
}

export function* logout(): SagaIterator {
  const http = yield* service('http');
  try {
    yield call([http, http.post], api.logout);
  } catch (error) {
    // The local sign-out still happens: the user asked to leave.
    const logError = yield* service('logError');
    yield call(logError, 'logout', error);
  }
  const uid = yield* service('uid');
  yield call([uid, uid.clear]);
  const navigate = yield* service('navigate');
  yield call(navigate, paths.login, { replace: true });
}

export function* authSaga(): SagaIterator {
  yield takeEvery(loginPageOpened.type, clearUidOnLoginPage);
  yield takeLeading(loginSubmitted.type, login);
  yield takeLeading(oauthRequested.type, startOAuth);
  yield takeLeading(logoutRequested.type, logout);
}
