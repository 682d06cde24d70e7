// The room-events topic (issue 11; docs/protocol.md /topic/chat-room-events/{id}) while a room is
// open: read positions, typing, presence, and (issue 13) edits, deletions and reactions. Decoded through common/ before they reach a slice;
// events of types this client does not know are ignored.
import { buffers, eventChannel, type EventChannel, type SagaIterator } from 'redux-saga';
import { call, delay, fork, put, select, take } from 'redux-saga/effects';
import { LIMITS } from '@common/rules';
import { api, type Preferences } from '@common/api';
import { app, topics } from '@common/destinations';
import { decodeRoomEvent } from '@common/events';
import type { RoomEvent } from '@common/payloads';
import { service } from '../../kernel/sagaContext';
import type { StompService } from '../../services/stomp';
import { presenceChanged, typingExpired, typingSeen } from './liveSlice';
import { messageDeleted, messageDeletedInRoom, messageEdited, reactionChanged, selectMessageSeq } from './roomSlice';
import { readEventReceived } from './readsSlice';

/**
 * Read events are coalesced by the server (one a second per member): a sliding buffer of a few
 * hundred loses nothing in practice, and a busy saga cannot grow it without bound. What is lost
 * in a reconnect comes back with the catch-up's lastReadSeq.
 */
export function roomEventsTopicChannel(stomp: StompService, chatRoomId: number): EventChannel<RoomEvent> {
  return eventChannel<RoomEvent>(
    (emit) =>
      stomp.subscribe(topics.chatRoomEvents(chatRoomId), {
        message: (body) => {
          const event = decodeRoomEvent(body, chatRoomId);
          if (event) emit(event);
        },
      }),
    buffers.sliding<RoomEvent>(256),
  );
}

/** A typing line shows for 5 s after the member's last typing event. */
function* expireTyping(userId: number, token: number): SagaIterator {
  yield delay(LIMITS.typingShownMs);
  yield put(typingExpired({ userId, token }));
}

/** Never returns by itself: runs while the room session does (its forks end with it). */
export function* watchRoomEventsTopic(chatRoomId: number, myId: number): SagaIterator {
  const stomp = yield* service('stomp');
  const events: EventChannel<RoomEvent> = yield call(roomEventsTopicChannel, stomp, chatRoomId);
  let token = 0;
  try {
    for (;;) {
      const event: RoomEvent = yield take(events);
      if (event.type === 'read') {
        yield put(readEventReceived({ userId: event.userId, lastReadSeq: event.lastReadSeq }));
      } else if (event.type === 'presence') {
        yield put(presenceChanged({ userId: event.userId, online: event.online }));
      } else if (event.type === 'typing' && event.userId !== myId) {
        token += 1;
        yield put(typingSeen({ userId: event.userId, name: event.name, token }));
        yield fork(expireTyping, event.userId, token);
      } else if (event.type === 'edited') {
        yield put(messageEdited(event));
      } else if (event.type === 'deleted') {
        yield put(messageDeleted(event));
        const seq: number | undefined = yield select(selectMessageSeq, event.messageId);
        if (seq !== undefined) yield put(messageDeletedInRoom({ chatRoomId, seq }));
      } else if (event.type === 'reaction') {
        yield put(reactionChanged(event));
      }
    }
  } finally {
    events.close();
  }
}

/**
 * Tells the room the user is typing: at most once every 2 s (the server drops more anyway),
 * and not at all when the user turned it off in the settings.
 */
export function* sendTyping(chatRoomId: number, typed: { type: string }): SagaIterator {
  const http = yield* service('http');
  const stomp = yield* service('stomp');
  let enabled = true;
  try {
    enabled = ((yield call([http, http.get], api.preferences)) as Preferences).sendTyping;
  } catch {
    // Unknown: the server checks the preference too.
  }
  // Runs as long as the room session: with typing off it only swallows the notices.
  for (;;) {
    yield take(typed.type);
    if (!enabled) continue;
    yield call([stomp, stomp.publish], app.typing, { chatRoomId });
    yield delay(LIMITS.typingIntervalMs);
  }
}
