// Sending in the open room, and the outbox of sends not yet confirmed (docs/spec.md §4, §9):
// a typed message or a finished upload becomes a pending send with a clientMsgId, shows as
// failed after SEND_TIMEOUT_MS without its echo, is kept in local storage so a reload does not
// lose it, and goes out again, in the order written, on every new subscription (the server
// stores a clientMsgId once and echoes it again, so a resend never duplicates a message).
import { buffers, type Channel } from 'redux-saga';
import { actionChannel, call, delay, fork, put, select, take, takeEvery, type SagaGenerator } from 'typed-redux-saga';
import { app } from '@common/destinations';
import { isSendableMessage } from '@common/rules';
import { service } from '../../kernel/sagaContext';
import { newClientMsgId } from './clientMsgId';
import { mentionedIds } from './mentions';
import type { PendingMessage } from './messages';
import { publish } from './roomPublish';
import {
  attachmentUploaded,
  messageQueued,
  messageSubmitted,
  resendRequested,
  selectPending,
  selectReplyTo,
  selectRoomUsers,
  sendAttempted,
  sendTimedOut,
  type RoomOpening,
} from './roomSlice';

/** A send not confirmed (echoed back) within this time shows as failed, with resend and delete. */
export const SEND_TIMEOUT_MS = 10_000;

function* sendPending({ chatRoomId, userId }: RoomOpening, pending: PendingMessage): SagaGenerator<void> {
  yield* put(sendAttempted(pending.clientMsgId));
  // Not connected: the send times out as failed and goes out again on the next subscription.
  const reply = pending.replyTo ? { replyToMessageId: pending.replyTo.messageId } : {};
  const attachment = pending.attachments && pending.attachments.length > 1
    ? { attachmentIds: pending.attachments.map((a) => a.attachmentId) }
    : pending.attachment ? { attachmentId: pending.attachment.attachmentId } : {};
  // The members the text names as it goes out (issue 26); none: no field, as the original client sends.
  const ids = mentionedIds(pending.content, yield* select(selectRoomUsers), userId);
  const mentions = ids.length > 0 ? { mentions: ids } : {};
  yield* call(publish, app.privateMessage, { chatRoomId, senderId: userId, content: pending.content, clientMsgId: pending.clientMsgId, ...reply, ...attachment, ...mentions });
}

/** Every pending message again, in the order they were written (the server keeps a clientMsgId once). */
export function* resendAll(session: RoomOpening): SagaGenerator<void> {
  const pending = yield* select(selectPending);
  for (const p of pending) yield* call(sendPending, session, p);
}

function* expireSend(clientMsgId: string, attempt: number): SagaGenerator<void> {
  yield* delay(SEND_TIMEOUT_MS);
  yield* put(sendTimedOut({ clientMsgId, attempt }));
}

/** Each send attempt gets its own timeout. */
function* startSendTimeout({ payload: clientMsgId }: ReturnType<typeof sendAttempted>): SagaGenerator<void> {
  const pending = yield* select(selectPending);
  const sent = pending.find((p) => p.clientMsgId === clientMsgId);
  if (sent) yield* fork(expireSend, clientMsgId, sent.attempt ?? 0);
}

/** Keeps the room's unconfirmed sends in local storage, so a reload does not lose them. */
function* persistUnsent(session: RoomOpening): SagaGenerator<void> {
  const unsent = yield* service('unsent');
  let last = yield* select(selectPending);
  yield* call([unsent, unsent.write], session.userId, session.chatRoomId, last);
  for (;;) {
    yield* take('*');
    const now = yield* select(selectPending);
    if (now === last) continue;
    last = now;
    yield* call([unsent, unsent.write], session.userId, session.chatRoomId, now);
  }
}

/** A failed send the user asked to send again, with the same clientMsgId. */
function* resend(session: RoomOpening, clientMsgId: string): SagaGenerator<void> {
  const pending = yield* select(selectPending);
  const failed = pending.find((p) => p.clientMsgId === clientMsgId && p.failed);
  if (failed) yield* call(sendPending, session, failed);
}

export type SendRequest = ReturnType<typeof messageSubmitted | typeof resendRequested | typeof attachmentUploaded>;

/**
 * The sends asked for in the room, held from the moment it opens: the composer shows before the
 * first page is loaded, and a message sent then waits here for the outbox instead of being lost.
 */
export function* sendRequests(): SagaGenerator<Channel<SendRequest>> {
  return yield* actionChannel<SendRequest>([messageSubmitted, resendRequested, attachmentUploaded], buffers.expanding<SendRequest>(8));
}

/**
 * Typed messages and uploads the server holds (docs/spec.md §2 Chat room) become pending sends
 * alike, with the reply quote being composed: so an upload that finished offline goes out when
 * the connection returns, like a typed message.
 */
function* watchSends(session: RoomOpening, requests: Channel<SendRequest>): SagaGenerator<void> {
  for (;;) {
    const action = yield* take(requests);
    if (resendRequested.match(action)) {
      yield* resend(session, action.payload);
      continue;
    }
    const replyTo = yield* select(selectReplyTo);
    const quote = replyTo ? { replyTo } : {};
    let pending: PendingMessage;
    if (attachmentUploaded.match(action)) {
      const { chatRoomId, attachment, attachments } = action.payload;
      pending = { clientMsgId: newClientMsgId(), content: '', createdAt: new Date().toISOString(), attachment, ...(attachments && attachments.length > 1 ? { attachments } : {}) };
      if (chatRoomId !== session.chatRoomId) {
        // Another room's upload (its screen closed meanwhile): kept with that room's unsent
        // messages, it goes out when that room is next open.
        const unsent = yield* service('unsent');
        const held = yield* call([unsent, unsent.read], session.userId, chatRoomId);
        yield* call([unsent, unsent.write], session.userId, chatRoomId, [...held, pending]);
        continue;
      }
      pending = { ...pending, ...quote };
    } else {
      if (!isSendableMessage(action.payload)) continue;
      pending = { clientMsgId: newClientMsgId(), content: action.payload.trim(), createdAt: new Date().toISOString(), ...quote };
    }
    yield* put(messageQueued(pending));
    yield* call(sendPending, session, pending);
  }
}

/** The outbox while the room is open: send timeouts, storage and sends. Ends only with the room session. */
export function* outboxSaga(session: RoomOpening, requests: Channel<SendRequest>): SagaGenerator<void> {
  yield* takeEvery(sendAttempted, startSendTimeout);
  yield* fork(persistUnsent, session);
  yield* fork(watchSends, session, requests);
}
