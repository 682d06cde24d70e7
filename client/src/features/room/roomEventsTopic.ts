// The room-events topic (issue 11; docs/protocol.md /topic/chat-room-events/{id}) while a room is
// open: read positions, typing, presence. Decoded through common/ before they reach a slice;
// events of types this client does not know are ignored.
import { buffers, eventChannel, type EventChannel, type SagaIterator } from 'redux-saga';
import { call, put, take } from 'redux-saga/effects';
import { topics } from '../../../../common/destinations';
import { decodeRoomEvent } from '../../../../common/events';
import type { RoomEvent } from '../../../../common/payloads';
import { service } from '../../app/sagaContext';
import type { StompService } from '../../services/stomp';
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

/** Never returns by itself: runs while the room session does. */
export function* watchRoomEventsTopic(chatRoomId: number): SagaIterator {
  const stomp = yield* service('stomp');
  const events: EventChannel<RoomEvent> = yield call(roomEventsTopicChannel, stomp, chatRoomId);
  try {
    for (;;) {
      const event: RoomEvent = yield take(events);
      if (event.type === 'read') yield put(readEventReceived({ userId: event.userId, lastReadSeq: event.lastReadSeq }));
    }
  } finally {
    events.close();
  }
}
