// Opening 나와의 채팅 (issue 27): made on first use (POST /api/chat-room/self), then opened. In the
// lazy memo-room chunk, fetched when the entry is first used.
import { call, type SagaGenerator } from 'typed-redux-saga';
import { api } from '@common/api';
import { koMemoRoom } from '../../i18n/koMemoRoom';
import { chatRoomPath } from '../../kernel/roomPaths';
import { service } from '../../kernel/sagaContext';

export function* openMemoRoom(): SagaGenerator<void> {
  const http = yield* service('http');
  const navigate = yield* service('navigate');
  try {
    const { chatRoomId } = yield* call([http, http.post<{ chatRoomId: number }>], api.selfRoom);
    yield* call(navigate, chatRoomPath(chatRoomId));
  } catch (error) {
    const logError = yield* service('logError');
    const alert = yield* service('alert');
    yield* call(logError, 'chat list: memo room', error);
    yield* call(alert, koMemoRoom.failed);
  }
}
