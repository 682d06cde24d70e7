// The room topic while the room is open (docs/protocol.md /topic/private-chat/{id}): every
// message in order with none missing (a seq that skips ahead fills the gap first), the
// connection's state, and after every (re)subscription presence again, the catch-up, the
// changes made while away and the outbox sent again; the same catch-up when the server asks.
import type { Channel, EventChannel } from 'redux-saga';
import { call, delay, put, race, select, take, type SagaGenerator } from 'typed-redux-saga';
import { service } from '../../kernel/sagaContext';
import { isHttpStatus } from '../../services/http';
import { leaverOf, skipsAhead } from './messages';
import { fetchChanges } from './messageActionsSaga';
import type { RoomEvent } from './roomEvents';
import { catchUp, fetchAfter } from './roomHistorySaga';
import { resendAll } from './roomOutboxSaga';
import { noteRead, publishPresence } from './roomReadsSaga';
import { disconnected, messageReceived, roomResyncRequested, selectNewestSeq, selectRoomActive, subscribed, type RoomOpening } from './roomSlice';

/**
 * A catch-up the server asks for (`resync`) starts after a random delay below this: every client
 * of every node is asked at the same moment, and their requests then spread over it instead of
 * arriving at once (docs/operations.md "Reconnecting").
 */
export const RESYNC_JITTER_MS = 500;

/**
 * The first history page waits this long for the room's subscription: read after the
 * subscription is active, page 0 leaves no gap, so it is fetched once. Past it (no connection),
 * history loads anyway and the catch-up after the subscription closes the gap.
 */
export const FIRST_SUBSCRIPTION_WAIT_MS = 2000;

export type FirstEvent = 'subscribed' | 'timeout' | 'left';

/**
 * Until the first subscription (or FIRST_SUBSCRIPTION_WAIT_MS): what arrives meanwhile is
 * applied; 'left' when the user was taken out of the room in the meantime.
 */
export function* awaitFirstSubscription(session: RoomOpening, events: EventChannel<RoomEvent>): SagaGenerator<FirstEvent> {
  const deadline = Date.now() + FIRST_SUBSCRIPTION_WAIT_MS;
  for (;;) {
    const { event } = yield* race({ event: take(events), timeout: delay(Math.max(0, deadline - Date.now())) });
    if (!event) return 'timeout';
    if (event.type === 'subscribed') return 'subscribed';
    if (event.type === 'disconnected') {
      yield* put(disconnected());
      continue;
    }
    yield* put(messageReceived(event.message));
    if (leaverOf(event.message) === session.userId) return 'left';
  }
}

/** Joins a live subscription: presence again (the server forgets it with the connection). */
export function* announceSubscribed(session: RoomOpening): SagaGenerator<void> {
  yield* put(subscribed());
  const active = yield* select(selectRoomActive);
  yield* call(publishPresence, session, active);
}

/** Returns when the user is no longer in the room (they left, from here or another device). */
export function* followRoomTopic(session: RoomOpening, events: EventChannel<RoomEvent>, reads: Channel<number>): SagaGenerator<void> {
  const logError = yield* service('logError');
  for (;;) {
    const { event } = yield* race({
      event: take(events),
      resync: take((action: unknown) => roomResyncRequested.match(action) && action.payload.chatRoomId === session.chatRoomId),
    });
    if (!event) {
      // The server's bus was down: messages and changes may not have reached us. The same
      // catch-up as after a reconnect; nothing to send again (the connection never dropped).
      yield* delay(Math.random() * RESYNC_JITTER_MS);
      try {
        yield* call(catchUp, session);
        yield* call(fetchChanges, session);
      } catch (error) {
        if (isHttpStatus(error, 403)) return;
        yield* call(logError, 'room: catch up after resync', error);
      }
    } else if (event.type === 'disconnected') {
      yield* put(disconnected());
    } else if (event.type === 'subscribed') {
      yield* call(announceSubscribed, session);
      try {
        yield* call(catchUp, session);
        // Edits, deletions and reactions made while away.
        yield* call(fetchChanges, session);
      } catch (error) {
        if (isHttpStatus(error, 403)) return;
        yield* call(logError, 'room: catch up', error);
      }
      // Safe to repeat: the server stores a clientMsgId once and echoes it again.
      yield* call(resendAll, session);
    } else {
      const message = event.message;
      // A seq that skips ahead means messages in between have not reached us: fetch them first,
      // so none is ever silently missing between two we hold.
      const newest = yield* select(selectNewestSeq);
      if (newest !== null && skipsAhead(newest, message)) {
        try {
          yield* call(fetchAfter, session, newest);
        } catch (error) {
          yield* call(logError, 'room: filling a gap', error);
        }
      }
      yield* put(messageReceived(message));
      if (leaverOf(message) === session.userId) return;
      yield* call(noteRead, session, message, reads);
    }
  }
}
