// The pure decisions of a call that the listener and the call UI of every signed-in screen make
// (docs/spec.md §4 Call, §9): which signal applies in which call phase, the status line, what the
// peer's video area shows, the call kept across a reload. A call under way decides the rest in
// callOutcomeRules.ts; which signal applies in which RTC signalling state is common/signalling.ts,
// shared with the harness.
// No I/O here: the sagas ask, these functions answer.
import type { CallMedia } from '@common/api';
import type { CallSignal } from '@common/destinations';
import type { CallEvent } from '@common/payloads';

/** Where this user's call stands. `outgoing`: initiated, waiting for the peer's answer. */
export type CallPhase = 'idle' | 'outgoing' | 'incoming' | 'connecting' | 'connected';

export interface CallPeer {
  userId: number;
  name: string;
}

/** One side's microphone, camera and screen share (docs/protocol.md media-state). */
export interface PeerMediaState {
  muted: boolean;
  camera: boolean;
  screen: boolean;
}

/** The end screen (docs/spec.md §4 Call): the peer and the line that says why or how long. */
export interface CallEndSummary {
  peerName: string;
  text: string;
}

/** A new call may start only when none is active (docs/spec.md §4). */
export function canStartCall(phase: CallPhase): boolean {
  return phase === 'idle';
}

/** The back button of /call is disabled while any call is under way. */
export function isCallActive(phase: CallPhase): boolean {
  return phase !== 'idle';
}

/**
 * The status line of the call screen (docs/spec.md §4 Call): 호출 중… until the callee's device
 * rings, 전화 거는 중… while it rings, 연결 중… from accept until media flows, then 통화 중 (or
 * the peer reconnecting).
 */
export type CallStatus = 'calling' | 'ringing' | 'connecting' | 'inCall' | 'peerReconnecting';
export function callStatus(phase: CallPhase, peerRinging: boolean, peerReconnecting: boolean): CallStatus {
  if (phase === 'outgoing') return peerRinging ? 'ringing' : 'calling';
  if (phase === 'connected') return peerReconnecting ? 'peerReconnecting' : 'inCall';
  if (peerReconnecting) return 'peerReconnecting';
  return 'connecting';
}

/** What the peer's video area shows: its video while the camera or the screen is on, else the avatar. */
export function showsPeerVideo(media: CallMedia, peerMedia: PeerMediaState | null): boolean {
  if (peerMedia) return peerMedia.camera || peerMedia.screen;
  return media === 'video';
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
  | { kind: 'peerRinging' }
  | { kind: 'peerMedia'; state: PeerMediaState }
  | { kind: 'peerReconnecting' }
  | { kind: 'resume'; peer: CallPeer; role: 'caller' | 'callee'; media: CallMedia }
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
  // A resume with no call here: this page was reloaded during the call (docs/protocol.md survival).
  if (signal === 'resume' && phase === 'idle') {
    if (!event.role) return { kind: 'ignore', reason: 'resume without a role' };
    return { kind: 'resume', peer: { userId: event.userId, name: event.name ?? String(event.userId) }, role: event.role, media: event.media ?? 'audio' };
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
    case 'ringing':
      return phase === 'outgoing' ? { kind: 'peerRinging' } : { kind: 'ignore', reason: 'ringing outside an outgoing call' };
    case 'media-state':
      return phase === 'connecting' || phase === 'connected'
        ? { kind: 'peerMedia', state: { muted: event.muted === true, camera: event.camera === true, screen: event.screen === true } }
        : { kind: 'ignore', reason: 'media-state before the call was accepted' };
    case 'peer-reconnecting':
      return phase === 'connecting' || phase === 'connected' ? { kind: 'peerReconnecting' } : { kind: 'ignore', reason: 'peer-reconnecting outside an active call' };
    case 'resume':
      if (phase !== 'connecting' && phase !== 'connected') return { kind: 'ignore', reason: 'resume outside an active call' };
      if (!event.role) return { kind: 'ignore', reason: 'resume without a role' };
      return { kind: 'resume', peer: { userId: event.userId, name: event.name ?? String(event.userId) }, role: event.role, media: event.media ?? 'audio' };
  }
}

/** How long the end screen shows before the user is back where they were. */
export const END_SCREEN_MS = 3000;
/** Why a signal that changes nothing is skipped (for the log). */
export function skipReason(decision: SignalDecision, signal: CallSignal, where: string): string {
  return decision.kind === 'ignore' ? decision.reason : `${signal} ${where}`;
}

/** The missed-call line kept in storage, or null when there is none or it is not a peer. Throws when the text is not JSON. */
export function parseMissedCall(stored: string | null): CallPeer | null {
  const peer = JSON.parse(stored ?? 'null') as Partial<CallPeer> | null;
  return peer && typeof peer.userId === 'number' && typeof peer.name === 'string' ? { userId: peer.userId, name: peer.name } : null;
}

/** Where the call this page is in is kept (storage), so that a reload can name the peer when the server resumes it. */
export const activeCallKey = (userId: number) => `activeCall:${userId}`;

/** The call the page was in, kept so a reload can name the peer on resume. Throws when the text is not JSON. */
export function parseActiveCall(stored: string | null): CallPeer | null {
  return parseMissedCall(stored);
}
