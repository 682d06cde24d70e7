// The room session (docs/spec.md §2 Chat room, §4; docs/architecture.md §6): while a room is
// open, subscribe to its topics, keep the message list complete and in order, send with a
// clientMsgId until the echo arrives, report presence and reads, page older history, and run the
// room's commands. Each concern is a saga of its own file, forked here; closing the room cancels
// the session and every one of them with it, and the finally blocks unsubscribe.
import { buffers, channel, type Channel, type EventChannel } from 'redux-saga';
import { call, cancelled, fork, put, race, take, type SagaGenerator } from 'typed-redux-saga';
import type { RoomEvent as RoomChange } from '@common/payloads';
import { paths } from '../../kernel/paths';
import { service } from '../../kernel/sagaContext';
import { watchMessageActions } from './messageActionsSaga';
import { leaveRoom, roomCommandsSaga } from './roomCommandsSaga';
import { roomEventChannel } from './roomEvents';
import { roomEventsTopicChannel, watchRoomEventsTopic } from './roomEventsTopic';
import { loadFirstPage, olderPagesSaga } from './roomHistorySaga';
import { announceSubscribed, awaitFirstSubscription, followRoomTopic } from './roomLiveSaga';
import { outboxSaga, resendAll, sendRequests, type SendRequest } from './roomOutboxSaga';
import { publishPresence, readsSaga } from './roomReadsSaga';
import { activityChanged, roomClosed, roomOpened, unsentRestored, type RoomOpening } from './roomSlice';
import { loadRoomSettings } from './roomSettingsSaga';
import { passOnSaga } from './passOnSaga';
import { sendTyping } from './roomTypingSaga';
import { isWindowActive, windowActivityChannel } from '../../services/windowActivity';

/** Every concern that lasts as long as the room session, each in a task of its own. */
function* roomConcerns(session: RoomOpening, changes: EventChannel<RoomChange>, activity: EventChannel<boolean>, reads: Channel<number>, sends: Channel<SendRequest>): SagaGenerator<void> {
  yield* fork(outboxSaga, session, sends);
  yield* fork(readsSaga, session, activity, reads);
  yield* fork(olderPagesSaga, session);
  yield* fork(roomCommandsSaga, session);
  yield* fork(watchRoomEventsTopic, changes, session.chatRoomId, session.userId);
  yield* fork(sendTyping, session.chatRoomId);
  yield* fork(watchMessageActions, session);
  yield* fork(loadRoomSettings, session);
  yield* fork(passOnSaga, session);
}

export function* roomSession(session: RoomOpening): SagaGenerator<void> {
  const stomp = yield* service('stomp');
  const navigate = yield* service('navigate');
  const logError = yield* service('logError');
  const unsent = yield* service('unsent');
  // Subscribe before loading history: whatever is published in between arrives on the channels
  // (and a catch-up after a later subscription closes any remaining gap). The room-events topic
  // first: its SUBSCRIBE is then handled before the room topic's, whose confirmation history waits for.
  const changes = yield* call(roomEventsTopicChannel, stomp, session.chatRoomId);
  const events = yield* call(roomEventChannel, stomp, session.chatRoomId);
  const activity = yield* call(windowActivityChannel);
  const reads = yield* call(channel<number>, buffers.expanding<number>(16));
  // Sends asked for while the first page loads go out once the room is open.
  const sends = yield* sendRequests();
  try {
    yield* put(activityChanged(isWindowActive()));
    // Sends left unconfirmed by an earlier visit show as failed until they go out again.
    const restored = yield* call([unsent, unsent.read], session.userId, session.chatRoomId);
    if (restored.length > 0) yield* put(unsentRestored(restored));
    const first = yield* call(awaitFirstSubscription, session, events);
    if (first === 'left') {
      yield* call(navigate, paths.chatList, { replace: true });
      return;
    }
    if (first === 'subscribed') yield* call(announceSubscribed, session);
    try {
      yield* loadFirstPage(session);
    } catch (error) {
      // docs/spec.md §8: a chat history failure goes to the chat list.
      yield* call(logError, 'room: chat history', error);
      yield* call(navigate, paths.chatList, { replace: true });
      return;
    }
    if (first === 'subscribed') yield* call(resendAll, session);
    // The session ends by itself only when the user is no longer in the room: taken out (seen on
    // the room topic, from another device too) or left from here. The concerns never end by
    // themselves: the race cancels them then, as closing the room does.
    const [, left, leaveDone] = yield* race([call(roomConcerns, session, changes, activity, reads, sends), call(followRoomTopic, session, events, reads), call(leaveRoom, session)]);
    // Nothing is left to send in a room left.
    if (left !== undefined || leaveDone !== undefined) yield* call([unsent, unsent.write], session.userId, session.chatRoomId, []);
    yield* call(navigate, paths.chatList, { replace: true });
  } finally {
    changes.close();
    events.close();
    activity.close();
    reads.close();
    sends.close();
    // Freeze the read marker once the user is no longer looking at this room.
    if (yield* cancelled()) yield* call(publishPresence, session, false);
  }
}

/** One room at a time: an open starts a session, a close (or the next open) cancels it. */
export function* roomSaga(): SagaGenerator<void> {
  let next = yield* take(roomOpened);
  for (;;) {
    const { reopened } = yield* race({
      session: call(roomSession, next.payload),
      closed: take(roomClosed),
      reopened: take(roomOpened),
    });
    next = reopened ?? (yield* take(roomOpened));
  }
}
