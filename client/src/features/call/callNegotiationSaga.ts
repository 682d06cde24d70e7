// A call from accept to hang-up (docs/spec.md §4 Call, §9; docs/protocol.md /app/call/*): the
// offer and answer, candidates both ways, the connection's state and the in-call timer. Which
// offer, answer or candidate may be applied in which RTC signalling state is common/signalling.ts.
import type { EventChannel, Task } from 'redux-saga';
import { call, cancel, delay, flush, fork, put, race, select, take, type SagaGenerator } from 'typed-redux-saga';
import { app } from '@common/destinations';
import type { CallEvent } from '@common/payloads';
import { LIMITS } from '@common/rules';
import { canApplyAnswer, canApplyOffer, toIceCandidate, toSessionDescription } from '@common/signalling';
import type { Peer, PeerEvent } from '../../services/rtc';
import { peerEventChannel } from './callMediaSaga';
import { candidateDisposition, connectionOutcome, decideSignal, LOCAL_HANGUP, PEER_HANGUP, skipReason, type CallPeer, type Ending } from './callRules';
import { logSkipped, publish, type SignalMessage } from './callSignallingSaga';
import { callActions, selectCallPhase } from './callSlice';

/** The in-call timer's tick (docs/spec.md §9). */
export const CALL_TIMER_TICK_MS = 1000;

type CandidateEvent = Extract<PeerEvent, { type: 'candidate' }>;

interface Negotiation {
  peer: Peer;
  target: CallPeer;
  candidates: EventChannel<CandidateEvent>;
  /** Remote candidates that came before the remote description. */
  pending: RTCIceCandidateInit[];
  sender: Task | null;
}

/**
 * Local candidates go out every 250 ms, 60 times (15 s), the first batch at once (docs/spec.md §9).
 * Gathering rarely runs longer; any candidate found after that is sent as soon as it appears.
 */
function* sendCandidates(candidates: EventChannel<CandidateEvent>, targetUserId: number): SagaGenerator<void> {
  for (let tick = 0; tick < LIMITS.candidateRepeats; tick += 1) {
    const batch = yield* flush(candidates);
    for (const event of batch) yield* publish(app.callIceCandidate, { targetUserId, candidate: event.candidate });
    yield* delay(LIMITS.candidateIntervalMs);
  }
  for (;;) {
    const event = yield* take(candidates);
    yield* publish(app.callIceCandidate, { targetUserId, candidate: event.candidate });
  }
}

function* runTimer(): SagaGenerator<void> {
  for (;;) {
    yield* delay(CALL_TIMER_TICK_MS);
    yield* put(callActions.timerTicked());
  }
}

function* startSendingCandidates(n: Negotiation): SagaGenerator<void> {
  if (!n.sender) n.sender = yield* fork(sendCandidates, n.candidates, n.target.userId);
}

function* addRemoteCandidate(n: Negotiation, candidate: RTCIceCandidateInit): SagaGenerator<void> {
  try {
    yield* call([n.peer, n.peer.addIceCandidate], candidate);
  } catch (error) {
    yield* logSkipped(`invalid candidate: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function* applyRemoteDescription(n: Negotiation, description: RTCSessionDescriptionInit): SagaGenerator<void> {
  yield* call([n.peer, n.peer.setRemoteDescription], description);
  const early = n.pending.splice(0);
  for (const candidate of early) yield* addRemoteCandidate(n, candidate);
}

/** One offer, answer or candidate from the peer, applied only where docs/spec.md §4 allows it. */
function* applySignal(n: Negotiation, kind: 'offer' | 'answer' | 'candidate', event: CallEvent): SagaGenerator<void> {
  const { peer } = n;
  if (kind === 'offer') {
    const offer = toSessionDescription(event.sdp, 'offer');
    if (!offer) return yield* logSkipped('offer without a session description');
    if (!canApplyOffer(peer.signalingState)) return yield* logSkipped(`offer in signalling state ${peer.signalingState}`);
    yield* applyRemoteDescription(n, offer);
    const answer = yield* call([peer, peer.createAnswer]);
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
export function* negotiate(signals: EventChannel<SignalMessage>, peer: Peer, target: CallPeer, role: 'caller' | 'callee'): SagaGenerator<Ending> {
  const n: Negotiation = { peer, target, candidates: peerEventChannel(peer, ['candidate']), pending: [], sender: null };
  const states = peerEventChannel(peer, ['connectionState', 'iceConnectionState']);
  let timer: Task | null = null;
  try {
    if (role === 'caller') {
      const offer = yield* call([peer, peer.createOffer]);
      yield* publish(app.callOffer, { targetUserId: target.userId, sdp: offer });
      yield* startSendingCandidates(n);
    }
    for (;;) {
      const { message, state, hangUp } = yield* race({
        message: take(signals),
        state: take(states),
        hangUp: take(callActions.hangUpClicked),
      });
      if (hangUp) return LOCAL_HANGUP;
      if (state) {
        const outcome = connectionOutcome(state.state);
        if (outcome === 'ended') return LOCAL_HANGUP;
        if (outcome === 'connected' && !timer) {
          yield* put(callActions.connectionEstablished());
          timer = yield* fork(runTimer);
        }
        continue;
      }
      // One of the three always wins the race.
      if (!message) continue;
      const decision = decideSignal(yield* select(selectCallPhase), target.userId, message.signal, message.event);
      if (decision.kind === 'peerHungUp') return PEER_HANGUP;
      if (decision.kind === 'offer' || decision.kind === 'answer' || decision.kind === 'candidate') {
        yield* applySignal(n, decision.kind, message.event);
      } else {
        yield* logSkipped(skipReason(decision, message.signal, 'during a call'));
      }
    }
  } finally {
    if (timer) yield* cancel(timer);
    if (n.sender) yield* cancel(n.sender);
    n.candidates.close();
    states.close();
  }
}
