// Acting on messages in the open room (issue 13; docs/protocol.md /app/edit-message,
// /app/delete-message, /app/reaction): each action goes out as one SEND; what it changes comes
// back on the room-events topic, for this tab as for everyone else, so the list shows only what
// the server applied. Also: after a reconnect, the changes made while away (changedSince), and
// a quote's jump to its original, loading older pages until it is held.
import type { PayloadAction } from '@reduxjs/toolkit';
import type { SagaIterator } from 'redux-saga';
import { all, call, put, select, take } from 'redux-saga/effects';
import { api, type ChatHistoryResponse, type ChatMessage } from '@common/api';
import { app } from '@common/destinations';
import { LIMITS, isSendableMessage, type Reaction } from '@common/rules';
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
function* send(destination: string, payload: unknown): SagaIterator {
  const stomp = yield* service('stomp');
  const alert = yield* service('alert');
  const sent = (yield call([stomp, stomp.publish], destination, payload)) as boolean;
  if (!sent) yield call(alert, ko.messageActions.offline);
}

function* watchEdits(session: Session): SagaIterator {
  for (;;) {
    const { payload }: PayloadAction<{ messageId: number; content: string }> = yield take(editSubmitted.type);
    if (!isSendableMessage(payload.content)) continue;
    const before: ChatMessage | undefined = yield select(selectMessageById, payload.messageId);
    if (before?.content === payload.content.trim()) continue;
    yield call(send, app.editMessage, { chatRoomId: session.chatRoomId, messageId: payload.messageId, content: payload.content.trim() });
  }
}

function* watchDeletes(session: Session): SagaIterator {
  for (;;) {
    const { payload: messageId }: PayloadAction<number> = yield take(deleteConfirmed.type);
    yield call(send, app.deleteMessage, { chatRoomId: session.chatRoomId, messageId });
  }
}

function* watchReactions(session: Session): SagaIterator {
  for (;;) {
    const { payload }: PayloadAction<{ messageId: number; emoji: Reaction }> = yield take(reactionToggled.type);
    const message: ChatMessage | undefined = yield select(selectMessageById, payload.messageId);
    if (!message || message.deleted) continue;
    const on = !hasReacted(message, payload.emoji, session.userId);
    yield call(send, app.reaction, { chatRoomId: session.chatRoomId, messageId: payload.messageId, emoji: payload.emoji, on });
  }
}

/** Scrolls to the message once held, loading older pages (beforeId) as needed. */
function* jumpTo(session: Session, messageId: number): SagaIterator {
  const http = yield* service('http');
  const alert = yield* service('alert');
  const logError = yield* service('logError');
  for (let i = 0; i <= MAX_JUMP_PAGES; i += 1) {
    const held: ChatMessage | undefined = yield select(selectMessageById, messageId);
    if (held) {
      yield put(focused(messageId));
      return;
    }
    const hasOlder: boolean = yield select(selectHasOlder);
    const oldest: number | null = yield select(selectOldestMessageId);
    if (!hasOlder || oldest === null || oldest < messageId || i === MAX_JUMP_PAGES) break;
    try {
      const page: ChatHistoryResponse = yield call([http, http.get], api.chatHistory, { chatRoomId: session.chatRoomId, beforeId: oldest });
      yield put(olderLoaded({ messages: page.messages, hasOlder: page.messages.length >= LIMITS.historyPageSize }));
    } catch (error) {
      yield call(logError, 'room: finding a quoted message', error);
      break;
    }
  }
  yield put(jumpEnded());
  yield call(alert, ko.messageActions.originalNotFound);
}

function* watchJumps(session: Session): SagaIterator {
  for (;;) {
    const { payload }: PayloadAction<number> = yield take(jumpRequested.type);
    yield call(jumpTo, session, payload);
  }
}

/** Never returns by itself: the room session's race ends it. */
export function* watchMessageActions(session: Session): SagaIterator {
  yield all([call(watchEdits, session), call(watchDeletes, session), call(watchReactions, session), call(watchJumps, session)]);
}

/**
 * After a reconnect: the messages edited, deleted or reacted to since the last change counter
 * seen, whole, page by page while the server says more follow (docs/protocol.md *Reconnecting*).
 */
export function* fetchChanges(session: Session): SagaIterator {
  const http = yield* service('http');
  let since: number = yield select(selectLastChangeSeq);
  for (let i = 0; i < MAX_CHANGE_PAGES; i += 1) {
    const page: ChatHistoryResponse = yield call([http, http.get], api.chatHistory, { chatRoomId: session.chatRoomId, changedSince: since });
    const next = page.lastChangeSeq ?? since;
    yield put(changesLoaded({ messages: page.messages, lastChangeSeq: next }));
    if (!page.hasMore || next <= since) return;
    since = next;
  }
}
