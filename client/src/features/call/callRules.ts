// The pure decisions of a voice call (SPEC.md §4 Call, §9): which signal applies in which
// call phase, what a connection state means for the call, and the timer text. Which signal
// applies in which RTC signalling state is common/signalling.ts, shared with the harness.
// No I/O here: the saga asks, these functions answer.
import type { CallSignal } from '@common/destinations';
import type { CallEvent } from '@common/payloads';

/** Where this user's call stands. `outgoing`: initiated, waiting for the peer's answer. */
export type CallPhase = 'idle' | 'outgoing' | 'incoming' | 'connecting' | 'connected';

export interface CallPeer {
  userId: number;
  name: string;
}

/** A new call may start only when none is active (SPEC.md §4). */
export function canStartCall(phase: CallPhase): boolean {
  return phase === 'idle';
}

/** The back button of /call is disabled while any call is under way. */
export function isCallActive(phase: CallPhase): boolean {
  return phase !== 'idle';
}

export type CandidateDisposition = 'apply' | 'queue' | 'skip';

/**
 * A remote candidate is added once the connection has the remote description. One that arrives
 * earlier (the offer or answer is still on its way) waits in a queue; with no connection at all
 * there is nothing to add it to, so it is skipped (and logged by the caller).
 */
export function candidateDisposition(hasConnection: boolean, hasRemoteDescription: boolean): CandidateDisposition {
  if (!hasConnection) return 'skip';
  return hasRemoteDescription ? 'apply' : 'queue';
}

export type ConnectionOutcome = 'connected' | 'ended' | 'pending';

/**
 * Connected or completed means the call is live (in-call view, timer starts); failed or
 * disconnected ends it with a hang-up; anything else (new, checking, connecting) keeps waiting.
 */
export function connectionOutcome(state: RTCPeerConnectionState | RTCIceConnectionState): ConnectionOutcome {
  switch (state) {
    case 'connected':
    case 'completed':
      return 'connected';
    case 'failed':
    case 'disconnected':
      return 'ended';
    default:
      return 'pending';
  }
}

/** mm:ss, minutes not capped at 59 so an hour-long call reads 60:00. */
export function formatCallDuration(totalSeconds: number): string {
  const seconds = Math.max(0, Math.floor(totalSeconds));
  const mm = String(Math.floor(seconds / 60)).padStart(2, '0');
  const ss = String(seconds % 60).padStart(2, '0');
  return `${mm}:${ss}`;
}

/** What the saga does with a signal from the server, given where the call stands. */
export type SignalDecision =
  | { kind: 'ring'; peer: CallPeer }
  | { kind: 'peerAccepted' }
  | { kind: 'peerRejected'; busy: boolean }
  | { kind: 'peerHungUp'; unanswered: boolean; reason?: CallEvent['reason'] }
  | { kind: 'offer' }
  | { kind: 'answer' }
  | { kind: 'candidate' }
  | { kind: 'ignore'; reason: string };

/**
 * Routes one call signal. Signals from anyone but the current peer are stale or stray and are
 * ignored; a second incoming call while one is active is ignored too (the server already
 * answers that caller "busy").
 */
export function decideSignal(phase: CallPhase, peerUserId: number | null, signal: CallSignal, event: CallEvent): SignalDecision {
  if (signal === 'incoming') {
    if (phase !== 'idle') return { kind: 'ignore', reason: 'a call is already active' };
    return { kind: 'ring', peer: { userId: event.userId, name: event.name ?? String(event.userId) } };
  }
  if (phase === 'idle' || peerUserId === null) return { kind: 'ignore', reason: `no call for ${signal}` };
  if (event.userId !== peerUserId) return { kind: 'ignore', reason: `${signal} from a user who is not the peer` };
  switch (signal) {
    case 'accepted':
      return phase === 'outgoing' ? { kind: 'peerAccepted' } : { kind: 'ignore', reason: 'accepted outside an outgoing call' };
    case 'rejected':
      // A rejection ends only a call the peer has not answered yet; "busy" comes the same way.
      return phase === 'outgoing'
        ? { kind: 'peerRejected', busy: event.reason === 'busy' }
        : { kind: 'ignore', reason: 'rejected outside an outgoing call' };
    case 'hangup':
      return { kind: 'peerHungUp', unanswered: phase === 'incoming' || phase === 'outgoing', ...(event.reason ? { reason: event.reason } : {}) };
    case 'offer':
      return phase === 'connecting' || phase === 'connected' ? { kind: 'offer' } : { kind: 'ignore', reason: 'offer before the call was accepted' };
    case 'answer':
      return phase === 'connecting' || phase === 'connected' ? { kind: 'answer' } : { kind: 'ignore', reason: 'answer before the call was accepted' };
    case 'ice-candidate':
      return phase === 'connecting' || phase === 'connected' ? { kind: 'candidate' } : { kind: 'ignore', reason: 'candidate before the call was accepted' };
  }
}
