// The voice call (SPEC.md §4 Call): one saga for caller and callee. While a signed-in user has
// any screen open it listens on the user's call queues (navigating never ends a call); a call runs from ringing through negotiation to
// hang-up, and its cleanup (connection closed, microphone stopped) is in one `finally`.
// Decisions come from callRules.ts and common/signalling.ts; STOMP, RTC, HTTP and the browser
// come from the saga context.
import type { PayloadAction } from '@reduxjs/toolkit';
import { buffers, eventChannel, type EventChannel, type SagaIterator, type Task } from 'redux-saga';
import { call, cancel, cancelled, delay, flush, fork, put, race, select, take, takeEvery } from 'redux-saga/effects';
import { api, type IceServer } from '@common/api';
import { app, CALL_SIGNALS, queues, type CallSignal } from '@common/destinations';
import { decodeCallEvent } from '@common/events';
import type { CallEvent } from '@common/payloads';
import { LIMITS } from '@common/rules';
import { canApplyAnswer, canApplyOffer, toIceCandidate, toSessionDescription } from '@common/signalling';
import { service } from '../../kernel/sagaContext';
import { ko } from '../../i18n/ko';
import type { RingStart, RingTone } from '../../services/ringer';
import type { Microphone, Peer, PeerEvent } from '../../services/rtc';
import type { StompService } from '../../services/stomp';
import { candidateDisposition, connectionOutcome, decideSignal, type CallPeer } from './callRules';
import { callActions, selectCallMuted, selectCallPhase } from './callSlice';

export const CALL_PATH = '/call';
export const CHAT_LIST_PATH = '/chat-list';
/** The in-call timer's tick (SPEC.md §9). */
export const CALL_TIMER_TICK_MS = 1000;

interface SignalMessage {
  signal: CallSignal;
  event: CallEvent;
}

/** How a call ended, which decides what is sent and where the user goes. */
interface Ending {
  /** Tell the peer with /app/call/hangup. */
  sendHangup: boolean;
  navigateTo: string | null;
  /** Told to the user once the ring-back tone is silent. */
  alert?: string;
}

const QUIET_END: Ending = { sendHangup: false, navigateTo: null };
const LOCAL_HANGUP: Ending = { sendHangup: true, navigateTo: CHAT_LIST_PATH };
const PEER_HANGUP: Ending = { sendHangup: false, navigateTo: CHAT_LIST_PATH };

/** Every signal on the user's seven call queues, in arrival order, none dropped while busy. */
function callSignalChannel(stomp: StompService, userId: number, logError: (context: string, error: unknown) => void): EventChannel<SignalMessage> {
  return eventChannel<SignalMessage>((emit) => {
    const unsubscribes = CALL_SIGNALS.map((signal) =>
      stomp.subscribe(queues.call(signal, userId), {
        message(body) {
          const event = decodeCallEvent(signal, body);
          if (event) emit({ signal, event });
          else logError(`call ${signal}`, new Error('call signal without a valid userId'));
        },
      }),
    );
    return () => unsubscribes.forEach((unsubscribe) => unsubscribe());
  }, buffers.expanding<SignalMessage>(16));
}

function peerEventChannel(peer: Peer, wanted: PeerEvent['type'][]): EventChannel<PeerEvent> {
  return eventChannel<PeerEvent>((emit) => peer.onEvent((event) => wanted.includes(event.type) && emit(event)), buffers.expanding<PeerEvent>(16));
}

function* publish(destination: string, payload: unknown): SagaIterator {
  const stomp = yield* service('callStomp');
  const sent: boolean = yield call([stomp, stomp.publish], destination, payload);
  if (!sent) {
    const logError = yield* service('logError');
    yield call(logError, 'call', new Error(`not connected: ${destination} was not sent`));
  }
}

function* alertUser(message: string): SagaIterator {
  const alert = yield* service('alert');
  yield call(alert, message);
}

function* logSkipped(reason: string): SagaIterator {
  const logError = yield* service('logError');
  yield call(logError, 'call signal skipped', new Error(reason));
}

