// Decoders for what the server sends about group calls (common/group-call.ts): the state on the
// room's events topic and from GET api.groupCall, the ring on group-incoming and the SFU's
// answers on group-signal (group-signal-events.ts: only a call in progress reads them, so the
// screens' chunk does not carry them). Like common/events.ts: each answers the typed value or null.
import { CALL_MEDIA, type CallMedia } from './api';
import type { GroupCallParticipant, GroupCallState, GroupIncomingEvent } from './group-call';
import { toPositiveId } from './rules';

type Json = Record<string, unknown>;
export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
export const isMedia = (v: unknown): v is CallMedia => (CALL_MEDIA as readonly unknown[]).includes(v);
export const isCallId = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length <= 100;

function decodeParticipant(value: unknown): GroupCallParticipant | null {
  if (!isObject(value)) return null;
  const userId = toPositiveId(value.userId);
  if (userId === null || typeof value.name !== 'string') return null;
  const participant: GroupCallParticipant = { userId, name: value.name, muted: value.muted === true, camera: value.camera === true, screen: value.screen === true };
  // Present only when true (their connection dropped; the grid dims them for the reconnect grace).
  if (value.reconnecting === true) participant.reconnecting = true;
  return participant;
}

/** A call's state (the groupCall event or an active GET answer) of this room; null when it is not one. */
export function decodeGroupCallState(value: unknown, chatRoomId: number): GroupCallState | null {
  if (!isObject(value) || toPositiveId(value.chatRoomId) !== chatRoomId) return null;
  if (!isCallId(value.callId) || !isMedia(value.media) || typeof value.startedAt !== 'string' || !Array.isArray(value.participants)) return null;
  const participants = value.participants.map(decodeParticipant);
  if (participants.some((p) => p === null)) return null;
  return { active: true, callId: value.callId, chatRoomId, media: value.media, participants: participants as GroupCallParticipant[], startedAt: value.startedAt };
}

/** What the room's events topic and GET api.groupCall say of the room's call: on (its state), off, or nothing about it. */
export function decodeGroupCallNews(value: unknown, chatRoomId: number): { on: GroupCallState } | { off: string | null } | null {
  if (!isObject(value)) return null;
  if (value.type === 'groupCallEnded') return toPositiveId(value.chatRoomId) === chatRoomId && isCallId(value.callId) ? { off: value.callId } : null;
  if (value.active === false) return { off: null };
  if (value.type !== 'groupCall' && value.active !== true) return null;
  const state = decodeGroupCallState(value, chatRoomId);
  return state ? { on: state } : null;
}

export function decodeGroupIncoming(value: unknown): GroupIncomingEvent | null {
  if (!isObject(value)) return null;
  const chatRoomId = toPositiveId(value.chatRoomId);
  if (chatRoomId === null || !isCallId(value.callId) || !isMedia(value.media) || typeof value.starterName !== 'string') return null;
  return { chatRoomId, callId: value.callId, media: value.media, starterName: value.starterName };
}
