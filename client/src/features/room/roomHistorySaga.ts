// The open room's history (docs/spec.md §2 Chat room, §7; docs/protocol.md chat history): the
// first page, or the page around a search result and everything newer; the catch-up after every
// new subscription; a gap filled when a live message skips ahead; older pages as the user
// scrolls up.
import { call, put, select, takeLeading, type SagaGenerator } from 'typed-redux-saga';
import { api, type ChatHistoryResponse, type ChatMessage } from '@common/api';
import { LIMITS } from '@common/rules';
import { service } from '../../kernel/sagaContext';
import type { Query } from '../../services/http';
import {
  aroundLoaded,
  caughtUp,
  focused,
  historyLoaded,
  olderFailed,
  olderLoaded,
  olderRequested,
  selectNewestMessageId,
  selectNewestSeq,
  selectOldestMessageId,
  selectHasOlder,
  type RoomOpening,
} from './roomSlice';

/** A reconnect after a long outage fetches at most this many pages; older gaps load by scrolling. */
const MAX_CATCH_UP_PAGES = 50;

function* historyPage(query: Query): SagaGenerator<ChatHistoryResponse> {
  const http = yield* service('http');
  return yield* call([http, http.get<ChatHistoryResponse>], api.chatHistory, query);
}

/**
 * Everything newer than the newest message we hold. With a seq, by afterSeq (oldest first, 100
 * at a time): gap-free by construction. Without one (nothing held yet), page 0, then older
 * pages by beforeId until they overlap what we have.
 */
export function* catchUp(session: RoomOpening): SagaGenerator<void> {
  const afterSeq = yield* select(selectNewestSeq);
  if (afterSeq !== null) {
    yield* call(fetchAfter, session, afterSeq);
    return;
  }
  const since = yield* select(selectNewestMessageId);
  const found: ChatMessage[] = [];
  let first: ChatHistoryResponse | null = null;
  let beforeId: number | undefined;
  for (let i = 0; i < MAX_CATCH_UP_PAGES; i += 1) {
    const query = beforeId === undefined ? { chatRoomId: session.chatRoomId, page: 0 } : { chatRoomId: session.chatRoomId, beforeId };
    const page = yield* historyPage(query);
    first ??= page;
    found.push(...page.messages);
    const oldest = page.messages[0]?.messageId;
    if (since === null || oldest === undefined || oldest <= since || page.messages.length < LIMITS.historyPageSize) break;
    beforeId = oldest;
  }
  if (first) yield* put(caughtUp({ chatRoomName: first.chatRoomName, renamed: first.renamed, users: first.users, messages: found, ...noticeOf(first) }));
}

/** The page's notice when it tells one (an older server's page does not). */
function noticeOf(page: ChatHistoryResponse): { notice?: ChatHistoryResponse['notice'] } {
  return 'notice' in page ? { notice: page.notice } : {};
}

/** The messages after a seq, page by page while the server says more follow. */
export function* fetchAfter(session: RoomOpening, afterSeq: number): SagaGenerator<void> {
  let from = afterSeq;
  for (let i = 0; i < MAX_CATCH_UP_PAGES; i += 1) {
    const page = yield* historyPage({ chatRoomId: session.chatRoomId, afterSeq: from });
    yield* put(caughtUp({ chatRoomName: page.chatRoomName, renamed: page.renamed, users: page.users, messages: page.messages, ...noticeOf(page) }));
    const last = page.messages.at(-1)?.seq;
    if (!page.hasMore || last === undefined) return;
    from = last;
  }
}

/**
 * Opens the room around a seq (a search result): the page about it, then everything newer
 * (afterSeq), so the list stays whole from there to the newest message; then the list scrolls
 * to it.
 */
function* openAround(session: RoomOpening, aroundSeq: number): SagaGenerator<void> {
  const page = yield* historyPage({ chatRoomId: session.chatRoomId, aroundSeq });
  yield* put(aroundLoaded(page));
  const last = page.messages.at(-1)?.seq;
  if (page.hasMore && last !== undefined) yield* call(fetchAfter, session, last);
  const target = page.messages.find((m) => m.seq === aroundSeq);
  if (target) yield* put(focused(target.messageId));
}

/** The history the room opens with: the newest page, or the one around the search result it opens at. Throws when it cannot be loaded. */
export function* loadFirstPage(session: RoomOpening): SagaGenerator<void> {
  if (session.aroundSeq !== undefined) yield* call(openAround, session, session.aroundSeq);
  else yield* put(historyLoaded(yield* historyPage({ chatRoomId: session.chatRoomId, page: 0 })));
}

function* loadOlder(session: RoomOpening): SagaGenerator<void> {
  const hasOlder = yield* select(selectHasOlder);
  const beforeId = yield* select(selectOldestMessageId);
  if (!hasOlder || beforeId === null) return;
  try {
    const page = yield* historyPage({ chatRoomId: session.chatRoomId, beforeId });
    yield* put(olderLoaded({ messages: page.messages, hasOlder: page.messages.length >= LIMITS.historyPageSize }));
  } catch (error) {
    const logError = yield* service('logError');
    yield* call(logError, 'room: older messages', error);
    yield* put(olderFailed());
  }
}

/** Older pages by beforeId at the top of the list; a request while one loads is dropped. Ends only with the room session. */
export function* olderPagesSaga(session: RoomOpening): SagaGenerator<void> {
  yield* takeLeading(olderRequested, loadOlder, session);
}
