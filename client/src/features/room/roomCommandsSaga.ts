// The open room's commands (docs/spec.md §2 Chat room, §8): rename, leave, and the e-mail
// notification to the other members. Each runs one request at a time; a failure is logged, and
// only the notification's is told to the user.
import { call, put, take, takeLeading, type SagaGenerator } from 'typed-redux-saga';
import { api } from '@common/api';
import { isValidRoomName } from '@common/rules';
import { service } from '../../kernel/sagaContext';
import { isHttpStatus } from '../../services/http';
import { ko } from '../../i18n/ko';
import {
  leaveConfirmed,
  notificationConfirmed,
  notificationFailed,
  notificationSent,
  renamed,
  renameSubmitted,
  type RoomOpening,
} from './roomSlice';

function* rename(session: RoomOpening, { payload }: ReturnType<typeof renameSubmitted>): SagaGenerator<void> {
  if (!isValidRoomName(payload)) return;
  const http = yield* service('http');
  const chatRoomName = payload.trim();
  try {
    yield* call([http, http.post], api.updateSubject, { chatRoomId: session.chatRoomId, chatRoomName });
    yield* put(renamed(chatRoomName));
  } catch (error) {
    // docs/spec.md §8: a rename failure is not shown.
    const logError = yield* service('logError');
    yield* call(logError, 'room: rename', error);
  }
}

function* sendNotification(session: RoomOpening): SagaGenerator<void> {
  const http = yield* service('http');
  try {
    yield* call([http, http.post], api.notificationSend, { chatRoomId: session.chatRoomId });
    yield* put(notificationSent());
  } catch (error) {
    const logError = yield* service('logError');
    const alert = yield* service('alert');
    yield* call(logError, 'room: e-mail notification', error);
    yield* put(notificationFailed());
    yield* call(alert, isHttpStatus(error, 429) ? ko.room.notifyLimited : ko.room.notifyFailed);
  }
}

/** Rename and e-mail notification while the room is open. Ends only with the room session. */
export function* roomCommandsSaga(session: RoomOpening): SagaGenerator<void> {
  yield* takeLeading(renameSubmitted, rename, session);
  yield* takeLeading(notificationConfirmed, sendNotification, session);
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
