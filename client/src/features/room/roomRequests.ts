// The room's requests made on demand (rename, the e-mail notification, the notice, the member's
// settings): their code is fetched with the first of them (the room-extras chunk), as most
// visits to a room make none. Each failure is logged; what the user must know is told.
import { call, put, type SagaGenerator } from 'typed-redux-saga';
import { api, type NoticeRequest, type RoomNotice, type RoomSettings, type RoomSettingsRequest } from '@common/api';
import { decodeRoomNotice } from '@common/events';
import { isValidRoomName } from '@common/rules';
import { service } from '../../kernel/sagaContext';
import { isHttpStatus } from '../../services/http';
import { ko } from '../../i18n/ko';
import { koRooms } from '../../i18n/koRooms';
import {
  noticeChanged,
  notificationFailed,
  notificationSent,
  renamed,
  roomSettingsChanged,
  settingsLoaded,
  type renameSubmitted,
  type noticeSetRequested,
  type settingsChangeRequested,
  type RoomOpening,
} from './roomSlice';

export function* rename(session: RoomOpening, { payload }: ReturnType<typeof renameSubmitted>): SagaGenerator<void> {
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

export function* sendNotification(session: RoomOpening): SagaGenerator<void> {
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

function* failed(context: string, error: unknown, message: string): SagaGenerator<void> {
  const logError = yield* service('logError');
  const alert = yield* service('alert');
  yield* call(logError, context, error);
  yield* call(alert, message);
}

export function* setNotice(session: RoomOpening, { payload: messageId }: ReturnType<typeof noticeSetRequested>): SagaGenerator<void> {
  const http = yield* service('http');
  const body: NoticeRequest = { chatRoomId: session.chatRoomId, messageId };
  try {
    const notice = decodeRoomNotice(yield* call([http, http.put<RoomNotice>], api.roomNotice, body));
    if (notice) yield* put(noticeChanged(notice));
  } catch (error) {
    yield* failed('room: set notice', error, isHttpStatus(error, 404) ? koRooms.notice.gone : koRooms.notice.failed);
  }
}

export function* removeNotice(session: RoomOpening): SagaGenerator<void> {
  const http = yield* service('http');
  try {
    yield* call([http, http.delete], api.roomNotice, { chatRoomId: session.chatRoomId });
    yield* put(noticeChanged(null));
  } catch (error) {
    yield* failed('room: remove notice', error, koRooms.notice.failed);
  }
}

export function* changeSettings(session: RoomOpening, { payload }: ReturnType<typeof settingsChangeRequested>): SagaGenerator<void> {
  const http = yield* service('http');
  const body: RoomSettingsRequest = { chatRoomId: session.chatRoomId, ...payload };
  try {
    const settings = yield* call([http, http.patch<RoomSettings>], api.roomSettings, body);
    yield* put(settingsLoaded({ muted: settings.muted, pinned: settings.pinned }));
    yield* put(roomSettingsChanged(settings));
  } catch (error) {
    yield* failed('room: change settings', error, koRooms.roomSettings.failed);
  }
}
