// The call's tones (docs/spec.md §4 Call): ringing for the callee, ring-back for the caller,
// from the ringer service (services/ringer.ts). Browsers may block audio until the user's first
// tap; the slice is told, so the screen can ask for it.
import type { Task } from 'redux-saga';
import { call, cancel, put, type SagaGenerator } from 'typed-redux-saga';
import { service } from '../../kernel/sagaContext';
import type { RingTone } from '../../services/ringer';
import { callActions } from './callSlice';

/** Starts a ring tone and keeps the slice told whether it sounds or waits for the user's first tap. */
export function* ring(tone: RingTone): SagaGenerator<void> {
  const ringer = yield* service('ringer');
  const started = yield* call([ringer, ringer.start], tone);
  if (started === 'unavailable') return;
  yield* put(callActions.ringChanged({ tone, blocked: started === 'blocked' }));
  if (started !== 'blocked') return;
  yield* call([ringer, ringer.whenUnblocked]);
  yield* put(callActions.ringChanged({ tone, blocked: false }));
}

/** Silences the tone the ring task started, if any. */
export function* stopRinging(ringing: Task | null): SagaGenerator<void> {
  if (!ringing) return;
  yield* cancel(ringing);
  const ringer = yield* service('ringer');
  yield* call([ringer, ringer.stop]);
  yield* put(callActions.ringChanged(null));
}
