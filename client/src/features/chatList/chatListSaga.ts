// The chat list session (docs/spec.md §2, §4, §8): who am I, my rooms, and a live refresh while the
// list is open. A `true` on /topic/toggle-refresh/{uid} means one of my rooms has news: reload
// the list and, when the user is not looking, raise the tab title count.
import type { EventChannel } from 'redux-saga';
import { buffers, eventChannel } from 'redux-saga';
import { all, call, delay, put, race, select, take, takeEvery, takeLeading, type SagaGenerator } from 'typed-redux-saga';
import { api, type ChatSummary, type NameAndEmail, type UserIdResponse } from '@common/api';
import { topics } from '@common/destinations';
import { isRefreshSignal } from '@common/events';
import { paths } from '../../kernel/paths';
import { service } from '../../kernel/sagaContext';
import type { StompService } from '../../services/stomp';
import { logoutRequested } from '../auth';
import { isWindowActive, windowActivityChannel } from '../../services/windowActivity';
import { memoRoomRequested, chatListClosed, chatListOpened, chatsLoaded, loadFailed, newMessagesSignalled, profileLoaded, selectChats, windowFocused } from './chatListSlice';
import { signalCounts } from './unread';

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

function* loadChats(): SagaGenerator<ChatSummary[] | null> {
  const http = yield* service('http');
  try {
    const chats = yield* call([http, http.get<ChatSummary[]>], api.chats);
    yield* put(chatsLoaded(chats));
    return chats;
  } catch (error) {
    const logError = yield* service('logError');
    yield* call(logError, 'chat list: chats', error);
    return null;
  }
}

function* loadProfile(): SagaGenerator<void> {
  const http = yield* service('http');
  try {
    const me = yield* call([http, http.get<NameAndEmail>], api.nameAndEmail);
    yield* put(profileLoaded(me));
  } catch (error) {
    const logError = yield* service('logError');
    yield* call(logError, 'chat list: name and e-mail', error);
  }
}

/** The signed-in user's id from the server; stored as uid when missing (after an OAuth sign-in). */
function* loadUserId(): SagaGenerator<number | null> {
  const http = yield* service('http');
  const uid = yield* service('uid');
  try {
    const { userId } = yield* call([http, http.get<UserIdResponse>], api.userId);
    if ((yield* call([uid, uid.read])) === null) yield* call([uid, uid.store], userId);
    return userId;
  } catch (error) {
    const logError = yield* service('logError');
    yield* call(logError, 'chat list: user id', error);
    return null;
  }
}

/**
 * The list waits this long for its refresh subscription before loading: loaded after the
 * subscription is active, it misses no news, so it is fetched once. Past it (no connection
 * yet), it loads anyway and reloads once the subscription is there.
 */
export const FIRST_SUBSCRIPTION_WAIT_MS = 2000;

/** True once the channel's first subscription is active, false after the wait. */
function* awaitSubscription(refresh: EventChannel<RefreshEvent>): SagaGenerator<boolean> {
  const { event } = yield* race({ event: take(refresh), timeout: delay(FIRST_SUBSCRIPTION_WAIT_MS) });
  // Only 'subscribed' can come first: no signal is delivered before the subscription.
  return event !== undefined;
}

function* watchRefresh(refresh: EventChannel<RefreshEvent>): SagaGenerator<void> {
  for (;;) {
    const event = yield* take(refresh);
    const previous = yield* select(selectChats);
    const chats = yield* call(loadChats);
    // A muted room's news raises no tab count (issue 26), unless it mentions the member.
    const counts = chats === null || previous === null || signalCounts(previous, chats);
    if (event === 'refresh' && !isWindowActive() && counts) yield* put(newMessagesSignalled());
  }
}

function* watchFocus(activity: EventChannel<boolean>): SagaGenerator<void> {
  for (;;) {
    const active = yield* take(activity);
    if (active) yield* put(windowFocused());
  }
}

export function* chatListSession(): SagaGenerator<void> {
  const navigate = yield* service('navigate');
  const stomp = yield* service('stomp');
  const uid = yield* service('uid');
  // Subscribe first with the stored id (the server checks the session, not this number), so
  // the list is read once, after the subscription is active.
  const storedId = yield* call([uid, uid.read]);
  let refresh: EventChannel<RefreshEvent> | null = storedId === null ? null : yield* call(refreshChannel, stomp, storedId);
  let activity: EventChannel<boolean> | null = null;
  try {
    if (refresh) yield* call(awaitSubscription, refresh);
    const { userId, chats } = yield* all({ userId: call(loadUserId), chats: call(loadChats), profile: call(loadProfile) });
    if (userId === null || chats === null) {
      // docs/spec.md §8: log (done), show an empty list, go to /login.
      yield* put(loadFailed());
      yield* call(navigate, paths.login, { replace: true });
      return;
    }
    if (refresh === null || userId !== storedId) {
      // No stored id (after an OAuth sign-in) or another user's: subscribe for the real one.
      refresh?.close();
      refresh = yield* call(refreshChannel, stomp, userId);
    }
    const live: EventChannel<RefreshEvent> = refresh;
    activity = yield* call(windowActivityChannel);
    yield* race([call(watchRefresh, live), call(watchFocus, activity)]);
  } finally {
    refresh?.close();
    activity?.close();
  }
}

function* disconnectOnLogout(): SagaGenerator<void> {
  const stomp = yield* service('stomp');
  yield* call([stomp, stomp.deactivate]);
}

/** Ours (issue 27): the memo room, made on first use, opened (its code fetched on first use). */
function* openMemoRoom(): SagaGenerator<void> {
  try {
    const request = yield* call(() => import(/* webpackChunkName: "memo-room" */ './memoRoomRequest'));
    yield* call(request.openMemoRoom);
  } catch (error) {
    const logError = yield* service('logError');
    yield* call(logError, 'chat list: memo room', error);
  }
}

export function* chatListSaga(): SagaGenerator<void> {
  yield* takeEvery(logoutRequested, disconnectOnLogout);
  yield* takeLeading(memoRoomRequested, openMemoRoom);
  for (;;) {
    yield* take(chatListOpened);
    yield* race({ session: call(chatListSession), closed: take(chatListClosed) });
  }
}
