// Loads 통화 기록's pages (docs/protocol.md GET /api/calls): the first when the screen opens,
// the next (before the oldest loaded call) when the user asks for more.
import { call, put, select, takeLatest, type SagaGenerator } from 'typed-redux-saga';
import { api } from '@common/api';
import { service } from '../../kernel/sagaContext';
import { callHistoryActions, selectCallHistory } from './callHistorySlice';
import { decodeCallHistory } from './callHistoryRules';

/** How many calls a page holds. */
export const CALL_HISTORY_PAGE = 30;

function* loadPage(first: boolean): SagaGenerator<void> {
  const http = yield* service('http');
  const { entries } = yield* select(selectCallHistory);
  const before = first ? undefined : entries.at(-1)?.callId;
  try {
    const body = yield* call([http, http.get<unknown>], api.calls, { limit: CALL_HISTORY_PAGE, ...(before ? { before } : {}) });
    yield* put(callHistoryActions.historyPageLoaded({ page: decodeCallHistory(body), first }));
  } catch (error) {
    const logError = yield* service('logError');
    yield* call(logError, 'call history', error);
    yield* put(callHistoryActions.historyFailed());
  }
}

export function* callHistorySaga(): SagaGenerator<void> {
  yield* takeLatest(callHistoryActions.historyOpened, () => loadPage(true));
  yield* takeLatest(callHistoryActions.historyMoreRequested, function* () {
    if ((yield* select(selectCallHistory)).loading) yield* loadPage(false);
  });
}
