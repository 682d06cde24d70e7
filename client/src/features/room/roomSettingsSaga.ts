// The member's own settings of the open room (ours, issue 26): muted and pinned, read from the
// chat list's row of the room (the API has no per-room read). Changes go through PATCH
// /api/chat-room/settings (roomRequests.ts changeSettings, run by the room's commands).
import { call, put, type SagaGenerator } from 'typed-redux-saga';
import { api, type ChatSummary } from '@common/api';
import { service } from '../../kernel/sagaContext';
import { settingsLoaded, type RoomOpening } from './roomSlice';

export function* loadRoomSettings(session: RoomOpening): SagaGenerator<void> {
  const http = yield* service('http');
  try {
    const chats = yield* call([http, http.get<ChatSummary[]>], api.chats);
    const row = chats.find((chat) => chat.chatRoomId === session.chatRoomId);
    if (row) yield* put(settingsLoaded({ muted: row.muted === true, pinned: row.pinned === true }));
  } catch (error) {
    const logError = yield* service('logError');
    yield* call(logError, 'room: settings', error);
  }
}
