// System notifications for a hidden tab and this device's Web Push subscription (ours, beyond
// the spec). While a signed-in screen is open: an incoming call and a message from someone else
// (in the open room, or a room the chat list sees change) raise a notification when the tab is
// hidden; a click on one focuses the tab and opens its room. Once the user allows notifications
// (from the in-app prompt), the device subscribes to push so a closed tab is reached too.
import type { PayloadAction } from '@reduxjs/toolkit';
import { eventChannel, type EventChannel, type SagaIterator, type Task } from 'redux-saga';
import { call, cancel, fork, put, take, takeEvery } from 'redux-saga/effects';
import { api, type ChatMessage, type ChatSummary } from '../../../../common/api';
import type { PushPublicKeyResponse, PushSubscriptionRequest } from '../../../../common/push';
import { service } from '../../app/sagaContext';
import type { NotificationPermissionState } from '../../services/notifier';
import { incomingCallNotice, messageNotice, type Notice } from '../../sw/pushNotice';
import { isUnread } from '../chatList/unread';
import { chatsLoaded } from '../chatList/chatListSlice';
import { callActions } from '../call/callSlice';
import type { CallPeer } from '../call/callRules';
import { messageReceived } from '../room/roomSlice';
import { notificationsActions } from './notificationsSlice';

/** Local storage key of the prompt put aside. */
export const PROMPT_DISMISSED_KEY = 'notificationPromptDismissed';

function* logged(context: string, error: unknown): SagaIterator {
  const logError = yield* service('logError');
  yield call(logError, context, error);
}

function* readPermission(): SagaIterator<NotificationPermissionState> {
  const notifier = yield* service('notifier');
  const storage = yield* service('storage');
  const permission: NotificationPermissionState = yield call([notifier, notifier.permission]);
  yield put(notificationsActions.permissionRead({ permission, promptDismissed: storage.getItem(PROMPT_DISMISSED_KEY) === '1' }));
  return permission;
}

/** Subscribes this device (idempotent) and tells the server, for the current session. */
function* subscribeToPush(): SagaIterator {
  const http = yield* service('http');
  const notifier = yield* service('notifier');
  try {
    const { publicKey }: PushPublicKeyResponse = yield call([http, http.get], api.pushPublicKey);
    const subscription: PushSubscriptionRequest | null = yield call([notifier, notifier.subscribePush], publicKey);
    if (subscription) yield call([http, http.post], api.pushSubscriptions, subscription);
  } catch (error) {
    yield* logged('push subscription', error);
  }
}

function* notify(notice: Notice): SagaIterator {
  const notifier = yield* service('notifier');
  try {
    yield call([notifier, notifier.showIfHidden], notice);
  } catch (error) {
    yield* logged('notification', error);
  }
}

function* notifyIncomingCall(action: PayloadAction<CallPeer>): SagaIterator {
  yield* notify(incomingCallNotice(action.payload.name));
}

function* notifyRoomMessage(action: PayloadAction<ChatMessage>): SagaIterator {
  const message = action.payload;
  const uid = yield* service('uid');
  if (message.senderId === null || message.senderId === uid.read() || message.chatRoomId === undefined) return;
  yield* notify(messageNotice(message.chatRoomId, message.senderName, message.content));
}

/** Rooms of the chat list whose last message is new since the last load and unread. */
export function newlyUnread(previous: ReadonlyMap<number, string | null>, chats: readonly ChatSummary[]): ChatSummary[] {
  return chats.filter((chat) => previous.has(chat.chatRoomId) && previous.get(chat.chatRoomId) !== chat.lastMessageTime && isUnread(chat));
}

function* watchChatList(): SagaIterator {
  let previous: Map<number, string | null> | null = null;
  while (true) {
    const { payload }: PayloadAction<ChatSummary[]> = yield take(chatsLoaded);
    if (previous) {
      for (const chat of newlyUnread(previous, payload)) yield* notify(messageNotice(chat.chatRoomId, chat.chatRoomName, chat.lastMessage ?? ''));
    }
    previous = new Map(payload.map((chat) => [chat.chatRoomId, chat.lastMessageTime]));
  }
}

function openedChannel(subscribe: (listener: (url: string) => void) => () => void): EventChannel<{ url: string }> {
  return eventChannel((emit) => subscribe((url) => emit({ url })));
}

/** A click on a notification: the tab has the focus; go to the notification's room. */
function* followClicks(): SagaIterator {
  const notifier = yield* service('notifier');
  const clicks: EventChannel<{ url: string }> = yield call(openedChannel, (listener) => notifier.onOpen(listener));
  try {
    while (true) {
      const { url }: { url: string } = yield take(clicks);
      if (!url) continue;
      const navigate = yield* service('navigate');
      yield call(navigate, url);
    }
  } finally {
    clicks.close();
  }
}

function* whileSignedIn(): SagaIterator {
  yield fork(followClicks);
  yield fork(watchChatList);
  yield takeEvery(callActions.incomingReceived, notifyIncomingCall);
  yield takeEvery(messageReceived, notifyRoomMessage);
  if ((yield* readPermission()) === 'granted') yield fork(subscribeToPush);
  while (true) {
    yield take(notificationsActions.enableClicked);
    const notifier = yield* service('notifier');
    try {
      yield call([notifier, notifier.requestPermission]);
    } catch (error) {
      yield* logged('notification permission', error);
    }
    if ((yield* readPermission()) === 'granted') yield fork(subscribeToPush);
  }
}

function* rememberDismissal(): SagaIterator {
  const storage = yield* service('storage');
  storage.setItem(PROMPT_DISMISSED_KEY, '1');
}

export function* notificationsSaga(): SagaIterator {
  yield takeEvery(notificationsActions.promptDismissed, rememberDismissal);
  while (true) {
    yield take(notificationsActions.started);
    const running: Task = yield fork(whileSignedIn);
    yield take(notificationsActions.stopped);
    yield cancel(running);
  }
}
