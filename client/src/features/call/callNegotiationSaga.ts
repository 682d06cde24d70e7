// A call from accept to hang-up (docs/spec.md §4 Call, §9; docs/protocol.md /app/call/*): the
// offer and answer, candidates both ways, the connection's state and the in-call timer, the
// peer's media-state and reconnects, an ICE restart when the media path fails with the socket
// open, and a resume (docs/protocol.md survival), which the call's state machine answers with a
// new connection. Which offer, answer or candidate may be applied in which RTC signalling state
// is common/signalling.ts.
import type { Channel, EventChannel, Task } from 'redux-saga';
import { call, cancel, delay, flush, fork, put, race, select, take, type SagaGenerator } from 'typed-redux-saga';
import { app } from '@common/destinations';
import type { CallEvent } from '@common/payloads';
import { LIMITS } from '@common/rules';
import { canApplyAnswer, canApplyOffer, toIceCandidate, toSessionDescription } from '@common/signalling';
import type { Peer, PeerEvent } from '../../services/rtc';
import { peerEventChannel } from './callMediaSaga';
import { candidateDisposition, connectionOutcome, ICE_RESTART_AFTER_MS, LOCAL_HANGUP, MAX_ICE_RESTARTS, peerHangupEnding, type Ending } from './callOutcomeRules';
import { logSkipped, type SignalMessage } from './callQueuesSaga';
import { decideSignal, skipReason, type CallPeer, type SignalDecision } from './callRules';
import { publish } from './callSignallingSaga';
import { callActions, selectCall, selectCallPhase } from './callSlice';

/** The in-call timer's tick (docs/spec.md §9). */
export const CALL_TIMER_TICK_MS = 1000;

type CandidateEvent = Extract<PeerEvent, { type: 'candidate' }>;

interface Negotiation {
  peer: Peer;
  role: 'caller' | 'callee';
  target: CallPeer;
  candidates: EventChannel<CandidateEvent>;
  /** Remote candidates that came before the remote description. */
  pending: RTCIceCandidateInit[];
  sender: Task | null;
  /** ICE restarts since the connection was last up. */
  restarts: number;
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
    // Both sides sent an offer (an ICE restart each): the caller's wins (docs/protocol.md); the
    // callee's browser rolls its own back when it applies the caller's.
    if (peer.signalingState === 'have-local-offer' && n.role === 'caller') return yield* logSkipped('offer glare: the caller keeps its own');
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

/** An ICE restart once the media path has stayed failed or disconnected for ICE_RESTART_AFTER_MS with the socket open. */
function* restartIceLater(n: Negotiation): SagaGenerator<void> {
  yield* delay(ICE_RESTART_AFTER_MS);
  // While the peer is away the server holds the call; its return brings a resume instead.
  if ((yield* select(selectCall)).peerReconnecting) return;
  if (n.peer.signalingState !== 'stable') return;
  n.restarts += 1;
  const offer = yield* call([n.peer, n.peer.createOffer], { iceRestart: true });
  yield* publish(app.callOffer, { targetUserId: n.target.userId, sdp: offer });
}

/** Video added to a session that had none: a new offer, once the last round is over (docs/protocol.md renegotiation). */
function* renegotiate(n: Negotiation): SagaGenerator<void> {
  if (n.peer.signalingState !== 'stable') return yield* logSkipped(`renegotiation in signalling state ${n.peer.signalingState}`);
  const offer = yield* call([n.peer, n.peer.createOffer]);
  yield* publish(app.callOffer, { targetUserId: n.target.userId, sdp: offer });
}

/** How a negotiation ended: the call is over, or the server resumed it and the connection is rebuilt. */
export type NegotiationEnd = { ending: Ending } | { resume: Extract<SignalDecision, { kind: 'resume' }> };

/**
 * From accept to hang-up: offer/answer, candidates, connection states, the timer. The side with
 * the role caller makes the first offer (after a resume, the role the server named).
 */
export function* negotiate(signals: EventChannel<SignalMessage>, hangUps: Channel<{ type: string }>, peer: Peer, target: CallPeer, role: 'caller' | 'callee'): SagaGenerator<NegotiationEnd> {
  const n: Negotiation = { peer, role, target, candidates: peerEventChannel(peer, ['candidate']), pending: [], sender: null, restarts: 0 };
  const states = peerEventChannel(peer, ['connectionState', 'iceConnectionState', 'negotiationNeeded']);
  let timer: Task | null = null;
  let iceRestart: Task | null = null;
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
        hangUp: take(hangUps),
      });
      if (hangUp) return { ending: LOCAL_HANGUP };
      if (state?.type === 'negotiationNeeded') {
        yield* renegotiate(n);
        continue;
      }
      if (state) {
        const outcome = connectionOutcome(state.state);
        if (outcome === 'ended') return { ending: LOCAL_HANGUP };
        if (outcome === 'interrupted') {
          // Restarts that all failed (no path at all, not a network change): the call fails as before.
          if (state.state === 'failed' && n.restarts >= MAX_ICE_RESTARTS && !(yield* select(selectCall)).peerReconnecting) return { ending: LOCAL_HANGUP };
          if (!iceRestart?.isRunning()) iceRestart = yield* fork(restartIceLater, n);
        }
        if (outcome === 'connected') {
          if (iceRestart) yield* cancel(iceRestart);
          iceRestart = null;
          n.restarts = 0;
          if (!timer) {
            yield* put(callActions.connectionEstablished());
            timer = yield* fork(runTimer);
          }
        }
        continue;
      }
      // One of the three always wins the race.
      if (!message) continue;
      const decision = decideSignal(yield* select(selectCallPhase), target.userId, message.signal, message.event);
      if (decision.kind === 'peerHungUp') return { ending: peerHangupEnding(decision.reason) };
      if (decision.kind === 'resume') return { resume: decision };
      if (decision.kind === 'peerMedia') yield* put(callActions.peerMediaChanged(decision.state));
      else if (decision.kind === 'peerReconnecting') yield* put(callActions.peerReconnectingChanged(true));
      else if (decision.kind === 'offer' || decision.kind === 'answer' || decision.kind === 'candidate') {
        yield* applySignal(n, decision.kind, message.event);
      } else {
        yield* logSkipped(skipReason(decision, message.signal, 'during a call'));
      }
    }
  } finally {
    if (timer) yield* cancel(timer);
    if (iceRestart) yield* cancel(iceRestart);
    if (n.sender) yield* cancel(n.sender);
    n.candidates.close();
    states.close();
  }
}
