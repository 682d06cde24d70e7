// Decoders of the /app/group-call/* bodies (common/group-call.ts). A malformed body is a
// PayloadError (an ERROR frame, as for every other destination); a well-formed one from someone
// who may not act on it is refused by the service instead.
import { CALL_MEDIA, type CallMedia } from '@common/api';
import type {
  GroupCallCandidate, GroupCallJoinPayload, GroupCallMediaStatePayload, GroupCallSignalPayload, GroupCallStartPayload,
} from '@common/group-call';
import { PayloadError } from '@common/payloads';
import { toPositiveId } from '@common/rules';

type Json = Record<string, unknown>;

const SDP_MAX = 64 * 1024;
const CANDIDATE_MAX = 1024;

function object(body: string): Json {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    throw new PayloadError('body is not valid JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new PayloadError('body must be a JSON object');
  return value as Json;
}

function roomId(o: Json): number {
  const n = toPositiveId(o.chatRoomId);
  if (n === null) throw new PayloadError('chatRoomId must be a positive integer');
  return n;
}

function callId(o: Json): string {
  if (typeof o.callId !== 'string' || !/^[A-Za-z0-9-]{1,64}$/.test(o.callId)) throw new PayloadError('callId must be a call id');
  return o.callId;
}

function text(o: Json, key: string, max: number): string {
  const v = o[key];
  if (typeof v !== 'string' || v.length === 0 || v.length > max) throw new PayloadError(`${key} must be a string of 1 to ${max} characters`);
  return v;
}

function flag(o: Json, key: string): boolean {
  if (typeof o[key] !== 'boolean') throw new PayloadError(`${key} must be true or false`);
  return o[key];
}

function candidate(value: unknown): GroupCallCandidate | null {
  if (value === null) return null;
  if (typeof value !== 'object' || Array.isArray(value) || value === undefined) throw new PayloadError('candidate must be an object or null');
  const c = value as Json;
  const sdpMid = c.sdpMid === undefined || c.sdpMid === null ? null : typeof c.sdpMid === 'string' && c.sdpMid.length <= 64 ? c.sdpMid : undefined;
  const index = c.sdpMLineIndex;
  const sdpMLineIndex = index === undefined || index === null ? null : Number.isInteger(index) && (index as number) >= 0 && (index as number) < 1024 ? (index as number) : undefined;
  if (sdpMid === undefined || sdpMLineIndex === undefined) throw new PayloadError('candidate has a malformed sdpMid or sdpMLineIndex');
  return { candidate: text(c, 'candidate', CANDIDATE_MAX), sdpMid, sdpMLineIndex };
}

export const decodeGroupCall = {
  start(body: string): GroupCallStartPayload {
    const o = object(body);
    const media = o.media ?? 'audio';
    if (!CALL_MEDIA.includes(media as CallMedia)) throw new PayloadError(`media must be one of ${CALL_MEDIA.join(' ')}`);
    return { chatRoomId: roomId(o), media: media as CallMedia };
  },
  join(body: string): GroupCallJoinPayload {
    const o = object(body);
    return { chatRoomId: roomId(o), callId: callId(o) };
  },
  mediaState(body: string): GroupCallMediaStatePayload {
    const o = object(body);
    return { chatRoomId: roomId(o), callId: callId(o), muted: flag(o, 'muted'), camera: flag(o, 'camera'), screen: flag(o, 'screen') };
  },
  signal(body: string): GroupCallSignalPayload {
    const o = object(body);
    const base = { chatRoomId: roomId(o), callId: callId(o) };
    switch (o.kind) {
      case 'publish':
      case 'subscribe-answer':
        return { ...base, kind: o.kind, sdp: text(o, 'sdp', SDP_MAX) };
      case 'candidate':
        if (o.target !== 'publisher' && o.target !== 'subscriber') throw new PayloadError('target must be publisher or subscriber');
        return { ...base, kind: 'candidate', target: o.target, candidate: candidate(o.candidate) };
      default:
        throw new PayloadError('kind must be publish, subscribe-answer or candidate');
    }
  },
};
