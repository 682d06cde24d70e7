// The room session (DESIGN.md §4, issue 4): while a room is open, subscribe to its topic, keep the
// message list complete and in order, send with a clientMsgId until the echo arrives, report
// presence, page older history, and run the room's commands. Closing the room cancels it all;
// the finally blocks unsubscribe.
import type { PayloadAction } from '@reduxjs/toolkit';
import type { EventChannel, SagaIterator } from 'redux-saga';
import { call, cancelled, put, race, select, take } from 'redux-saga/effects';
import { api, type ChatHistoryResponse, type ChatMessage } from '../../../../common/api';
import { app } from '../../../../common/destinations';
import { LIMITS, isSendableMessage, isValidRoomName } from '../../../../common/rules';
import { paths } from '../../app/paths';
import { service } from '../../app/sagaContext';
import { isHttpStatus } from '../../services/http';
import { ko } from '../../i18n/ko';
import { newClientMsgId } from './clientMsgId';
import { leaverOf, skipsAhead, type PendingMessage } from './messages';
import { roomEventChannel, type RoomEvent } from './roomEvents';
import { sendTyping, watchRoomEventsTopic } from './roomEventsTopic';
import {
  activityChanged,
  caughtUp,
  disconnected,
  historyLoaded,
  leaveConfirmed,
  messageQueued,
  messageReceived,
  messageSubmitted,
  notificationConfirmed,
  notificationFailed,
  notificationSent,
  olderFailed,
  olderLoaded,
  olderRequested,
  renamed,
  renameSubmitted,
  roomClosed,
  roomOpened,
  selectNewestMessageId,
  selectNewestSeq,
  selectOldestMessageId,
  selectPending,
  selectRoom,
  selectRoomActive,
  subscribed,
  typingNoticed,
} from './roomSlice';
import { isWindowActive, windowActivityChannel } from './windowActivity';

interface Session {
  chatRoomId: number;
  userId: number;
}

/** A reconnect after a long outage fetches at most this many pages; older gaps load by scrolling. */
const MAX_CATCH_UP_PAGES = 50;

function* publish(destination: string, payload: unknown): SagaIterator<boolean> {
  const stomp = yield* service('stomp');
  return (yield call([stomp, stomp.publish], destination, payload)) as boolean;
}

function* publishPresence({ chatRoomId, userId }: Session, active: boolean): SagaIterator {
  yield call(publish, active ? app.userActive : app.userInactive, { chatRoomId, userId });
}

function* sendPending({ chatRoomId, userId }: Session, pending: PendingMessage): SagaIterator {
  // Not connected: the message stays pending and goes out on the next subscription.
  yield call(publish, app.privateMessage, { chatRoomId, senderId: userId, content: pending.content, clientMsgId: pending.clientMsgId });
}

/**
 * Everything newer than the newest message we hold. With a seq, by afterSeq (oldest first, 100
 * at a time): gap-free by construction. Without one (nothing held yet), page 0, then older
 * pages by beforeId until they overlap what we have.
 */
function* catchUp(session: Session): SagaIterator {
  const http = yield* service('http');
  const afterSeq: number | null = yield select(selectNewestSeq);
  if (afterSeq !== null) {
    yield call(fetchAfter, session, afterSeq);
    return;
  }
  const since: number | null = yield select(selectNewestMessageId);
  const found: ChatMessage[] = [];
  let first: ChatHistoryResponse | null = null;
  let beforeId: number | undefined;
  for (let i = 0; i < MAX_CATCH_UP_PAGES; i += 1) {
    const query = beforeId === undefined ? { chatRoomId: session.chatRoomId, page: 0 } : { chatRoomId: session.chatRoomId, beforeId };
    const page: ChatHistoryResponse = yield call([http, http.get], api.chatHistory, query);
    first ??= page;
    found.push(...page.messages);
    const oldest = page.messages[0]?.messageId;
    if (since === null || oldest === undefined || oldest <= since || page.messages.length < LIMITS.historyPageSize) break;
    beforeId = oldest;
  }
  if (first) yield put(caughtUp({ chatRoomName: first.chatRoomName, users: first.users, messages: found }));
}