/** The microphone, or null after telling the user to check the permission (SPEC.md §5). */
function* openMicrophone(): SagaIterator<Microphone | null> {
  const rtc = yield* service('rtc');
  try {
    return (yield call([rtc, rtc.openMicrophone])) as Microphone;
  } catch (error) {
    const logError = yield* service('logError');
    yield call(logError, 'call microphone', error);
    yield* alertUser(ko.call.microphoneDenied);
    return null;
  }
}

/** ICE servers with fresh TURN credentials from the server; without them only direct paths are tried. */
function* fetchIceServers(): SagaIterator<RTCIceServer[]> {
  const http = yield* service('http');
  try {
    return (yield call([http, http.get], api.iceServers)) as IceServer[];
  } catch (error) {
    const logError = yield* service('logError');
    yield call(logError, 'call ice servers', error);
    return [];
  }
}

/**
 * Local candidates go out every 250 ms, 60 times (15 s), the first batch at once (SPEC.md §9).
 * Gathering rarely runs longer; any candidate found after that is sent as soon as it appears.
 */
function* sendCandidates(candidates: EventChannel<PeerEvent>, targetUserId: number): SagaIterator {
  for (let tick = 0; tick < LIMITS.candidateRepeats; tick += 1) {
    const batch: PeerEvent[] = yield flush(candidates);
    for (const event of batch) {
      if (event.type === 'candidate') yield* publish(app.callIceCandidate, { targetUserId, candidate: event.candidate });
    }
    yield delay(LIMITS.candidateIntervalMs);
  }
  while (true) {
    const event: PeerEvent = yield take(candidates);
    if (event.type === 'candidate') yield* publish(app.callIceCandidate, { targetUserId, candidate: event.candidate });
  }
}

function* runTimer(): SagaIterator {
  while (true) {
    yield delay(CALL_TIMER_TICK_MS);
    yield put(callActions.timerTicked());
  }
}

/** Caller, after initiate: the peer's answer decides whether negotiation starts. */
function* awaitAnswer(signals: EventChannel<SignalMessage>, peer: CallPeer): SagaIterator<Ending | 'accepted'> {
  while (true) {
    const { message, hangUp } = yield race({ message: take(signals), hangUp: take(callActions.hangUpClicked) });
    if (hangUp) return LOCAL_HANGUP;
    const { signal, event } = message as SignalMessage;
    const decision = decideSignal('outgoing', peer.userId, signal, event);
    switch (decision.kind) {
      case 'peerAccepted':
        return 'accepted';
      case 'peerRejected':
        return { sendHangup: false, navigateTo: CALL_PATH, alert: decision.busy ? ko.call.peerBusy : ko.call.peerRejected };
      case 'peerHungUp': {
        // The server ends an unanswered call and says why; without a reason only the ringing clears.
        const why = decision.reason === 'timeout' ? ko.call.noAnswer : decision.reason === 'unavailable' ? ko.call.unavailable : null;
        if (why === null) return QUIET_END;
        return { sendHangup: false, navigateTo: CALL_PATH, alert: why };
      }
      case 'ignore':
        yield* logSkipped(decision.reason);
        break;
      default:
        yield* logSkipped(`${signal} while waiting for an answer`);
    }
  }
}

type Choice = 'accept' | 'reject' | 'cancelled' | 'missed';

/** Callee, while the incoming overlay shows: accept, reject, the caller gives up, or it rings out. */
function* awaitChoice(signals: EventChannel<SignalMessage>, peer: CallPeer): SagaIterator<Choice> {
  while (true) {
    const { message, accept } = yield race({
      message: take(signals),
      accept: take(callActions.acceptClicked),
      reject: take(callActions.rejectClicked),
    });
    if (accept) return 'accept';
    if (!message) return 'reject';
    const { signal, event } = message as SignalMessage;
    const decision = decideSignal('incoming', peer.userId, signal, event);
    if (decision.kind === 'peerHungUp') return decision.reason === 'timeout' ? 'missed' : 'cancelled';
    yield* logSkipped(decision.kind === 'ignore' ? decision.reason : `${signal} while ringing`);
  }
}

