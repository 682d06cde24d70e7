// The chat list session (SPEC.md §2, §4, §8): who am I, my rooms, and a live refresh while the
// list is open. A `true` on /topic/toggle-refresh/{uid} means one of my rooms has news: reload
// the list and, when the user is not looking, raise the tab title count.
import type { EventChannel, SagaIterator } from 'redux-saga';
import { buffers, eventChannel } from 'redux-saga';
import { all, call, put, race, take, takeEvery } from 'redux-saga/effects';
import { api, type ChatSummary, type NameAndEmail, type UserIdResponse } from '../../../../common/api';
import { topics } from '../../../../common/destinations';
import { isRefreshSignal } from '../../../../common/events';
import { paths } from '../../app/paths';
import { service } from '../../app/sagaContext';
import type { StompService } from '../../services/stomp';
import { logoutRequested } from '../auth/authSlice';
import { isWindowActive, windowActivityChannel } from '../room/windowActivity';
import { chatListClosed, chatListOpened, chatsLoaded, loadFailed, newMessagesSignalled, profileLoaded, windowFocused } from './chatListSlice';

type RefreshEvent = 'refresh' | 'subscribed';

function refreshChannel(stomp: StompService, userId: number): EventChannel<RefreshEvent> {
  return eventChannel<RefreshEvent>((emit) => {
    return stomp.subscribe(topics.toggleRefresh(userId), {
      message: (body) => {
        if (isRefreshSignal(body)) emit('refresh');
      },
      // After a reconnect the list may be stale: reload it once the subscription is back.
      active: () => emit('subscribed'),
    });
    // A burst of signals needs one reload, but a dropped one must not hide news: keep a few.
  }, buffers.sliding<RefreshEvent>(4));
}

function* loadChats(): SagaIterator<boolean> {
  const http = yield* service('http');
  try {
    const chats: ChatSummary[] = yield call([http, http.get], api.chats);
    yield put(chatsLoaded(chats));
    return true;
  } catch (error) {
    const logError = yield* service('logError');
    yield call(logError, 'chat list: chats', error);
    return false;
  }
}

function* loadProfile(): SagaIterator {
  const http = yield* service('http');
  try {
    const me: NameAndEmail = yield call([http, http.get], api.nameAndEmail);
    yield put(profileLoaded(me));
  } catch (error) {
    const logError = yield* service('logError');
    yield call(logError, 'chat list: name and e-mail', error);
  }
}

/** The signed-in user's id from the server; stored as uid when missing (after an OAuth sign-in). */
function* loadUserId(): SagaIterator<number | null> {
  const http = yield* service('http');
  const uid = yield* service('uid');
  try {
    const { userId }: UserIdResponse = yield call([http, http.get], api.userId);
    if ((yield call([uid, uid.read])) === null) yield call([uid, uid.store], userId);
    return userId;
  } catch (error) {
    const logError = yield* service('logError');
    yield call(logError, 'chat list: user id', error);
    return null;
  }
}

function* watchRefresh(refresh: EventChannel<RefreshEvent>): SagaIterator {
  for (;;) {
    const event: RefreshEvent = yield take(refresh);
    if (event === 'refresh' && !isWindowActive()) yield put(newMessagesSignalled());
    yield call(loadChats);
  }
}

function* watchFocus(activity: EventChannel<boolean>): SagaIterator {
  for (;;) {
    const active: boolean = yield take(activity);
    if (active) yield put(windowFocused());
  }
}

export function* chatListSession(): SagaIterator {
  const navigate = yield* service('navigate');
  const [userId, chatsOk]: [number | null, boolean] = yield all([call(loadUserId), call(loadChats), call(loadProfile)]);
  if (userId === null || !chatsOk) {
    // SPEC.md §8: log (done), show an empty list, go to /login.
    yield put(loadFailed());
    yield call(navigate, paths.login, { replace: true });
    return;
  }
  const stomp = yield* service('stomp');
  const refresh: EventChannel<RefreshEvent> = yield call(refreshChannel, stomp, userId);
  const activity: EventChannel<boolean> = yield call(windowActivityChannel);
  try {
    yield race([call(watchRefresh, refresh), call(watchFocus, activity)]);
  } finally {
    refresh.close();
    activity.close();
  }
}

function* disconnectOnLogout(): SagaIterator {
  const stomp = yield* service('stomp');
  yield call([stomp, stomp.deactivate]);
}

export function* chatListSaga(): SagaIterator {
  yield takeEvery(logoutRequested.type, disconnectOnLogout);
  for (;;) {
    yield take(chatListOpened.type);
    yield race({ session: call(chatListSession), closed: take(chatListClosed.type) });
  }
}