/** The messages after a seq, page by page while the server says more follow. */
function* fetchAfter(session: Session, afterSeq: number): SagaIterator {
  const http = yield* service('http');
  let from = afterSeq;
  for (let i = 0; i < MAX_CATCH_UP_PAGES; i += 1) {
    const page: ChatHistoryResponse = yield call([http, http.get], api.chatHistory, { chatRoomId: session.chatRoomId, afterSeq: from });
    yield put(caughtUp({ chatRoomName: page.chatRoomName, users: page.users, messages: page.messages }));
    const last = page.messages.at(-1)?.seq;
    if (!page.hasMore || last === undefined) return;
    from = last;
  }
}

/** Tells the server the user has read the room up to this message (they are looking at it). */
function* sendRead(session: Session, message: ChatMessage): SagaIterator {
  const active: boolean = yield select(selectRoomActive);
  if (active && message.seq && message.senderId !== session.userId) yield call(publish, app.read, { chatRoomId: session.chatRoomId, seq: message.seq });
}

/** Returns when the user is no longer in the room (they left, from here or another device). */
function* watchRoomEvents(session: Session, events: EventChannel<RoomEvent>): SagaIterator {
  const logError = yield* service('logError');
  for (;;) {
    const event: RoomEvent = yield take(events);
    if (event.type === 'disconnected') {
      yield put(disconnected());
    } else if (event.type === 'subscribed') {
      yield put(subscribed());
      // The server forgets presence with the old connection: tell it again.
      const active: boolean = yield select(selectRoomActive);
      yield call(publishPresence, session, active);
      try {
        yield call(catchUp, session);
      } catch (error) {
        if (isHttpStatus(error, 403)) return;
        yield call(logError, 'room: catch up', error);
      }
      // Safe to repeat: the server stores a clientMsgId once and echoes it again.
      const pending: PendingMessage[] = yield select(selectPending);
      for (const p of pending) yield call(sendPending, session, p);
    } else {
      const message = event.message;
      // A seq that skips ahead means messages in between have not reached us: fetch them first,
      // so none is ever silently missing between two we hold.
      const newest: number | null = yield select(selectNewestSeq);
      if (skipsAhead(newest, message)) {
        try {
          yield call(fetchAfter, session, newest!);
        } catch (error) {
          yield call(logError, 'room: filling a gap', error);
        }
      }
      yield put(messageReceived(message));
      if (leaverOf(message) === session.userId) return;
      yield call(sendRead, session, message);
    }
  }
}

function* watchSends(session: Session): SagaIterator {
  for (;;) {
    const { payload }: PayloadAction<string> = yield take(messageSubmitted.type);
    if (!isSendableMessage(payload)) continue;
    const pending: PendingMessage = { clientMsgId: newClientMsgId(), content: payload.trim(), createdAt: new Date().toISOString() };
    yield put(messageQueued(pending));
    yield call(sendPending, session, pending);
  }
}

function* watchPresence(session: Session, activity: EventChannel<boolean>): SagaIterator {
  let active: boolean = yield select(selectRoomActive);
  for (;;) {
    const next: boolean = yield take(activity);
    if (next === active) continue;
    active = next;
    yield put(activityChanged(active));
    yield call(publishPresence, session, active);
  }
}

function* watchOlder(session: Session): SagaIterator {
  const http = yield* service('http');
  const logError = yield* service('logError');
  for (;;) {
    yield take(olderRequested.type);
    const { hasOlder } = (yield select(selectRoom)) as ReturnType<typeof selectRoom>;
    const beforeId: number | null = yield select(selectOldestMessageId);
    if (!hasOlder || beforeId === null) continue;
    try {
      const page: ChatHistoryResponse = yield call([http, http.get], api.chatHistory, { chatRoomId: session.chatRoomId, beforeId });
      yield put(olderLoaded({ messages: page.messages, hasOlder: page.messages.length >= LIMITS.historyPageSize }));
    } catch (error) {
      yield call(logError, 'room: older messages', error);
      yield put(olderFailed());
    }
  }
}

