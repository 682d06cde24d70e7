// The voice call (docs/spec.md §4 Call): one saga for caller and callee. While a signed-in user
// has any screen open it listens on the user's call queues (navigating never ends a call); a call
// runs from ringing through negotiation to hang-up, and its cleanup (connection closed,
// microphone stopped) is in one `finally`. This file is the call's state machine, in runCall;
// its decisions come from callRules.ts and common/signalling.ts, its steps from the sagas beside
// it (signalling, negotiation, media, ringing, the missed-call line), and STOMP, RTC, HTTP and
// the browser from the saga context.
import type { EventChannel, Task } from 'redux-saga';
import { call, cancel, cancelled, fork, put, race, take, type SagaGenerator } from 'typed-redux-saga';
import { app } from '@common/destinations';
import { service } from '../../kernel/sagaContext';
import { ko } from '../../i18n/ko';
import type { Microphone, Peer } from '../../services/rtc';
import { createConnection, followMute, openMicrophone } from './callMediaSaga';
import { negotiate } from './callNegotiationSaga';
import { stopRinging, ring } from './callRingingSaga';
import { CUT_SHORT, decideSignal, LOCAL_HANGUP, pathAfterCall, QUIET_END, skipReason, type CallPeer, type Ending } from './callRules';
import { awaitAnswer, awaitChoice, callSignalChannel, logSkipped, publish, type SignalMessage } from './callSignallingSaga';
import { callActions } from './callSlice';
import { rememberMissedCalls, restoreMissedCall } from './missedCallSaga';

function* alertUser(message: string): SagaGenerator<void> {
  const alert = yield* service('alert');
  yield* call(alert, message);
}

/** Goes where the ending says, if the user is still on /call (callRules.ts pathAfterCall). */
function* navigateAfterCall(ending: Ending): SagaGenerator<void> {
  const currentPath = yield* service('currentPath');
  const to = pathAfterCall(ending, yield* call(currentPath));
  if (to === null) return;
  const navigate = yield* service('navigate');
  yield* call(navigate, to);
}

/** One call, caller or callee, from the first ring to the last cleanup. */
function* runCall(signals: EventChannel<SignalMessage>, me: number, target: CallPeer, role: 'caller' | 'callee'): SagaGenerator<void> {
  let microphone: Microphone | null = null;
  let connection: Peer | null = null;
  let muting: Task | null = null;
  let ringing: Task | null = null;
  // What happens if the call is cut short (listener stopped): the server must hear of it.
  let ending: Ending = CUT_SHORT;
  try {
    if (role === 'caller') {
      yield* put(callActions.outgoingStarted(target));
      microphone = yield* openMicrophone();
      if (!microphone) {
        ending = QUIET_END;
        return;
      }
      muting = yield* fork(followMute, microphone);
      yield* publish(app.callInitiate, { targetUserId: target.userId, userId: me });
      ringing = yield* fork(ring, 'ringback' as const);
      const answer = yield* awaitAnswer(signals, target);
      yield* stopRinging(ringing);
      ringing = null;
      if (answer !== 'accepted') {
        if (answer.alert) yield* alertUser(ko.call[answer.alert]);
        ending = answer;
        return;
      }
    } else {
      yield* put(callActions.incomingReceived(target));
      ringing = yield* fork(ring, 'ringing' as const);
      const choice = yield* awaitChoice(signals, target);
      yield* stopRinging(ringing);
      ringing = null;
      if (choice === 'missed') yield* put(callActions.callMissed(target));
      if (choice === 'cancelled' || choice === 'missed') {
        ending = QUIET_END;
        return;
      }
      if (choice === 'accept') microphone = yield* openMicrophone();
      if (!microphone) {
        // A denied microphone rejects too: it spares the caller a ring nobody will answer.
        yield* publish(app.callReject, { targetUserId: target.userId, userId: me });
        ending = QUIET_END;
        return;
      }
      yield* publish(app.callAccept, { targetUserId: target.userId, userId: me });
      muting = yield* fork(followMute, microphone);
    }
    yield* put(callActions.negotiationStarted());
    try {
      connection = yield* createConnection(microphone);
      ending = yield* negotiate(signals, connection, target, role);
    } catch (error) {
      const logError = yield* service('logError');
      yield* call(logError, 'call failed', error);
      yield* alertUser(ko.call.callFailed);
      ending = LOCAL_HANGUP;
    }
  } finally {
    yield* stopRinging(ringing);
    if (muting) yield* cancel(muting);
    connection?.close();
    microphone?.stop();
    if (ending.sendHangup) yield* publish(app.callHangup, { targetUserId: target.userId });
    yield* put(callActions.callEnded());
    if (ending.navigateTo && !(yield* cancelled())) yield* navigateAfterCall(ending);
  }
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
        yield* call(runCall, signals, me, target, 'caller' as const);
      } else if (message) {
        const decision = decideSignal('idle', null, message.signal, message.event);
        if (decision.kind === 'ring') yield* call(runCall, signals, me, decision.peer, 'callee' as const);
        else yield* logSkipped(skipReason(decision, message.signal, 'with no call'));
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
