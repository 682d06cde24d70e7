// Passing messages on in the open room (issue 27, docs/protocol.md /app/hide-message and
// /app/forward-message): delete for me, the forward picker's lists and the forward itself run
// from passOnRequests.ts, fetched the first time one is needed (the pass-on chunk, which the
// delete-for-me question has loaded already).
import { call, takeEvery, takeLeading, type SagaGenerator } from 'typed-redux-saga';
import { service } from '../../kernel/sagaContext';
import { forwardRequested, forwardTargetsRequested, hideRequested } from './passOnSlice';
import type { RoomOpening } from './roomSlice';

const loadRequests = () => import(/* webpackChunkName: "pass-on" */ './passOnRequests');

function* onDemand(name: 'hide' | 'loadTargets' | 'forward', action: { type: string }): SagaGenerator<void> {
  let requests: Awaited<ReturnType<typeof loadRequests>>;
  try {
    requests = yield* call(loadRequests);
  } catch (error) {
    const logError = yield* service('logError');
    yield* call(logError, `room: ${name}`, error);
    return;
  }
  const run = requests[name] as (action: { type: string }) => SagaGenerator<void>;
  yield* call(run, action);
}

/** Ends only with the room session. */
export function* passOnSaga(_session: RoomOpening): SagaGenerator<void> {
  yield* takeEvery(hideRequested, (action) => onDemand('hide', action));
  yield* takeLeading(forwardTargetsRequested, (action) => onDemand('loadTargets', action));
  yield* takeLeading(forwardRequested, (action) => onDemand('forward', action));
}