interface Negotiation {
  peer: Peer;
  target: CallPeer;
  candidates: EventChannel<PeerEvent>;
  /** Remote candidates that came before the remote description. */
  pending: RTCIceCandidateInit[];
  sender: Task | null;
}

function* startSendingCandidates(n: Negotiation): SagaIterator {
  if (!n.sender) n.sender = yield fork(sendCandidates, n.candidates, n.target.userId);
}

function* addRemoteCandidate(n: Negotiation, candidate: RTCIceCandidateInit): SagaIterator {
  try {
    yield call([n.peer, n.peer.addIceCandidate], candidate);
  } catch (error) {
    yield* logSkipped(`invalid candidate: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function* applyRemoteDescription(n: Negotiation, description: RTCSessionDescriptionInit): SagaIterator {
  yield call([n.peer, n.peer.setRemoteDescription], description);
  const early = n.pending.splice(0);
  for (const candidate of early) yield* addRemoteCandidate(n, candidate);
}

/** One offer, answer or candidate from the peer, applied only where SPEC.md §4 allows it. */
function* applySignal(n: Negotiation, kind: 'offer' | 'answer' | 'candidate', event: CallEvent): SagaIterator {
  const { peer } = n;
  if (kind === 'offer') {
    const offer = toSessionDescription(event.sdp, 'offer');
    if (!offer) return yield* logSkipped('offer without a session description');
    if (!canApplyOffer(peer.signalingState)) return yield* logSkipped(`offer in signalling state ${peer.signalingState}`);
    yield* applyRemoteDescription(n, offer);
    const answer: RTCSessionDescriptionInit = yield call([peer, peer.createAnswer]);
    yield* publish(app.callAnswer, { targetUserId: n.target.userId, sdp: answer });
    yield* startSendingCandidates(n);
  } else if (kind === 'answer') {
    const answer = toSessionDescription(event.sdp, 'answer');
    if (!answer) return yield* logSkipped('answer without a session description');
    if (!canApplyAnswer(peer.signalingState)) return yield* logSkipped(`answer in signalling state ${peer.signalingState}`);
    yield* applyRemoteDescription(n, answer);
  } else {
    const candidate = toIceCandidate(event.candidate);
    if (!candidate) return yield* logSkipped('candidate payload is not an ICE candidate');
    const disposition = candidateDisposition(true, peer.hasRemoteDescription);
    if (disposition === 'queue') n.pending.push(candidate);
    else yield* addRemoteCandidate(n, candidate);
  }
}

/** From accept to hang-up: offer/answer, candidates, connection states, the timer. */
function* negotiate(signals: EventChannel<SignalMessage>, peer: Peer, target: CallPeer, role: 'caller' | 'callee'): SagaIterator<Ending> {
  const n: Negotiation = { peer, target, candidates: peerEventChannel(peer, ['candidate']), pending: [], sender: null };
  const states = peerEventChannel(peer, ['connectionState', 'iceConnectionState']);
  let timer: Task | null = null;
  try {
    if (role === 'caller') {
      const offer: RTCSessionDescriptionInit = yield call([peer, peer.createOffer]);
      yield* publish(app.callOffer, { targetUserId: target.userId, sdp: offer });
      yield* startSendingCandidates(n);
    }
    while (true) {
      const { message, state, hangUp } = yield race({
        message: take(signals),
        state: take(states),
        hangUp: take(callActions.hangUpClicked),
      });
      if (hangUp) return LOCAL_HANGUP;
      if (state) {
        const outcome = connectionOutcome((state as Exclude<PeerEvent, { type: 'candidate' }>).state);
        if (outcome === 'ended') return LOCAL_HANGUP;
        if (outcome === 'connected' && !timer) {
          yield put(callActions.connectionEstablished());
          timer = yield fork(runTimer);
        }
        continue;
      }
      const { signal, event } = message as SignalMessage;
      const decision = decideSignal(yield select(selectCallPhase), target.userId, signal, event);
      if (decision.kind === 'peerHungUp') return PEER_HANGUP;
      if (decision.kind === 'offer' || decision.kind === 'answer' || decision.kind === 'candidate') {
        yield* applySignal(n, decision.kind, event);
      } else {
        yield* logSkipped(decision.kind === 'ignore' ? decision.reason : `${signal} during a call`);
      }
    }
  } finally {
    if (timer) yield cancel(timer);
    if (n.sender) yield cancel(n.sender);
    n.candidates.close();
    states.close();
  }
}

/** Starts a ring tone and keeps the slice told whether it sounds or waits for the user's first tap. */
function* ring(tone: RingTone): SagaIterator {
  const ringer = yield* service('ringer');
  const started: RingStart = yield call([ringer, ringer.start], tone);
  if (started === 'unavailable') return;
  yield put(callActions.ringChanged({ tone, blocked: started === 'blocked' }));
  if (started !== 'blocked') return;
  yield call([ringer, ringer.whenUnblocked]);
  yield put(callActions.ringChanged({ tone, blocked: false }));
}

function* stopRinging(ringing: Task | null): SagaIterator {
  if (!ringing) return;
  yield cancel(ringing);
  const ringer = yield* service('ringer');
  yield call([ringer, ringer.stop]);
  yield put(callActions.ringChanged(null));
}

/** Mute and unmute follow the slice's flag for as long as the microphone is open. */
function* followMute(microphone: Microphone): SagaIterator {
  const apply = function* (): SagaIterator {
    const muted: boolean = yield select(selectCallMuted);
    microphone.setMuted(muted);
  };
  yield* apply();
  yield takeEvery(callActions.muteToggled, apply);
}

/**
 * Where the user goes after a call: the spec's flows start and end on /call, so the destination
 * applies there; a call carried on while chatting leaves the user on the screen they chose.
 */
function* navigateAfterCall(to: string): SagaIterator {
  const currentPath = yield* service('currentPath');
  if ((yield call(currentPath)) !== CALL_PATH) return;
  const navigate = yield* service('navigate');
  yield call(navigate, to);
}

/** One call, caller or callee, from the first ring to the last cleanup. */
function* runCall(signals: EventChannel<SignalMessage>, me: number, target: CallPeer, role: 'caller' | 'callee'): SagaIterator {
  let microphone: Microphone | null = null;
  let connection: Peer | null = null;
  let muting: Task | null = null;
  let ringing: Task | null = null;
  // What happens if the call is cut short (listener stopped): the server must hear of it.
  let ending: Ending = { sendHangup: true, navigateTo: null };
  try {
    if (role === 'caller') {
      yield put(callActions.outgoingStarted(target));
      microphone = yield* openMicrophone();
      if (!microphone) return (ending = QUIET_END);
      muting = yield fork(followMute, microphone);
      yield* publish(app.callInitiate, { targetUserId: target.userId, userId: me });
      ringing = yield fork(ring, 'ringback');
      const answer: Ending | 'accepted' = yield* awaitAnswer(signals, target);
      yield* stopRinging(ringing);
      ringing = null;
      if (answer !== 'accepted') {
        if (answer.alert) yield* alertUser(answer.alert);
        return (ending = answer);
      }
    } else {
      yield put(callActions.incomingReceived(target));
      ringing = yield fork(ring, 'ringing');
      const choice: Choice = yield* awaitChoice(signals, target);
      yield* stopRinging(ringing);
      ringing = null;
      if (choice === 'missed') yield put(callActions.callMissed(target));
      if (choice === 'cancelled' || choice === 'missed') return (ending = QUIET_END);
      if (choice === 'accept') microphone = yield* openMicrophone();
      if (!microphone) {
        // A denied microphone rejects too: it spares the caller a ring nobody will answer.
        yield* publish(app.callReject, { targetUserId: target.userId, userId: me });
        return (ending = QUIET_END);
      }
      yield* publish(app.callAccept, { targetUserId: target.userId, userId: me });
      muting = yield fork(followMute, microphone);
    }
    yield put(callActions.negotiationStarted());
    try {
      const iceServers: RTCIceServer[] = yield* fetchIceServers();
      const rtc = yield* service('rtc');
      connection = (yield call([rtc, rtc.createPeer], iceServers, microphone)) as Peer;
      ending = yield* negotiate(signals, connection, target, role);
    } catch (error) {
      const logError = yield* service('logError');
      yield call(logError, 'call failed', error);
      yield* alertUser(ko.call.callFailed);
      ending = LOCAL_HANGUP;
    }
  } finally {
    yield* stopRinging(ringing);
    if (muting) yield cancel(muting);
    connection?.close();
    microphone?.stop();
    if (ending.sendHangup) yield* publish(app.callHangup, { targetUserId: target.userId });
    yield put(callActions.callEnded());
    if (ending.navigateTo && !(yield cancelled())) yield* navigateAfterCall(ending.navigateTo);
  }
}

/**
 * Idle between calls: waits for the user to call someone or for someone to call. While a call
 * runs this loop is inside runCall, so a second call cannot start (SPEC.md §4).
 */
function* callListener(me: number): SagaIterator {
  const stomp = yield* service('callStomp');
  const logError = yield* service('logError');
  const signals: EventChannel<SignalMessage> = yield call(callSignalChannel, stomp, me, logError);
  try {
    while (true) {
      const { start, message } = yield race({ start: take(callActions.callRequested), message: take(signals) });
      if (start) {
        const target = (start as PayloadAction<CallPeer>).payload;
        if (target.userId === me) continue;
        yield call(runCall, signals, me, target, 'caller');
        continue;
      }
      const { signal, event } = message as SignalMessage;
      const decision = decideSignal('idle', null, signal, event);
      if (decision.kind === 'ring') yield call(runCall, signals, me, decision.peer, 'callee');
      else yield* logSkipped(decision.kind === 'ignore' ? decision.reason : `${signal} with no call`);
    }
  } finally {
    signals.close();
    // No screen listens for calls any more: let the connection go rather than keep reconnecting.
    stomp.deactivate().catch((error) => logError('call stomp', error));
  }
}

/** Where the missed-call line is kept, per user, so it survives a reload until dismissed. */
export const missedCallKey = (userId: number) => `missedCall:${userId}`;

function* restoreMissedCall(userId: number): SagaIterator {
  const storage = yield* service('storage');
  try {
    const peer = JSON.parse(storage.getItem(missedCallKey(userId)) ?? 'null') as Partial<CallPeer> | null;
    if (peer && typeof peer.userId === 'number' && typeof peer.name === 'string') yield put(callActions.callMissed({ userId: peer.userId, name: peer.name }));
  } catch {
    storage.removeItem(missedCallKey(userId));
  }
}

/** Keeps the missed-call line in local storage while it shows. */
function* rememberMissedCalls(userId: number): SagaIterator {
  const storage = yield* service('storage');
  yield takeEvery(callActions.callMissed, (action: PayloadAction<CallPeer>) => storage.setItem(missedCallKey(userId), JSON.stringify(action.payload)));
  yield takeEvery(callActions.missedCallDismissed, () => storage.removeItem(missedCallKey(userId)));
}

function* whileListening(userId: number): SagaIterator {
  yield* restoreMissedCall(userId);
  yield fork(rememberMissedCalls, userId);
  yield call(callListener, userId);
}

export function* callSaga(): SagaIterator {
  while (true) {
    const { payload }: PayloadAction<{ userId: number }> = yield take(callActions.listenRequested);
    const listener: Task = yield fork(whileListening, payload.userId);
    yield take(callActions.listenStopped);
    yield cancel(listener);
  }
}
