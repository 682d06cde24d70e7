// System notifications for a hidden tab and this device's Web Push subscription (ours, beyond
// the spec). While a signed-in screen is open: an incoming call and a message from someone else
// in the open room raise a notification when the tab is hidden, a message in any other room
// (otherRooms.ts) when the user is not looking at it; a click on one focuses the tab and opens
// its room. Once the user allows notifications (from the in-app prompt), the device subscribes
// to push so a closed tab is reached too. Turned off in the settings, or at logout, the device's
// subscription ends, in the browser and on the server (before the login session ends).
import type { PayloadAction } from '@reduxjs/toolkit';
import { eventChannel, type EventChannel, type Task } from 'redux-saga';
import { call, cancel, fork, put, select, take, takeEvery, type SagaGenerator } from 'typed-redux-saga';
import { api, type ChatMessage } from '@common/api';
import type { PushPublicKeyResponse } from '@common/push';
import { service } from '../../kernel/sagaContext';
import type { NotificationPermissionState } from '../../services/notifier';
import { incomingCallNotice, messageNotice, type Notice } from '../../sw/pushNotice';
import { callActions, type CallStart } from '../call';
import { messageReceived, selectOpenRoomMuted } from '../room';
import { notificationsActions, selectNotificationsOn } from './notificationsSlice';
import { endPushSubscription } from '../../kernel/endPushSubscription';
import { watchOtherRooms } from './otherRooms';

export { newlyUnread } from './otherRooms';

/** Local storage key of the prompt put aside. */
export const PROMPT_DISMISSED_KEY = 'notificationPromptDismissed';
/** Local storage key of notifications turned off in the settings (on this device). */
export const NOTIFICATIONS_OFF_KEY = 'notificationsOff';

function* logged(context: string, error: unknown): SagaGenerator<void> {
  const logError = yield* service('logError');
  yield* call(logError, context, error);
}

function* readPermission(): SagaGenerator<NotificationPermissionState> {
  const notifier = yield* service('notifier');
  const storage = yield* service('storage');
  const permission = yield* call([notifier, notifier.permission]);
  const off = storage.getItem(NOTIFICATIONS_OFF_KEY) === '1';
  yield* put(notificationsActions.permissionRead({ permission, promptDismissed: storage.getItem(PROMPT_DISMISSED_KEY) === '1', off }));
  return permission;
}

/** Subscribes this device (idempotent) and tells the server, for the current session. */
function* subscribeToPush(): SagaGenerator<void> {
  const http = yield* service('http');
  const notifier = yield* service('notifier');
  try {
    const { publicKey } = yield* call([http, http.get<PushPublicKeyResponse>], api.pushPublicKey);
    const subscription = yield* call([notifier, notifier.subscribePush], publicKey);
    if (subscription) yield* call([http, http.post], api.pushSubscriptions, subscription);
  } catch (error) {
    yield* logged('push subscription', error);
  }
}

function* notify(notice: Notice): SagaGenerator<void> {
  if (!(yield* select(selectNotificationsOn))) return;
  const notifier = yield* service('notifier');
  try {
    yield* call([notifier, notifier.showIfHidden], notice);
  } catch (error) {
    yield* logged('notification', error);
  }
}

function* notifyIncomingCall(action: PayloadAction<CallStart>): SagaGenerator<void> {
  yield* notify(incomingCallNotice(action.payload.name, action.payload.media ?? 'audio'));
}

function* notifyRoomMessage(action: PayloadAction<ChatMessage>): SagaGenerator<void> {
  const message = action.payload;
  const uid = yield* service('uid');
  const me = uid.read();
  if (message.senderId === null || message.senderId === me || message.chatRoomId === undefined) return;
  // A muted room stays silent (issue 26) unless the message mentions the member.
  if ((yield* select(selectOpenRoomMuted)) && !(me !== null && message.mentions?.includes(me))) return;
  yield* notify(messageNotice(message.chatRoomId, message.senderName, message.content));
}

function openedChannel(subscribe: (listener: (url: string) => void) => () => void): EventChannel<{ url: string }> {
  return eventChannel((emit) => subscribe((url) => emit({ url })));
}

/** A click on a notification: the tab has the focus; go to the notification's room. */
function* followClicks(): SagaGenerator<void> {
  const notifier = yield* service('notifier');
  const clicks = yield* call(openedChannel, (listener: (url: string) => void) => notifier.onOpen(listener));
  try {
    while (true) {
      const { url } = yield* take(clicks);
      if (!url) continue;
      const navigate = yield* service('navigate');
      yield* call(navigate, url);
    }
  } finally {
    clicks.close();
  }
}

/** While notifications are on: this device subscribed to push, other rooms watched. */
function* whileOn(): SagaGenerator<void> {
  yield* fork(subscribeToPush);
  yield* call(watchOtherRooms);
}

type SwitchAction = ReturnType<typeof notificationsActions.enableClicked | typeof notificationsActions.turnedOff>;

function* whileSignedIn(): SagaGenerator<void> {
  yield* fork(followClicks);
  yield* takeEvery(callActions.incomingReceived, notifyIncomingCall);
  yield* takeEvery(messageReceived, notifyRoomMessage);
  let on: Task | null = null;
  const startIfOn = function* (): SagaGenerator<void> {
    const permission = yield* readPermission();
    if (permission === 'granted' && (yield* select(selectNotificationsOn)) && !on?.isRunning()) on = yield* fork(whileOn);
  };
  yield* startIfOn();
  while (true) {
    const action = yield* take<SwitchAction>([notificationsActions.enableClicked, notificationsActions.turnedOff]);
    const storage = yield* service('storage');
    if (notificationsActions.turnedOff.match(action)) {
      storage.setItem(NOTIFICATIONS_OFF_KEY, '1');
      if (on) yield* cancel(on);
      on = null;
      yield* call(endPushSubscription);
      yield* readPermission();
      continue;
    }
    storage.removeItem(NOTIFICATIONS_OFF_KEY);
    const notifier = yield* service('notifier');
    if ((yield* call([notifier, notifier.permission])) !== 'granted') {
      try {
        yield* call([notifier, notifier.requestPermission]);
      } catch (error) {
        yield* logged('notification permission', error);
      }
    }
    yield* startIfOn();
  }
}

function* rememberDismissal(): SagaGenerator<void> {
  const storage = yield* service('storage');
  storage.setItem(PROMPT_DISMISSED_KEY, '1');
}

export function* notificationsSaga(): SagaGenerator<void> {
  yield* takeEvery(notificationsActions.promptDismissed, rememberDismissal);
  while (true) {
    yield* take(notificationsActions.started);
    const running = yield* fork(whileSignedIn);
    yield* take(notificationsActions.stopped);
    yield* cancel(running);
  }
}
