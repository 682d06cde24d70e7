// The room-events topic (docs/protocol.md /topic/chat-room-events/{id}) while a room is open:
// read positions, typing, presence, edits, deletions, reactions and link previews, and the server's request to
// catch up after its cluster bus was down. Decoded through common/
// before they reach a slice; events of types this client does not know are ignored.
import { buffers, eventChannel, type EventChannel } from 'redux-saga';
import { fork, put, select, take, type SagaGenerator } from 'typed-redux-saga';
import { topics } from '@common/destinations';
import { decodeRoomEvent } from '@common/events';
import type { RoomEvent } from '@common/payloads';
import type { StompService } from '../../services/stomp';
import { presenceChanged, typingSeen } from './liveSlice';
import { linkPreviewArrived, messageDeleted, messageDeletedInRoom, messageEdited, messagesHidden, noticeChanged, reactionChanged, roomResyncRequested, selectMessageSeq } from './roomSlice';
import { readEventReceived } from './readsSlice';
import { expireTyping } from './roomTypingSaga';

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

/**
 * Never returns by itself: runs while the room session does (its forks end with it). The session
 * subscribed the channel before loading history, so what changed meanwhile (a link preview just
 * fetched, an edit, a reaction) waits in it; each is idempotent on a message history already shows.
 */
export function* watchRoomEventsTopic(events: EventChannel<RoomEvent>, chatRoomId: number, myId: number): SagaGenerator<void> {
  let token = 0;
  for (;;) {
    const event = yield* take(events);
    if (event.type === 'read') {
      yield* put(readEventReceived({ userId: event.userId, lastReadSeq: event.lastReadSeq }));
    } else if (event.type === 'presence') {
      yield* put(presenceChanged({ userId: event.userId, online: event.online }));
    } else if (event.type === 'typing' && event.userId !== myId) {
      token += 1;
      yield* put(typingSeen({ userId: event.userId, name: event.name, token }));
      yield* fork(expireTyping, event.userId, token);
    } else if (event.type === 'edited') {
      yield* put(messageEdited(event));
    } else if (event.type === 'deleted') {
      yield* put(messageDeleted(event));
      const seq = yield* select(selectMessageSeq, event.messageId);
      if (seq !== undefined) yield* put(messageDeletedInRoom({ chatRoomId, seq }));
    } else if (event.type === 'hidden') {
      // Deleted for me in another tab of this user (only their own subscriptions hear it).
      yield* put(messagesHidden([event.messageId]));
    } else if (event.type === 'reaction') {
      yield* put(reactionChanged(event));
    } else if (event.type === 'linkPreview') {
      yield* put(linkPreviewArrived({ messageId: event.messageId, linkPreview: event.linkPreview }));
    } else if (event.type === 'notice') {
      yield* put(noticeChanged(event.notice));
    } else if (event.type === 'resync') {
      // The room topic's saga catches up (roomLiveSaga.ts followRoomTopic).
      yield* put(roomResyncRequested({ chatRoomId }));
    }
  }
}
