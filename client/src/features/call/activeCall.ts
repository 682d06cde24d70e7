// The active call (docs/spec.md §4 Call): runCall, one call for caller and callee (or resumed
// after a reload), from the first ring to the last cleanup and its end screen. It and everything
// it runs (negotiation, media, ringing, services/rtc.ts behind the rtc service) load in the
// `in-call` chunk when a call starts or resumes (callSaga.ts's listener imports this file), so
// no screen downloads the active call's code before a call (docs/architecture.md §5 "Loading").
// The cleanup (connection closed, microphone stopped) is in one `finally`; the decisions come
// from callRules.ts and common/signalling.ts, STOMP, RTC, HTTP and the browser from the saga context.
import { buffers, type Channel, type EventChannel, type Task } from 'redux-saga';
import { actionChannel, call, cancel, cancelled, fork, put, select, type SagaGenerator } from 'typed-redux-saga';
import { app } from '@common/destinations';
import type { CallMedia } from '@common/api';
import { service } from '../../kernel/sagaContext';
import { koCall } from '../../i18n/koCall';
import type { LocalMedia, Peer } from '../../services/rtc';
import { controlMedia, createConnection, openMedia, sendMediaState } from './callMediaSaga';
import { negotiate } from './callNegotiationSaga';
import { stopRinging, ring } from './callRingingSaga';
import { CUT_SHORT, endSummary, LOCAL_HANGUP, pathAfterCall, QUIET_END, type Ending } from './callOutcomeRules';
import type { SignalMessage } from './callQueuesSaga';
import { activeCallKey, type CallPeer } from './callRules';
import { awaitAnswer, awaitChoice, publish } from './callSignallingSaga';
import { callActions, selectCall } from './callSlice';

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

/** One call, caller or callee (or resumed), from the first ring to the last cleanup and its end screen. */
export function* runCall(signals: EventChannel<SignalMessage>, me: number, target: CallPeer, entry: CallEntry): SagaGenerator<void> {
  let media: LocalMedia | null = null;
  let connection: Peer | null = null;
  let controls: Task | null = null;
  let ringing: Task | null = null;
  // What happens if the call is cut short (listener stopped): the server must hear of it.
  let ending: Ending = CUT_SHORT;
  const storage = yield* service('storage');
  // The hang-up button, heard even while the call's saga is busy elsewhere (an answer, a
  // candidate being applied): a take() alone misses an action dispatched meanwhile.
  const hangUps: Channel<{ type: string }> = yield* actionChannel(callActions.hangUpClicked, buffers.sliding(1));
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
      const answer = yield* awaitAnswer(signals, hangUps, target);
      yield* stopRinging(ringing);
      ringing = null;
      if (answer !== 'accepted') {
        if (answer.alert) yield* alertUser(koCall[answer.alert]);
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
        const end = yield* negotiate(signals, hangUps, connection, target, offers ? 'caller' : 'callee');
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
      yield* alertUser(koCall.callFailed);
      ending = LOCAL_HANGUP;
    }
  } finally {
    hangUps.close();
    storage.removeItem(activeCallKey(me));
    yield* stopRinging(ringing);
    if (controls) yield* cancel(controls);
    connection?.close();
    media?.stop();
    if (ending.sendHangup) yield* publish(app.callHangup, { targetUserId: target.userId });
    const { phase, elapsedSeconds } = yield* select(selectCall);
    const summary = endSummary(ending, target.name, phase === 'connected' || elapsedSeconds > 0, elapsedSeconds, koCall.endReasons);
    yield* put(callActions.callEnded(summary));
    if (ending.navigateTo && !(yield* cancelled())) yield* navigateAfterCall(ending);
  }
}
