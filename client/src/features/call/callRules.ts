// The pure decisions of a voice call (docs/spec.md §4 Call, §9): which signal applies in which
// call phase, what it means for a call still ringing, how a call ends and where the user goes
// then, what a connection state means for the call, and the timer text. Which signal applies in
// which RTC signalling state is common/signalling.ts, shared with the harness.
// No I/O here: the sagas ask, these functions answer.
import type { CallMedia } from '@common/api';
import type { CallSignal } from '@common/destinations';
import type { CallEvent } from '@common/payloads';
import { callDuration } from '@common/system-text';

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
 * Connected or completed means the call is live (in-call view, timer starts). Failed or
 * disconnected no longer ends the call (docs/protocol.md survival): the media path is
 * interrupted and is restarted (ICE restart) or rebuilt (resume); closed ends it. Anything else
 * (new, checking, connecting) keeps waiting.
 */
export type ConnectionOutcomeOrInterrupted = ConnectionOutcome | 'interrupted';
export function connectionOutcome(state: RTCPeerConnectionState | RTCIceConnectionState): ConnectionOutcomeOrInterrupted {
  switch (state) {
    case 'connected':
    case 'completed':
      return 'connected';
    case 'failed':
    case 'disconnected':
      return 'interrupted';
    case 'closed':
      return 'ended';
    default:
      return 'pending';
  }
}

/** How long ICE may stay failed or disconnected with the socket open before an ICE restart (docs/protocol.md). */
export const ICE_RESTART_AFTER_MS = 2000;
/** ICE restarts tried before a connection that stays failed ends the call (no path at all, not a network change). */
export const MAX_ICE_RESTARTS = 2;

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

/** Where the spec's call flows start and end (docs/spec.md §2 Call screen), and where a hang-up goes. */
export const CALL_PATH = '/call';
export const CHAT_LIST_PATH = '/chat-list';

/** The alerts a call can end with; their texts are ko.call's of the same names. */
export type CallEndAlert = 'peerBusy' | 'peerRejected' | 'noAnswer' | 'unavailable';
/** Why a call ended, for the end screen: an alert's text, or the connection lost for good. */
export type CallEndReason = CallEndAlert | 'connectionLost';

/** How a call ended, which decides what is sent and where the user goes. */
export interface Ending {
  /** Tell the peer with /app/call/hangup. */
  sendHangup: boolean;
  navigateTo: string | null;
  /** Told to the user once the ring-back tone is silent. */
  alert?: CallEndAlert;
  /** Shown on the end screen instead of the duration. */
  reason?: CallEndReason;
}

/** Ended before it began for the peer (no microphone, the caller gave up): nothing to tell, nowhere to go. */
export const QUIET_END: Ending = { sendHangup: false, navigateTo: null };
/** This user hung up, or the connection failed: the peer is told, the user goes to the chat list. */
export const LOCAL_HANGUP: Ending = { sendHangup: true, navigateTo: CHAT_LIST_PATH };
/** The peer hung up: nothing to echo back. */
export const PEER_HANGUP: Ending = { sendHangup: false, navigateTo: CHAT_LIST_PATH };
/** The server ended the call when the peer's reconnect grace ran out (docs/protocol.md connection-lost). */
export const CONNECTION_LOST: Ending = { sendHangup: false, navigateTo: CHAT_LIST_PATH, reason: 'connectionLost' };

/** The hang-up a connected call ended with, by the server's reason. */
export function peerHangupEnding(reason: CallEvent['reason']): Ending {
  return reason === 'connection-lost' ? CONNECTION_LOST : PEER_HANGUP;
}

/**
 * The end screen's line (docs/spec.md §4 Call): why the call ended when there is a reason, else
 * '통화 종료 · mm:ss' for a call that connected, else '통화 종료'. A call that ended before it
 * began for the peer (QUIET_END) shows none.
 */
export function endSummary(ending: Ending, peerName: string, connectedOnce: boolean, elapsedSeconds: number, texts: Record<CallEndReason, string> & { ended: string }): CallEndSummary | null {
  if (ending === QUIET_END) return null;
  const reason = ending.reason ?? ending.alert;
  if (reason) return { peerName, text: texts[reason] };
  return { peerName, text: connectedOnce ? `${texts.ended} · ${callDuration(elapsedSeconds)}` : texts.ended };
}

/** How long the end screen shows before the user is back where they were. */
export const END_SCREEN_MS = 3000;
/** Cut short from outside (the listener stopped): the server must hear of it, the screen stays. */
export const CUT_SHORT: Ending = { sendHangup: true, navigateTo: null };

/** Why a signal that changes nothing is skipped (for the log). */
export function skipReason(decision: SignalDecision, signal: CallSignal, where: string): string {
  return decision.kind === 'ignore' ? decision.reason : `${signal} ${where}`;
}

export type AnswerOutcome = { kind: 'accepted' } | { kind: 'ringing' } | { kind: 'ended'; ending: Ending } | { kind: 'skip'; reason: string };

/**
 * The caller, after initiate, given the peer's signal: accepted starts negotiation; a
 * rejection ("busy" too) ends the call on /call with the reason; a hang-up by the server of an
 * unanswered call says why, and one without a reason only clears the ringing.
 */
export function answerOutcome(decision: SignalDecision, signal: CallSignal): AnswerOutcome {
  switch (decision.kind) {
    case 'peerAccepted':
      return { kind: 'accepted' };
    case 'peerRejected':
      return { kind: 'ended', ending: { sendHangup: false, navigateTo: CALL_PATH, alert: decision.busy ? 'peerBusy' : 'peerRejected' } };
    case 'peerRinging':
      return { kind: 'ringing' };
    case 'peerHungUp': {
      const why = decision.reason === 'timeout' ? 'noAnswer' : decision.reason === 'unavailable' ? 'unavailable' : null;
      return { kind: 'ended', ending: why === null ? QUIET_END : { sendHangup: false, navigateTo: CALL_PATH, alert: why } };
    }
    default:
      return { kind: 'skip', reason: skipReason(decision, signal, 'while waiting for an answer') };
  }
}

export type RingingOutcome = { kind: 'missed' } | { kind: 'cancelled' } | { kind: 'skip'; reason: string };

/** The callee, while it rings, given the caller's signal: a hang-up for the server's timeout is a missed call, any other the caller giving up. */
export function ringingOutcome(decision: SignalDecision, signal: CallSignal): RingingOutcome {
  if (decision.kind === 'peerHungUp') return decision.reason === 'timeout' ? { kind: 'missed' } : { kind: 'cancelled' };
  return { kind: 'skip', reason: skipReason(decision, signal, 'while ringing') };
}

/**
 * Where the user goes after a call: the spec's flows start and end on /call, so the ending's
 * destination applies there; a call carried on while chatting leaves the user on the screen they chose.
 */
export function pathAfterCall(ending: Ending, currentPath: string): string | null {
  return ending.navigateTo !== null && currentPath === CALL_PATH ? ending.navigateTo : null;
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
