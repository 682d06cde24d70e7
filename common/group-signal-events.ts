// The decoder of the SFU's answers on /queue/call/group-signal/{userId} (common/group-call.ts),
// apart from group-call-events.ts: only a group call in progress (activeGroupCall.ts) reads them.
import type { GroupCallCandidate, GroupCallPeer, GroupCallRefusal, GroupCallSignal, GroupCallStream } from './group-call';
import { isCallId, isMedia, isObject } from './group-call-events';
import { toPositiveId } from './rules';

const REFUSALS: readonly GroupCallRefusal[] = ['full', 'not-member', 'no-call', 'already-on', 'unavailable', 'media-server-lost'];
const PEERS: readonly GroupCallPeer[] = ['publisher', 'subscriber'];

function decodeCandidate(value: unknown): GroupCallCandidate | null | undefined {
  if (value === null) return null;
  if (!isObject(value) || typeof value.candidate !== 'string') return undefined;
  const sdpMid = typeof value.sdpMid === 'string' ? value.sdpMid : null;
  const sdpMLineIndex = typeof value.sdpMLineIndex === 'number' ? value.sdpMLineIndex : null;
  return { candidate: value.candidate, sdpMid, sdpMLineIndex };
}

function decodeStreams(value: unknown): GroupCallStream[] | null {
  if (!Array.isArray(value)) return null;
  const streams: GroupCallStream[] = [];
  for (const item of value) {
    if (!isObject(item) || typeof item.mid !== 'string') return null;
    const userId = toPositiveId(item.userId);
    if (userId === null || (item.kind !== 'audio' && item.kind !== 'video')) return null;
    streams.push({ mid: item.mid, userId, kind: item.kind });
  }
  return streams;
}

/** One message on /queue/call/group-signal/{userId}; null when malformed. */
export function decodeGroupSignal(value: unknown): GroupCallSignal | null {
  if (!isObject(value)) return null;
  const callId = isCallId(value.callId) ? value.callId : null;
  const chatRoomId = toPositiveId(value.chatRoomId);
  const message = typeof value.message === 'string' ? value.message : '';
  switch (value.kind) {
    case 'joined': {
      if (!callId || chatRoomId === null || !isMedia(value.media) || !Array.isArray(value.iceServers)) return null;
      const iceServers = value.iceServers.filter(isObject).flatMap((s) => {
        const urls = s.urls;
        if (typeof urls !== 'string' && !(Array.isArray(urls) && urls.every((u) => typeof u === 'string'))) return [];
        return [{ urls: urls, ...(typeof s.username === 'string' ? { username: s.username } : {}), ...(typeof s.credential === 'string' ? { credential: s.credential } : {}) }];
      });
      return { kind: 'joined', callId, chatRoomId, media: value.media, iceServers };
    }
    case 'publish-answer':
      return callId && typeof value.sdp === 'string' ? { kind: 'publish-answer', callId, sdp: value.sdp } : null;
    case 'subscribe-offer': {
      const streams = decodeStreams(value.streams);
      return callId && typeof value.sdp === 'string' && streams ? { kind: 'subscribe-offer', callId, sdp: value.sdp, streams } : null;
    }
    case 'candidate': {
      const candidate = decodeCandidate(value.candidate);
      if (!callId || candidate === undefined || !PEERS.includes(value.target as GroupCallPeer)) return null;
      return { kind: 'candidate', callId, target: value.target as GroupCallPeer, candidate };
    }
    case 'refused':
      if (chatRoomId === null || !REFUSALS.includes(value.reason as GroupCallRefusal)) return null;
      return { kind: 'refused', callId, chatRoomId, reason: value.reason as GroupCallRefusal, message };
    case 'ended':
      if (!callId || chatRoomId === null || (value.reason !== 'ended' && value.reason !== 'media-server-lost')) return null;
      return { kind: 'ended', callId, chatRoomId, reason: value.reason, message };
    default:
      return null;
  }
}
