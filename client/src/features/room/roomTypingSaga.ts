// Typing in the open room (docs/protocol.md /app/typing and the room-events topic): this user's
// typing goes out at most once every LIMITS.typingIntervalMs, and another member's typing line
// shows for LIMITS.typingShownMs after their last typing event.
import { call, delay, put, take, type SagaGenerator } from 'typed-redux-saga';
import { api, type Preferences } from '@common/api';
import { app } from '@common/destinations';
import { LIMITS } from '@common/rules';
import { service } from '../../kernel/sagaContext';
import { typingExpired } from './liveSlice';
import { typingNoticed } from './roomSlice';

/** Hides a member's typing line unless a newer typing event (a higher token) replaced it. */
export function* expireTyping(userId: number, token: number): SagaGenerator<void> {
  yield* delay(LIMITS.typingShownMs);
  yield* put(typingExpired({ userId, token }));
}

/**
 * Tells the room the user is typing: at most once every 2 s (the server drops more anyway),
 * and not at all when the user turned it off in the settings.
 */
export function* sendTyping(chatRoomId: number): SagaGenerator<void> {
  const http = yield* service('http');
  const stomp = yield* service('stomp');
  let enabled = true;
  try {
    enabled = (yield* call([http, http.get<Preferences>], api.preferences)).sendTyping;
  } catch {
    // Unknown: the server checks the preference too.
  }
  // Runs as long as the room session: with typing off it only swallows the notices.
  for (;;) {
    yield* take(typingNoticed);
    if (!enabled) continue;
    yield* call([stomp, stomp.publish], app.typing, { chatRoomId });
    yield* delay(LIMITS.typingIntervalMs);
  }
}
