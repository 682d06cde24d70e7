// The call, voice or video (docs/spec.md §4 Call): one saga for caller and callee. While a signed-in user
// has any screen open it listens on the user's call queues (navigating never ends a call); a call
// runs from ringing through negotiation to hang-up, and its cleanup (connection closed,
// microphone stopped) is in one `finally`. This file is the call's state machine, in runCall;
// its decisions come from callRules.ts and common/signalling.ts, its steps from the sagas beside
// it (signalling, negotiation, media, ringing, the missed-call line), and STOMP, RTC, HTTP and
// the browser from the saga context.
import type { EventChannel, Task } from 'redux-saga';
import { call, cancel, cancelled, delay, fork, put, race, select, take, takeLatest, type SagaGenerator } from 'typed-redux-saga';
import { app } from '@common/destinations';
import type { CallMedia } from '@common/api';
import { service } from '../../kernel/sagaContext';
import { ko } from '../../i18n/ko';
import type { LocalMedia, Peer } from '../../services/rtc';
import { controlMedia, createConnection, openMedia, sendMediaState } from './callMediaSaga';
import { negotiate } from './callNegotiationSaga';
import { stopRinging, ring } from './callRingingSaga';
import { CUT_SHORT, decideSignal, END_SCREEN_MS, endSummary, LOCAL_HANGUP, parseActiveCall, pathAfterCall, QUIET_END, skipReason, type CallPeer, type Ending } from './callRules';
import { awaitAnswer, awaitChoice, callSignalChannel, logSkipped, publish, type SignalMessage } from './callSignallingSaga';
import { callActions, selectCall } from './callSlice';
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

/** How this page came into the call: it called, it is called, or the server resumed a call after a reload. */
export type CallEntry =
  | { role: 'caller'; media: CallMedia }
  | { role: 'callee'; media: CallMedia }
  | { role: 'resumed'; media: CallMedia; offers: boolean };

/** The call this page is in, kept so that a reload can name the peer when the server resumes it. */
export const activeCallKey = (userId: number) => `activeCall:${userId}`;

/** One call, caller or callee (or resumed), from the first ring to the last cleanup and its end screen. */
function* runCall(signals: EventChannel<SignalMessage>, me: number, target: CallPeer, entry: CallEntry): SagaGenerator<void> {
  let media: LocalMedia | null = null;
  let connection: Peer | null = null;
  let controls: Task | null = null;
  let ringing: Task | null = null;
  // What happens if the call is cut short (listener stopped): the server must hear of it.
  let ending: Ending = CUT_SHORT;
  const storage = yield* service('storage');
  try {
    storage.setItem(activeCallKey(me), JSON.stringify(target));
    let offers: boolean;
    if (entry.role === 'caller') {
      yield* put(callActions.outgoingStarted({ ...target, media: entry.media }));
      media = yield* openMedia(entry.media === 'video');
      if (!media) {
        ending = QUIET_END;
        return;
      }
      controls = yield* fork(controlMedia, media, target.userId);
      yield* publish(app.callInitiate, { targetUserId: target.userId, userId: me, ...(entry.media === 'video' ? { media: 'video' } : {}) });
      ringing = yield* fork(ring, 'ringback' as const);
      const answer = yield* awaitAnswer(signals, target);
      yield* stopRinging(ringing);
      ringing = null;
      if (answer !== 'accepted') {
        if (answer.alert) yield* alertUser(ko.call[answer.alert]);
        ending = answer;
        return;
      }
      offers = true;
    } else if (entry.role === 'callee') {
      yield* put(callActions.incomingReceived({ ...target, media: entry.media }));
      ringing = yield* fork(ring, 'ringing' as const);
      const choice = yield* awaitChoice(signals, target);
      yield* stopRinging(ringing);
      ringing = null;
      if (choice === 'missed') yield* put(callActions.callMissed(target));
      if (choice === 'cancelled' || choice === 'missed') {
        ending = QUIET_END;
        return;
      }
      if (choice === 'accept') media = yield* openMedia(entry.media === 'video');
      if (!media) {
        // A denied microphone rejects too: it spares the caller a ring nobody will answer.
        yield* publish(app.callReject, { targetUserId: target.userId, userId: me });
        ending = QUIET_END;
        return;
      }
      yield* publish(app.callAccept, { targetUserId: target.userId, userId: me });
      controls = yield* fork(controlMedia, media, target.userId);
      offers = false;
    } else {
      yield* put(callActions.resumeStarted({ ...target, media: entry.media, role: entry.offers ? 'caller' : 'callee' }));
      media = yield* openMedia(entry.media === 'video');
      if (!media) {
        ending = LOCAL_HANGUP;
        return;
      }
      controls = yield* fork(controlMedia, media, target.userId);
      offers = entry.offers;
    }
    yield* put(callActions.negotiationStarted());
    yield* sendMediaState(target.userId);
    try {
      // A resume throws the connection away and builds a new one with the same media (docs/protocol.md survival).
      for (;;) {
        connection = yield* createConnection(media);
        const end = yield* negotiate(signals, connection, target, offers ? 'caller' : 'callee');
        if ('ending' in end) {
          ending = end.ending;
          break;
        }
        connection.close();
        connection = null;
        offers = end.resume.role === 'caller';
        yield* put(callActions.resumed());
        yield* sendMediaState(target.userId);
      }
    } catch (error) {
      const logError = yield* service('logError');
      yield* call(logError, 'call failed', error);
      yield* alertUser(ko.call.callFailed);
      ending = LOCAL_HANGUP;
    }
  } finally {
    storage.removeItem(activeCallKey(me));
    yield* stopRinging(ringing);
    if (controls) yield* cancel(controls);
    connection?.close();
    media?.stop();
    if (ending.sendHangup) yield* publish(app.callHangup, { targetUserId: target.userId });
    const { phase, elapsedSeconds } = yield* select(selectCall);
    const summary = endSummary(ending, target.name, phase === 'connected' || elapsedSeconds > 0, elapsedSeconds, ko.call.endReasons);
    yield* put(callActions.callEnded(summary));
    if (ending.navigateTo && !(yield* cancelled())) yield* navigateAfterCall(ending);
  }
}

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
        yield* call(runCall, signals, me, { userId: target.userId, name: target.name }, { role: 'caller', media: target.media } as CallEntry);
      } else if (message) {
        const decision = decideSignal('idle', null, message.signal, message.event);
        if (decision.kind === 'ring') yield* call(runCall, signals, me, decision.peer, { role: 'callee', media: message.event.media ?? 'audio' } as CallEntry);
        else if (decision.kind === 'resume') {
          const peer = yield* resumedPeer(me, decision.peer);
          yield* call(runCall, signals, me, peer, { role: 'resumed', media: decision.media, offers: decision.role === 'caller' } as CallEntry);
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
