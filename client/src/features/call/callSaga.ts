// The call, voice or video (docs/spec.md §4 Call): while a signed-in user has any screen open
// this saga listens on the user's call queues (navigating never ends a call), rings, and resumes a
// call after a reload. The call itself, from ringing through negotiation to hang-up, is runCall
// (activeCall.ts), the call's state machine: it, its steps (negotiation, media, ringing) and the
// browser's WebRTC load in the `in-call` chunk when a call starts or resumes, so that no screen
// carries them before (docs/architecture.md §5 "Loading"). The listener subscribes at once, and
// the signals that arrive while that chunk loads wait in the channel's buffer.
import type { EventChannel } from 'redux-saga';
import { call, cancel, delay, fork, put, race, select, take, takeLatest, type SagaGenerator } from 'typed-redux-saga';
import { service } from '../../kernel/sagaContext';
import { koCall } from '../../i18n/koCall';
import type { CallEntry } from './activeCall';
import { activeCallKey, decideSignal, END_SCREEN_MS, parseActiveCall, skipReason, type CallPeer } from './callRules';
import { callSignalChannel, logSkipped, type SignalMessage } from './callQueuesSaga';
import { callActions, selectCall } from './callSlice';
import { rememberMissedCalls, restoreMissedCall } from './missedCallSaga';

/** The active call's code, fetched once, when the first call starts or resumes (the in-call overlay's chunk). */
const loadActiveCall = () => import(/* webpackChunkName: "in-call" */ './activeCall');

/** Each end screen goes after END_SCREEN_MS (docs/spec.md §4 Call), unless a new call replaced it. */
function* dismissEndScreens(): SagaGenerator<void> {
  yield* takeLatest(callActions.callEnded, function* () {
    yield* delay(END_SCREEN_MS);
    if ((yield* select(selectCall)).ended) yield* put(callActions.endScreenDismissed());
  });
}

/** The peer's name for a resumed call: the one kept before the reload, when it is the same peer. */
function* resumedPeer(me: number, peer: CallPeer): SagaGenerator<CallPeer> {
  const storage = yield* service('storage');
  try {
    const kept = parseActiveCall(storage.getItem(activeCallKey(me)));
    return kept && kept.userId === peer.userId ? kept : peer;
  } catch {
    return peer;
  }
}

/**
 * Runs one call once its code is there. A chunk that cannot load (offline) is logged and the
 * listener goes on: a caller is told the call failed; an incoming call rings out at the caller's.
 */
function* startCall(signals: EventChannel<SignalMessage>, me: number, target: CallPeer, entry: CallEntry): SagaGenerator<void> {
  let activeCall: Awaited<ReturnType<typeof loadActiveCall>>;
  try {
    activeCall = yield* call(loadActiveCall);
  } catch (error) {
    const logError = yield* service('logError');
    yield* call(logError, 'call code not loaded', error);
    if (entry.role === 'caller') {
      const alert = yield* service('alert');
      yield* call(alert, koCall.callFailed);
    }
    return;
  }
  yield* call(activeCall.runCall, signals, me, target, entry);
}

/**
 * Idle between calls: waits for the user to call someone or for someone to call. While a call
 * runs this loop is inside runCall, so a second call cannot start (docs/spec.md §4).
 */
function* callListener(me: number): SagaGenerator<void> {
  const stomp = yield* service('callStomp');
  const logError = yield* service('logError');
  const signals = yield* call(callSignalChannel, stomp, me, logError);
  try {
    for (;;) {
      const { start, message } = yield* race({ start: take(callActions.callRequested), message: take(signals) });
      if (start) {
        const target = start.payload;
        if (target.userId === me) continue;
        yield* call(startCall, signals, me, { userId: target.userId, name: target.name }, { role: 'caller', media: target.media } as CallEntry);
      } else if (message) {
        const decision = decideSignal('idle', null, message.signal, message.event);
        if (decision.kind === 'ring') yield* call(startCall, signals, me, decision.peer, { role: 'callee', media: message.event.media ?? 'audio' } as CallEntry);
        else if (decision.kind === 'resume') {
          const peer = yield* resumedPeer(me, decision.peer);
          yield* call(startCall, signals, me, peer, { role: 'resumed', media: decision.media, offers: decision.role === 'caller' } as CallEntry);
        } else yield* logSkipped(skipReason(decision, message.signal, 'with no call'));
      }
    }
  } finally {
    signals.close();
    // No screen listens for calls any more: let the connection go rather than keep reconnecting.
    stomp.deactivate().catch((error) => logError('call stomp', error));
  }
}

function* whileListening(userId: number): SagaGenerator<void> {
  yield* restoreMissedCall(userId);
  yield* fork(rememberMissedCalls, userId);
  yield* fork(dismissEndScreens);
  yield* call(callListener, userId);
}

export function* callSaga(): SagaGenerator<void> {
  for (;;) {
    const { payload } = yield* take(callActions.listenRequested);
    const listener = yield* fork(whileListening, payload.userId);
    yield* take(callActions.listenStopped);
    yield* cancel(listener);
  }
}