function* watchRename(session: Session): SagaIterator {
  const http = yield* service('http');
  const logError = yield* service('logError');
  for (;;) {
    const { payload }: PayloadAction<string> = yield take(renameSubmitted.type);
    if (!isValidRoomName(payload)) continue;
    const chatRoomName = payload.trim();
    try {
      yield call([http, http.post], api.updateSubject, { chatRoomId: session.chatRoomId, chatRoomName });
      yield put(renamed(chatRoomName));
    } catch (error) {
      // SPEC.md §8: a rename failure is not shown.
      yield call(logError, 'room: rename', error);
    }
  }
}

/** Returns once the server has taken the user out of the room. */
function* watchLeave(session: Session): SagaIterator {
  const http = yield* service('http');
  const logError = yield* service('logError');
  for (;;) {
    yield take(leaveConfirmed.type);
    try {
      yield call([http, http.delete], api.leaveChat, { chatRoomId: session.chatRoomId });
      return;
    } catch (error) {
      // SPEC.md §8: a leave failure is only logged.
      yield call(logError, 'room: leave', error);
    }
  }
}

function* watchNotification(session: Session): SagaIterator {
  const http = yield* service('http');
  const alert = yield* service('alert');
  const logError = yield* service('logError');
  for (;;) {
    yield take(notificationConfirmed.type);
    try {
      yield call([http, http.post], api.notificationSend, { chatRoomId: session.chatRoomId });
      yield put(notificationSent());
    } catch (error) {
      yield call(logError, 'room: e-mail notification', error);
      yield put(notificationFailed());
      yield call(alert, isHttpStatus(error, 429) ? ko.room.notifyLimited : ko.room.notifyFailed);
    }
  }
}

export function* roomSession(session: Session): SagaIterator {
  const http = yield* service('http');
  const stomp = yield* service('stomp');
  const navigate = yield* service('navigate');
  const logError = yield* service('logError');
  // Subscribe before loading history: whatever is published in between arrives on the channel
  // (and the catch-up after the subscription is confirmed closes any remaining gap).
  const events: EventChannel<RoomEvent> = yield call(roomEventChannel, stomp, session.chatRoomId);
  const activity: EventChannel<boolean> = yield call(windowActivityChannel);
  try {
    yield put(activityChanged(isWindowActive()));
    try {
      const page: ChatHistoryResponse = yield call([http, http.get], api.chatHistory, { chatRoomId: session.chatRoomId, page: 0 });
      yield put(historyLoaded(page));
    } catch (error) {
      // SPEC.md §8: a chat history failure goes to the chat list.
      yield call(logError, 'room: chat history', error);
      yield call(navigate, paths.chatList, { replace: true });
      return;
    }
    yield race({
      left: call(watchRoomEvents, session, events),
      leaveDone: call(watchLeave, session),
      sends: call(watchSends, session),
      presence: call(watchPresence, session, activity),
      older: call(watchOlder, session),
      rename: call(watchRename, session),
      notification: call(watchNotification, session),
      roomEvents: call(watchRoomEventsTopic, session.chatRoomId, session.userId),
      typing: call(sendTyping, session.chatRoomId, typingNoticed),
    });
    // Only the leave paths end the race by themselves.
    yield call(navigate, paths.chatList, { replace: true });
  } finally {
    events.close();
    activity.close();
    // Freeze the read marker once the user is no longer looking at this room.
    if ((yield cancelled()) as boolean) yield call(publishPresence, session, false);
  }
}

/** One room at a time: an open starts a session, a close (or the next open) cancels it. */
export function* roomSaga(): SagaIterator {
  let next: ReturnType<typeof roomOpened> = yield take(roomOpened.type);
  for (;;) {
    const { reopened } = yield race({
      session: call(roomSession, next.payload),
      closed: take(roomClosed.type),
      reopened: take(roomOpened.type),
    });
    next = reopened ?? (yield take(roomOpened.type));
  }
}
