// The room session (DESIGN.md §4, issue 4): while a room is open, subscribe to its topic, keep the
// message list complete and in order, send with a clientMsgId until the echo arrives, report
// presence, page older history, and run the room's commands. Closing the room cancels it all;
// the finally blocks unsubscribe.
import type { PayloadAction } from '@reduxjs/toolkit';
import { buffers, channel, type Channel, type EventChannel, type SagaIterator } from 'redux-saga';
import { call, cancelled, delay, flush, fork, put, race, select, take } from 'redux-saga/effects';
import { api, type ChatHistoryResponse, type ChatMessage } from '@common/api';
import { app } from '@common/destinations';
import { LIMITS, isSendableMessage, isValidRoomName } from '@common/rules';
import { paths } from '../../kernel/paths';
import { service } from '../../kernel/sagaContext';
import { isHttpStatus } from '../../services/http';
import { ko } from '../../i18n/ko';
import { newClientMsgId } from './clientMsgId';
import { leaverOf, skipsAhead, type PendingMessage } from './messages';
import { fetchChanges, watchMessageActions } from './messageActionsSaga';
import { roomEventChannel, type RoomEvent } from './roomEvents';
import { sendTyping, watchRoomEventsTopic } from './roomEventsTopic';
import {
  activityChanged,
  aroundLoaded,
  attachmentUploaded,
  caughtUp,
  focused,
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
  resendRequested,
  roomClosed,
  roomOpened,
  sendAttempted,
  sendTimedOut,
  unsentRestored,
  selectNewestMessageId,
  selectNewestSeq,
  selectHasOlder,
  selectOldestMessageId,
  selectPending,
  selectRoomActive,
  selectReplyTo,
  subscribed,
  typingNoticed,
} from './roomSlice';
import { isWindowActive, windowActivityChannel } from '../../services/windowActivity';

interface Session {
  chatRoomId: number;
  userId: number;
  /** Open around this seq (a search result) instead of at the newest messages. */
  aroundSeq?: number;
}

/** A reconnect after a long outage fetches at most this many pages; older gaps load by scrolling. */
const MAX_CATCH_UP_PAGES = 50;

/** A send not confirmed (echoed back) within this time shows as failed, with resend and delete. */
export const SEND_TIMEOUT_MS = 10_000;

/**
 * The first history page waits this long for the room's subscription: read after the
 * subscription is active, page 0 leaves no gap, so it is fetched once. Past it (no connection),
 * history loads anyway and the catch-up after the subscription closes the gap.
 */
export const FIRST_SUBSCRIPTION_WAIT_MS = 2000;
/**
 * How often at most the room tells the server how far the user has read: the first read goes at
 * once, then the newest of each following second. The server marks a member looking at the room
 * read as each message is published already; this is for what it cannot see (another node's
 * tracker, a gap filled), and a busy room must not cost a frame per message per reader.
 */
export const READ_INTERVAL_MS = 1000;

function* publish(destination: string, payload: unknown): SagaIterator<boolean> {
  const stomp = yield* service('stomp');
  return (yield call([stomp, stomp.publish], destination, payload)) as boolean;
}

function* publishPresence({ chatRoomId, userId }: Session, active: boolean): SagaIterator {
  yield call(publish, active ? app.userActive : app.userInactive, { chatRoomId, userId });
}

function* sendPending({ chatRoomId, userId }: Session, pending: PendingMessage): SagaIterator {
  yield put(sendAttempted(pending.clientMsgId));
  // Not connected: the send times out as failed and goes out again on the next subscription.
  const reply = pending.replyTo ? { replyToMessageId: pending.replyTo.messageId } : {};
  const attachment = pending.attachment ? { attachmentId: pending.attachment.attachmentId } : {};
  yield call(publish, app.privateMessage, { chatRoomId, senderId: userId, content: pending.content, clientMsgId: pending.clientMsgId, ...reply, ...attachment });
}

/** Every pending message again, in the order they were written (the server keeps a clientMsgId once). */
function* resendAll(session: Session): SagaIterator {
  const pending: PendingMessage[] = yield select(selectPending);
  for (const p of pending) yield call(sendPending, session, p);
}

function* expireSend(clientMsgId: string, attempt: number): SagaIterator {
  yield delay(SEND_TIMEOUT_MS);
  yield put(sendTimedOut({ clientMsgId, attempt }));
}

/** Each send gets its timeout; the timers end with the session. */
function* watchSendTimeouts(): SagaIterator {
  for (;;) {
    const { payload: clientMsgId }: PayloadAction<string> = yield take(sendAttempted.type);
    const pending: PendingMessage[] = yield select(selectPending);
    const sent = pending.find((p) => p.clientMsgId === clientMsgId);
    if (sent) yield fork(expireSend, clientMsgId, sent.attempt ?? 0);
  }
}

