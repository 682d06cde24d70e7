// The pure decisions of a call under way (docs/spec.md §4 Call, §9): what a signal means for a
// call still ringing, how a call ends and where the user goes then, what a connection state
// means for the call, and the timer text. Apart from callRules.ts (what the listener and the
// call UI of every screen decide) because only the active call's code, in the `in-call` chunk,
// needs them (docs/architecture.md §5 "Loading"). No I/O here: the sagas ask, these functions answer.
import type { CallSignal } from '@common/destinations';
import type { CallEvent } from '@common/payloads';
import { callDuration } from '@common/system-text';
import { skipReason, type CallEndSummary, type SignalDecision } from './callRules';

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

/** mm:ss, minutes not capped at 59 so an hour-long call reads 60:00. */
export function formatCallDuration(totalSeconds: number): string {
  const seconds = Math.max(0, Math.floor(totalSeconds));
  const mm = String(Math.floor(seconds / 60)).padStart(2, '0');
  const ss = String(seconds % 60).padStart(2, '0');
  return `${mm}:${ss}`;
}

/** Where the spec's call flows start and end (docs/spec.md §2 Call screen), and where a hang-up goes. */
export const CALL_PATH = '/call';
export const CHAT_LIST_PATH = '/chat-list';

/** The alerts a call can end with; their texts are koCall's (i18n/koCall.ts) of the same names. */
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

/** Cut short from outside (the listener stopped): the server must hear of it, the screen stays. */
export const CUT_SHORT: Ending = { sendHangup: true, navigateTo: null };

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
