// The group call's decisions, as pure functions (issue 25): who may start one, who is speaking,
// what a refusal or an end says.
import type { GroupCallRefusal, GroupCallSignal } from '@common/group-call';
import { koGroupCall } from '../../i18n/koGroupCall';

const t = koGroupCall;

/** A group call needs a room of two or more members (issue 25). */
export function canStartGroupCall(memberCount: number): boolean {
  return memberCount >= 2;
}

/** Below this audio level (0..1, RTCInboundRtpStreamStats.audioLevel) nobody counts as speaking. */
export const SPEAKING_LEVEL = 0.03;

/**
 * The participant to highlight: the loudest one above SPEAKING_LEVEL. The one highlighted now
 * keeps it while within 70 % of the loudest, so that two voices of about the same level do not
 * make the highlight flicker between them.
 */
export function pickSpeaker(levels: ReadonlyArray<{ userId: number; level: number }>, current: number | null): number | null {
  let loudest: { userId: number; level: number } | null = null;
  for (const entry of levels) if (entry.level >= SPEAKING_LEVEL && (!loudest || entry.level > loudest.level)) loudest = entry;
  if (!loudest) return null;
  const kept = levels.find((entry) => entry.userId === current);
  if (kept && kept.level >= SPEAKING_LEVEL && kept.level >= loudest.level * 0.7) return current;
  return loudest.userId;
}

const REFUSAL_TEXT: Record<GroupCallRefusal, string> = {
  full: t.full,
  'not-member': t.notMember,
  'no-call': t.ended,
  'already-on': t.failed,
  unavailable: t.unavailable,
  'media-server-lost': t.mediaServerLost,
};

/** What the user is told of a refusal or an end: the server's Korean text, else ours. */
export function farewellText(signal: Extract<GroupCallSignal, { kind: 'refused' | 'ended' }>): string | null {
  if (signal.message) return signal.message;
  if (signal.kind === 'refused') return REFUSAL_TEXT[signal.reason];
  return signal.reason === 'media-server-lost' ? t.mediaServerLost : null;
}

/** Whether a signal is about this call (a refusal of a start names no call yet, only the room). */
export function concernsCall(signal: GroupCallSignal, chatRoomId: number, callId: string | null): boolean {
  if (signal.kind === 'refused') return signal.chatRoomId === chatRoomId && (signal.callId === null || callId === null || signal.callId === callId);
  if (signal.kind === 'joined') return signal.chatRoomId === chatRoomId;
  return callId !== null && signal.callId === callId;
}