/** Keeps the room's unconfirmed sends in local storage, so a reload does not lose them. */
function* persistUnsent(session: Session): SagaIterator {
  const unsent = yield* service('unsent');
  let last: PendingMessage[] = yield select(selectPending);
  yield call([unsent, unsent.write], session.userId, session.chatRoomId, last);
  for (;;) {
    yield take('*');
    const now: PendingMessage[] = yield select(selectPending);
    if (now === last) continue;
    last = now;
    yield call([unsent, unsent.write], session.userId, session.chatRoomId, now);
  }
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
  if (first) yield put(caughtUp({ chatRoomName: first.chatRoomName, renamed: first.renamed, users: first.users, messages: found }));
}

/** The messages after a seq, page by page while the server says more follow. */
function* fetchAfter(session: Session, afterSeq: number): SagaIterator {
  const http = yield* service('http');
  let from = afterSeq;
  for (let i = 0; i < MAX_CATCH_UP_PAGES; i += 1) {
    const page: ChatHistoryResponse = yield call([http, http.get], api.chatHistory, { chatRoomId: session.chatRoomId, afterSeq: from });
    yield put(caughtUp({ chatRoomName: page.chatRoomName, renamed: page.renamed, users: page.users, messages: page.messages }));
    const last = page.messages.at(-1)?.seq;
    if (!page.hasMore || last === undefined) return;
    from = last;
  }
}

/**
 * Opens the room around a seq (a search result, issue 13): the page about it, then everything
 * newer (afterSeq), so the list stays whole from there to the newest message; then the list
 * scrolls to it.
 */
function* openAround(session: Session, aroundSeq: number): SagaIterator {
  const http = yield* service('http');
  const page: ChatHistoryResponse = yield call([http, http.get], api.chatHistory, { chatRoomId: session.chatRoomId, aroundSeq });
  yield put(aroundLoaded(page));
  const last = page.messages.at(-1)?.seq;
  if (page.hasMore && last !== undefined) yield call(fetchAfter, session, last);
  const target = page.messages.find((m) => m.seq === aroundSeq);
  if (target) yield put(focused(target.messageId));
}

/** The user has read the room up to this message (they are looking at it): queued for sendReads. */
function* noteRead(session: Session, message: ChatMessage, reads: Channel<number>): SagaIterator {
  const active: boolean = yield select(selectRoomActive);
  if (active && message.seq && message.senderId !== session.userId) yield put(reads, message.seq);
}

/** Tells the server how far the user has read: at once, then at most once every READ_INTERVAL_MS, the newest seq. */
function* sendReads(session: Session, reads: Channel<number>): SagaIterator {
  let sent = 0;
  for (;;) {
    let newest: number = yield take(reads);
    for (;;) {
      if (newest > sent) {
        yield call(publish, app.read, { chatRoomId: session.chatRoomId, seq: newest });
        sent = newest;
      }
      yield delay(READ_INTERVAL_MS);
      const more: number[] = yield flush(reads);
      if (more.length === 0) break;
      newest = Math.max(...more);
    }
  }
}

/** Returns when the user is no longer in the room (they left, from here or another device). */
function* watchRoomEvents(session: Session, events: EventChannel<RoomEvent>, reads: Channel<number>): SagaIterator {
  const logError = yield* service('logError');
  for (;;) {
    const event: RoomEvent = yield take(events);
    if (event.type === 'disconnected') {
      yield put(disconnected());
    } else if (event.type === 'subscribed') {
      yield call(announceSubscribed, session);
      try {
        yield call(catchUp, session);
        // Edits, deletions and reactions made while away (issue 13).
        yield call(fetchChanges, session);
      } catch (error) {
        if (isHttpStatus(error, 403)) return;
        yield call(logError, 'room: catch up', error);
      }
      // Safe to repeat: the server stores a clientMsgId once and echoes it again.
      yield call(resendAll, session);
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
      yield call(noteRead, session, message, reads);
    }
  }
}

/**
 * Typed messages and uploads the server holds (issue 13) become pending sends alike: sent with a
 * clientMsgId, failed after the timeout, kept in storage, sent again on every new subscription
 * (so an upload that finished offline goes out when the connection returns).
 */
