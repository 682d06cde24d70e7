// Login, OAuth start and logout. Plain request/response flows: one worker each.
import type { Task } from 'redux-saga';
import { call, delay, fork, join, put, take, takeEvery, takeLeading, type SagaGenerator } from 'typed-redux-saga';
import type { PayloadAction } from '@reduxjs/toolkit';
import { api, type LoginRequest, type LoginResponse, type OAuthProvider, type OAuthStartResponse } from '@common/api';
import { LIMITS } from '@common/rules';
import { paths } from '../../kernel/paths';
import { service } from '../../kernel/sagaContext';
import { isHttpStatus } from '../../services/http';
import { endPushSubscription } from '../../kernel/endPushSubscription';
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

/** Opening /login acts as a logout (docs/spec.md §2): on this device (the uid) and on the server (the session). */
function* endSessionOnLoginPage(): SagaGenerator<void> {
  const uid = yield* service('uid');
  yield* call([uid, uid.clear]);
  // While the session lasts: the server deletes the subscription for the session's user.
  yield* call(endPushSubscription);
  const http = yield* service('http');
  try {
    yield* call([http, http.post], api.logout);
  } catch (error) {
    // 401: there was no session to end, which is what we want.
    if (isHttpStatus(error, 401)) return;
    const logError = yield* service('logError');
    yield* call(logError, 'logout on the login page', error);
  }
}

export function* login(action: PayloadAction<LoginRequest>): SagaGenerator<void> {
  const { email, password } = action.payload;
  if (!email || !password) {
    yield* put(loginRejectedAsIncomplete());
    return;
  }
  const http = yield* service('http');
  yield* put(loginStarted());
  let response: LoginResponse;
  try {
    response = yield* call([http, http.post<LoginResponse>], api.login, { email, password } satisfies LoginRequest);
  } catch (error) {
    const logError = yield* service('logError');
    yield* call(logError, 'login', error);
    yield* put(loginFailed());
    return;
  }
  const uid = yield* service('uid');
  yield* call([uid, uid.store], response.userId);
  yield* put(loginSucceeded(response));
  yield* delay(LIMITS.redirectDelayMs);
  const navigate = yield* service('navigate');
  yield* call(navigate, paths.chatList);
}

export function* startOAuth(action: PayloadAction<OAuthProvider>): SagaGenerator<void> {
  const http = yield* service('http');
  try {
    const { url } = yield* call([http, http.get<OAuthStartResponse>], api.oauthLogin(action.payload));
    if (!url) throw new Error('no start address in the answer');
    const redirect = yield* service('redirect');
    yield* call(redirect, url);
  } catch (error) {
    const logError = yield* service('logError');
    yield* call(logError, `oauth ${action.payload}`, error);
    yield* put(oauthFailed(action.payload));
  }
}

export function* logout(): SagaGenerator<void> {
  // First, while the session lasts: no push for this user reaches this device any more.
  yield* call(endPushSubscription);
  const http = yield* service('http');
  try {
    yield* call([http, http.post], api.logout);
  } catch (error) {
    // The local sign-out still happens: the user asked to leave.
    const logError = yield* service('logError');
    yield* call(logError, 'logout', error);
  }
  const uid = yield* service('uid');
  yield* call([uid, uid.clear]);
  const navigate = yield* service('navigate');
  yield* call(navigate, paths.login, { replace: true });
}

/**
 * The login page's logout and the logins after it: a login waits for that logout to be answered,
 * so the old session's end can never arrive after (and end) the new one.
 */
function* loginPageFlow(): SagaGenerator<void> {
  // Set by the takeEvery worker, read by the loop: a holder, as a closure's assignment to a plain
  // variable is invisible to the loop's type narrowing.
  const latest: { ending: Task | null } = { ending: null };
  yield* takeEvery(loginPageOpened, function* () {
    latest.ending = yield* fork(endSessionOnLoginPage);
  });
  for (;;) {
    const action = yield* take(loginSubmitted);
    const pending = latest.ending;
    if (pending?.isRunning()) yield* join(pending);
    yield* call(login, action);
  }
}

export function* authSaga(): SagaGenerator<void> {
  yield* fork(loginPageFlow);
  yield* takeLeading(oauthRequested, startOAuth);
  yield* takeLeading(logoutRequested, logout);
}
