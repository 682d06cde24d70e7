// The open room's commands (docs/spec.md §2 Chat room, §8): rename, leave, and the e-mail
// notification to the other members; ours: the notice and the member's settings (issue 26).
// Each runs one request at a time (roomRequests.ts, fetched on demand).
import { call, take, takeLatest, takeLeading, type SagaGenerator } from 'typed-redux-saga';
import { api } from '@common/api';
import { isValidRoomName } from '@common/rules';
import { service } from '../../kernel/sagaContext';
import {
  leaveConfirmed,
  noticeRemoveRequested,
  noticeSetRequested,
  notificationConfirmed,
  renameSubmitted,
  settingsChangeRequested,
  type RoomOpening,
} from './roomSlice';

const loadRequests = () => import(/* webpackChunkName: "room-extras" */ './roomRequests');

type RequestName = 'rename' | 'sendNotification' | 'setNotice' | 'removeNotice' | 'changeSettings';

/** Runs one of the on-demand requests, its code fetched the first time (then held by the module loader). */
function* onDemand(name: RequestName, session: RoomOpening, action: { type: string }): SagaGenerator<void> {
  let requests: Awaited<ReturnType<typeof loadRequests>>;
  try {
    requests = yield* call(loadRequests);
  } catch (error) {
    const logError = yield* service('logError');
    yield* call(logError, `room: ${name}`, error);
    return;
  }
  // Each request takes the action its pattern matches (the takeLeading/takeLatest below).
  const run = requests[name] as (session: RoomOpening, action: { type: string }) => SagaGenerator<void>;
  yield* call(run, session, action);
}

/** Rename, e-mail notification, notice and settings while the room is open. Ends only with the room session. */
export function* roomCommandsSaga(session: RoomOpening): SagaGenerator<void> {
  // A name never submitted is refused at once, not after fetching the request's code.
  yield* takeLeading(renameSubmitted, function* (action): SagaGenerator<void> {
    if (isValidRoomName(action.payload)) yield* onDemand('rename', session, action);
  });
  yield* takeLeading(notificationConfirmed, (action) => onDemand('sendNotification', session, action));
  yield* takeLeading(noticeSetRequested, (action) => onDemand('setNotice', session, action));
  yield* takeLeading(noticeRemoveRequested, (action) => onDemand('removeNotice', session, action));
  yield* takeLatest(settingsChangeRequested, (action) => onDemand('changeSettings', session, action));
}

/** Returns once the server has taken the user out of the room; a failed leave is only logged (docs/spec.md §8). */
export function* leaveRoom(session: RoomOpening): SagaGenerator<void> {
  const http = yield* service('http');
  const logError = yield* service('logError');
  for (;;) {
    yield* take(leaveConfirmed);
    try {
      yield* call([http, http.delete], api.leaveChat, { chatRoomId: session.chatRoomId });
      return;
    } catch (error) {
      yield* call(logError, 'room: leave', error);
    }
  }
}
