// Acting on messages in the open room (docs/protocol.md /app/edit-message,
// /app/delete-message, /app/reaction): each action goes out as one SEND; what it changes comes
// back on the room-events topic, for this tab as for everyone else, so the list shows only what
// the server applied. Also: after a reconnect, the changes made while away (changedSince), and
// a quote's jump to its original, loading older pages until it is held.
import { all, call, put, select, take, type SagaGenerator } from 'typed-redux-saga';
import { api, type ChatHistoryResponse } from '@common/api';
import { app } from '@common/destinations';
import { LIMITS, isSendableMessage } from '@common/rules';
import { service } from '../../kernel/sagaContext';
import { ko } from '../../i18n/ko';
import { hasReacted } from './messageChanges';
import {
  changesLoaded,
  deleteConfirmed,
  editSubmitted,
  focused,
  jumpEnded,
  jumpRequested,
  olderLoaded,
  reactionToggled,
  selectHasOlder,
  selectLastChangeSeq,
  selectMessageById,
  selectOldestMessageId,
} from './roomSlice';

interface Session {
  chatRoomId: number;
  userId: number;
}

/** A jump to a quote's original looks back at most this many pages (20 each) before giving up. */
export const MAX_JUMP_PAGES = 50;
/** A reconnect reads at most this many pages of changes (100 each); what is older shows on the next open. */
const MAX_CHANGE_PAGES = 20;

/** Sends one SEND; when the connection is down the user is told, nothing is queued (the action is theirs to repeat). */
function* send(destination: string, payload: unknown): SagaGenerator<void> {
  const stomp = yield* service('stomp');
  const alert = yield* service('alert');
  const sent = yield* call([stomp, stomp.publish], destination, payload);
  if (!sent) yield* call(alert, ko.messageActions.offline);
}

function* watchEdits(session: Session): SagaGenerator<void> {
  for (;;) {
    const { payload } = yield* take(editSubmitted);
    if (!isSendableMessage(payload.content)) continue;
    const before = yield* select(selectMessageById, payload.messageId);
    if (before?.content === payload.content.trim()) continue;
    yield* call(send, app.editMessage, { chatRoomId: session.chatRoomId, messageId: payload.messageId, content: payload.content.trim() });
  }
}

function* watchDeletes(session: Session): SagaGenerator<void> {
  for (;;) {
    const { payload: messageId } = yield* take(deleteConfirmed);
    yield* call(send, app.deleteMessage, { chatRoomId: session.chatRoomId, messageId });
  }
}

function* watchReactions(session: Session): SagaGenerator<void> {
  for (;;) {
    const { payload } = yield* take(reactionToggled);
    const message = yield* select(selectMessageById, payload.messageId);
    if (!message || message.deleted) continue;
    const on = !hasReacted(message, payload.emoji, session.userId);
    yield* call(send, app.reaction, { chatRoomId: session.chatRoomId, messageId: payload.messageId, emoji: payload.emoji, on });
  }
}

/** Scrolls to the message once held, loading older pages (beforeId) as needed. */
function* jumpTo(session: Session, messageId: number): SagaGenerator<void> {
  const http = yield* service('http');
  const alert = yield* service('alert');
  const logError = yield* service('logError');
  for (let i = 0; i <= MAX_JUMP_PAGES; i += 1) {
    const held = yield* select(selectMessageById, messageId);
    if (held) {
      yield* put(focused(messageId));
      return;
    }
    const hasOlder = yield* select(selectHasOlder);
    const oldest = yield* select(selectOldestMessageId);
    if (!hasOlder || oldest === null || oldest < messageId || i === MAX_JUMP_PAGES) break;
    try {
      const page = yield* call([http, http.get<ChatHistoryResponse>], api.chatHistory, { chatRoomId: session.chatRoomId, beforeId: oldest });
      yield* put(olderLoaded({ messages: page.messages, hasOlder: page.messages.length >= LIMITS.historyPageSize }));
    } catch (error) {
      yield* call(logError, 'room: finding a quoted message', error);
      break;
    }
  }
  yield* put(jumpEnded());
  yield* call(alert, ko.messageActions.originalNotFound);
}

function* watchJumps(session: Session): SagaGenerator<void> {
  for (;;) {
    const { payload } = yield* take(jumpRequested);
    yield* call(jumpTo, session, payload);
  }
}

/** Never returns by itself: it ends when the room session cancels it. */
export function* watchMessageActions(session: Session): SagaGenerator<void> {
  yield* all([call(watchEdits, session), call(watchDeletes, session), call(watchReactions, session), call(watchJumps, session)]);
}

/**
 * After a reconnect: the messages edited, deleted or reacted to since the last change counter
 * seen, whole, page by page while the server says more follow (docs/protocol.md *Reconnecting*).
 */
export function* fetchChanges(session: Session): SagaGenerator<void> {
  const http = yield* service('http');
  let since = yield* select(selectLastChangeSeq);
  for (let i = 0; i < MAX_CHANGE_PAGES; i += 1) {
    const page = yield* call([http, http.get<ChatHistoryResponse>], api.chatHistory, { chatRoomId: session.chatRoomId, changedSince: since });
    const next = page.lastChangeSeq ?? since;
    yield* put(changesLoaded({ messages: page.messages, lastChangeSeq: next }));
    if (!page.hasMore || next <= since) return;
    since = next;
  }
}
