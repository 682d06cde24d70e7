// The missed-call line (docs/spec.md §4 Call): the caller of a call that rang out unanswered,
// kept in local storage per user so it survives a reload until it is dismissed.
import type { PayloadAction } from '@reduxjs/toolkit';
import { put, takeEvery, type SagaGenerator } from 'typed-redux-saga';
import { service } from '../../kernel/sagaContext';
import { parseMissedCall, type CallPeer } from './callRules';
import { callActions } from './callSlice';

/** Where the missed-call line is kept, per user. */
export const missedCallKey = (userId: number) => `missedCall:${userId}`;

/** Shows the missed call kept from before a reload; storage that is not JSON is cleared. */
export function* restoreMissedCall(userId: number): SagaGenerator<void> {
  const storage = yield* service('storage');
  try {
    const peer = parseMissedCall(storage.getItem(missedCallKey(userId)));
    if (peer) yield* put(callActions.callMissed(peer));
  } catch {
    storage.removeItem(missedCallKey(userId));
  }
}

/** Keeps the missed-call line in local storage while it shows. */
export function* rememberMissedCalls(userId: number): SagaGenerator<void> {
  const storage = yield* service('storage');
  yield* takeEvery(callActions.callMissed, (action: PayloadAction<CallPeer>) => storage.setItem(missedCallKey(userId), JSON.stringify(action.payload)));
  yield* takeEvery(callActions.missedCallDismissed, () => storage.removeItem(missedCallKey(userId)));
}
