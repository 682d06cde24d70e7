// How far the user has read the open room, and whether they are looking at it (docs/spec.md §4):
// presence (user-active / user-inactive) follows the window's focus and visibility, and the
// newest seq read by a user looking at the room goes to the server in /app/read.
import type { Channel, EventChannel } from 'redux-saga';
import { call, delay, flush, fork, put, select, take, type SagaGenerator } from 'typed-redux-saga';
import type { ChatMessage } from '@common/api';
import { app } from '@common/destinations';
import { publish } from './roomPublish';
import { activityChanged, selectRoomActive, type RoomOpening } from './roomSlice';

/**
 * How often at most the room tells the server how far the user has read: the first read goes at
 * once, then the newest of each following second. The server marks a member looking at the room
 * read as each message is published already; this is for what it cannot see (another node's
 * tracker, a gap filled), and a busy room must not cost a frame per message per reader.
 */
export const READ_INTERVAL_MS = 1000;

export function* publishPresence({ chatRoomId, userId }: RoomOpening, active: boolean): SagaGenerator<void> {
  yield* call(publish, active ? app.userActive : app.userInactive, { chatRoomId, userId });
}

/** The user has read the room up to this message (they are looking at it): queued for sendReads. */
export function* noteRead(session: RoomOpening, message: ChatMessage, reads: Channel<number>): SagaGenerator<void> {
  const active = yield* select(selectRoomActive);
  if (active && message.seq && message.senderId !== session.userId) yield* put(reads, message.seq);
}

/** Tells the server how far the user has read: at once, then at most once every READ_INTERVAL_MS, the newest seq. */
function* sendReads(session: RoomOpening, reads: Channel<number>): SagaGenerator<void> {
  let sent = 0;
  for (;;) {
    let newest = yield* take(reads);
    for (;;) {
      if (newest > sent) {
        yield* call(publish, app.read, { chatRoomId: session.chatRoomId, seq: newest });
        sent = newest;
      }
      yield* delay(READ_INTERVAL_MS);
      const more = yield* flush(reads);
      if (more.length === 0) break;
      newest = Math.max(...more);
    }
  }
}

function* watchPresence(session: RoomOpening, activity: EventChannel<boolean>): SagaGenerator<void> {
  let active = yield* select(selectRoomActive);
  for (;;) {
    const next = yield* take(activity);
    if (next === active) continue;
    active = next;
    yield* put(activityChanged(active));
    yield* call(publishPresence, session, active);
  }
}

/** Reads and presence while the room is open. Ends only with the room session. */
export function* readsSaga(session: RoomOpening, activity: EventChannel<boolean>, reads: Channel<number>): SagaGenerator<void> {
  yield* fork(sendReads, session, reads);
  yield* fork(watchPresence, session, activity);
}
