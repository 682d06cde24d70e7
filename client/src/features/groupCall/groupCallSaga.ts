// Group calls while a signed-in screen is open (issue 25): the ring of a call started in one of
// the user's rooms, and the call on in the room open now (GET api.groupCall once, then the room's
// events topic). Joining or starting one loads the call itself (activeGroupCall.ts, chunk
// `group-call`), so no screen carries its WebRTC code before the first group call.
import { buffers, eventChannel, type EventChannel } from 'redux-saga';
import type { Task } from 'redux-saga';
import { call, cancel, fork, put, select, take, takeLeading, type SagaGenerator } from 'typed-redux-saga';
import { api } from '@common/api';
import { queues, topics } from '@common/destinations';
import { decodeGroupCallNews, decodeGroupIncoming } from '@common/group-call-events';
import type { GroupIncomingEvent } from '@common/group-call';
import { service } from '../../kernel/sagaContext';
import type { StompService } from '../../services/stomp';
import { groupCallKey } from './groupCallMemory';
import { groupCallActions, selectGroupCall, type JoinRequest } from './groupCallSlice';

const loadActiveGroupCall = () => import(/* webpackChunkName: "group-call" */ './activeGroupCall');

type News = ReturnType<typeof decodeGroupCallNews>;

function ringChannel(stomp: StompService, me: number): EventChannel<GroupIncomingEvent> {
  return eventChannel<GroupIncomingEvent>(
    (emit) =>
      stomp.subscribe(queues.call('group-incoming', me), {
        message: (body) => {
          const ring = decodeGroupIncoming(body);
          if (ring) emit(ring);
        },
      }),
    buffers.sliding<GroupIncomingEvent>(8),
  );
}

function roomNewsChannel(stomp: StompService, chatRoomId: number): EventChannel<NonNullable<News>> {
  return eventChannel<NonNullable<News>>(
    (emit) =>
      stomp.subscribe(topics.chatRoomEvents(chatRoomId), {
        message: (body) => {
          const news = decodeGroupCallNews(body, chatRoomId);
          if (news) emit(news);
        },
      }),
    buffers.sliding<NonNullable<News>>(16),
  );
}

function* tell(chatRoomId: number, news: NonNullable<News>): SagaGenerator<void> {
  if ('on' in news) yield* put(groupCallActions.stateReceived(news.on));
  else yield* put(groupCallActions.callOff({ chatRoomId, callId: news.off }));
}

function* watchRings(me: number): SagaGenerator<void> {
  const stomp = yield* service('stomp');
  const rings = yield* call(ringChannel, stomp, me);
  try {
    for (;;) yield* put(groupCallActions.incomingReceived(yield* take(rings)));
  } finally {
    rings.close();
  }
}

/** The watched room's call: its state now, then every change, until the room leaves the screen. */
function* followRoom(chatRoomId: number): SagaGenerator<void> {
  const stomp = yield* service('stomp');
  const news = yield* call(roomNewsChannel, stomp, chatRoomId);
  try {
    const http = yield* service('http');
    try {
      const now = decodeGroupCallNews(yield* call([http, http.get<unknown>], api.groupCall, { chatRoomId }), chatRoomId);
      if (now) yield* tell(chatRoomId, now);
    } catch (error) {
      // A server without group calls, or a blip: the topic still brings the next change.
      const logError = yield* service('logError');
      yield* call(logError, 'group call state', error);
    }
    for (;;) yield* tell(chatRoomId, yield* take(news));
  } finally {
    news.close();
  }
}

function* joinCall(me: number, request: JoinRequest): SagaGenerator<void> {
  try {
    const active = yield* call(loadActiveGroupCall);
    yield* call(active.runGroupCall, me, request);
  } catch (error) {
    const logError = yield* service('logError');
    yield* call(logError, 'group call code not loaded', error);
    yield* put(groupCallActions.left({}));
  }
}

/** Follows the call of the room on screen: the one watched already (its banner may have mounted
 *  before this listener started), then each one watched, none once it leaves the screen. */
function* followWatchedRooms(): SagaGenerator<void> {
  let followedRoomId: number | null = null;
  let task: Task | null = null;
  for (;;) {
    const watched = (yield* select(selectGroupCall)).watchedRoomId;
    if (watched !== followedRoomId) {
      if (task) yield* cancel(task);
      task = watched !== null ? yield* fork(followRoom, watched) : null;
      followedRoomId = watched;
    }
    yield* take([groupCallActions.roomWatched.type, groupCallActions.roomUnwatched.type]);
  }
}

/** The page was reloaded in a call (this tab kept it, groupCallMemory.ts): join it again if it is still on with us in it. */
function* rejoin(me: number): SagaGenerator<void> {
  try {
    const active = yield* call(loadActiveGroupCall);
    const request = yield* call(active.rejoinAfterReload, me);
    if (request) yield* put(groupCallActions.joinRequested(request));
  } catch (error) {
    const logError = yield* service('logError');
    yield* call(logError, 'group call rejoin', error);
  }
}

function* listen(me: number): SagaGenerator<void> {
  yield* fork(watchRings, me);
  yield* fork(followWatchedRooms);
  yield* takeLeading(groupCallActions.joinRequested, function* ({ payload }) {
    yield* call(joinCall, me, payload);
  });
  // Only a tab that kept a call loads the call's chunk for it.
  const tab = yield* service('groupCallStorage');
  let kept = false;
  try {
    kept = tab.getItem(groupCallKey(me)) !== null;
  } catch {
    /* storage turned off: nothing was kept */
  }
  if (kept) yield* fork(rejoin, me);
}

export function* groupCallSaga(): SagaGenerator<void> {
  for (;;) {
    const { payload } = yield* take(groupCallActions.listenRequested);
    const listener = yield* fork(listen, payload.userId);
    yield* take(groupCallActions.listenStopped);
    yield* cancel(listener);
  }
}