function* watchSends(session: Session): SagaIterator {
  for (;;) {
    const action: PayloadAction<unknown> = yield take([messageSubmitted.type, resendRequested.type, attachmentUploaded.type]);
    if (resendRequested.match(action)) {
      const pending: PendingMessage[] = yield select(selectPending);
      const failed = pending.find((p) => p.clientMsgId === action.payload && p.failed);
      if (failed) yield call(sendPending, session, failed);
      continue;
    }
    const replyTo: ReturnType<typeof selectReplyTo> = yield select(selectReplyTo);
    const quote = replyTo ? { replyTo } : {};
    let pending: PendingMessage;
    if (attachmentUploaded.match(action)) {
      const { chatRoomId, attachment } = action.payload;
      pending = { clientMsgId: newClientMsgId(), content: '', createdAt: new Date().toISOString(), attachment };
      if (chatRoomId !== session.chatRoomId) {
        // Another room's upload (its screen closed meanwhile): kept with that room's unsent
        // messages, it goes out when that room is next open.
        const unsent = yield* service('unsent');
        const held: PendingMessage[] = yield call([unsent, unsent.read], session.userId, chatRoomId);
        yield call([unsent, unsent.write], session.userId, chatRoomId, [...held, pending]);
        continue;
      }
      pending = { ...pending, ...quote };
    } else {
      if (!messageSubmitted.match(action) || !isSendableMessage(action.payload)) continue;
      pending = { clientMsgId: newClientMsgId(), content: action.payload.trim(), createdAt: new Date().toISOString(), ...quote };
    }
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
    const hasOlder: boolean = yield select(selectHasOlder);
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

type FirstEvent = 'subscribed' | 'timeout' | 'left';

/**
 * Until the first subscription (or FIRST_SUBSCRIPTION_WAIT_MS): what arrives meanwhile is
 * applied; 'left' when the user was taken out of the room in the meantime.
 */
function* awaitFirstSubscription(session: Session, events: EventChannel<RoomEvent>): SagaIterator<FirstEvent> {
  const deadline = Date.now() + FIRST_SUBSCRIPTION_WAIT_MS;
  for (;;) {
    const { event }: { event?: RoomEvent } = yield race({ event: take(events), timeout: delay(Math.max(0, deadline - Date.now())) });
    if (!event) return 'timeout';
    if (event.type === 'subscribed') return 'subscribed';
    if (event.type === 'disconnected') {
      yield put(disconnected());
      continue;
    }
    yield put(messageReceived(event.message));
    if (leaverOf(event.message) === session.userId) return 'left';
  }
}

/** Joins a live subscription: presence again (the server forgets it with the connection). */
function* announceSubscribed(session: Session): SagaIterator {
  yield put(subscribed());
  const active: boolean = yield select(selectRoomActive);
  yield call(publishPresence, session, active);
}

export function* roomSession(session: Session): SagaIterator {
  const http = yield* service('http');
  const stomp = yield* service('stomp');
  const navigate = yield* service('navigate');
  const logError = yield* service('logError');
  const unsent = yield* service('unsent');
  // Subscribe before loading history: whatever is published in between arrives on the channel
  // (and a catch-up after a later subscription closes any remaining gap).
  const events: EventChannel<RoomEvent> = yield call(roomEventChannel, stomp, session.chatRoomId);
  const activity: EventChannel<boolean> = yield call(windowActivityChannel);
  const reads: Channel<number> = yield call(channel, buffers.expanding<number>(16));
  try {
    yield put(activityChanged(isWindowActive()));
    // Sends left unconfirmed by an earlier visit show as failed until they go out again.
    const restored: PendingMessage[] = yield call([unsent, unsent.read], session.userId, session.chatRoomId);
    if (restored.length > 0) yield put(unsentRestored(restored));
    const first: FirstEvent = yield call(awaitFirstSubscription, session, events);
    if (first === 'left') {
      yield call(navigate, paths.chatList, { replace: true });
      return;
    }
    if (first === 'subscribed') yield call(announceSubscribed, session);
    try {
      if (session.aroundSeq !== undefined) yield call(openAround, session, session.aroundSeq);
      else yield put(historyLoaded((yield call([http, http.get], api.chatHistory, { chatRoomId: session.chatRoomId, page: 0 })) as ChatHistoryResponse));
    } catch (error) {
      // SPEC.md §8: a chat history failure goes to the chat list.
      yield call(logError, 'room: chat history', error);
      yield call(navigate, paths.chatList, { replace: true });
      return;
    }
    if (first === 'subscribed') yield call(resendAll, session);
    const { left, leaveDone } = yield race({
      timeouts: call(watchSendTimeouts),
      persist: call(persistUnsent, session),
      left: call(watchRoomEvents, session, events, reads),
      reads: call(sendReads, session, reads),
      leaveDone: call(watchLeave, session),
      sends: call(watchSends, session),
      presence: call(watchPresence, session, activity),
      older: call(watchOlder, session),
      rename: call(watchRename, session),
      notification: call(watchNotification, session),
      roomEvents: call(watchRoomEventsTopic, session.chatRoomId, session.userId),
      typing: call(sendTyping, session.chatRoomId, typingNoticed),
      messageActions: call(watchMessageActions, session),
    });
    // Only the leave paths end the race by themselves. Nothing is left to send in a room left.
    if (left !== undefined || leaveDone !== undefined) yield call([unsent, unsent.write], session.userId, session.chatRoomId, []);
    yield call(navigate, paths.chatList, { replace: true });
  } finally {
    events.close();
    activity.close();
    reads.close();
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
