// Ours: group calls through the SFU (issue 25, docs/protocol.md "Group calls"). Browsers talk
// WebRTC with Janus directly; every SDP and candidate goes through our server, which alone speaks
// Janus' API. A participant holds two peer connections: one publishing its own media, one
// receiving everyone else's streams (Janus' multistream subscriber), offered by the server again
// whenever the set of published streams changes.
import type { CallMedia } from './api';

/** The most participants of one call when GROUP_CALL_MAX is not set. */
export const GROUP_CALL_MAX_DEFAULT = 10;

export interface GroupCallParticipant {
  userId: number; name: string; muted: boolean; camera: boolean; screen: boolean;
  /** Ours, present only when true: their last connection closed; they keep their place for the reconnect grace. */
  reconnecting?: true;
}

/** The call's state: on /topic/chat-room-events/{id} as `{type: "groupCall", chatRoomId, ...}` and from GET api.groupCall. */
export interface GroupCallState {
  active: true;
  callId: string;
  chatRoomId: number;
  media: CallMedia;
  participants: GroupCallParticipant[];
  startedAt: string;
}
/** GET /api/chat-room/group-call?chatRoomId=: the state, or this when no call is on. */
export type GroupCallStateResponse = GroupCallState | { active: false };

// ---- SEND (client → server) ----
/** /app/group-call/start. */
export interface GroupCallStartPayload { chatRoomId: number; media: CallMedia }
/** /app/group-call/join and /app/group-call/leave. */
export interface GroupCallJoinPayload { chatRoomId: number; callId: string }
/** /app/group-call/media-state. */
export interface GroupCallMediaStatePayload { chatRoomId: number; callId: string; muted: boolean; camera: boolean; screen: boolean }
/**
 * /app/group-call/signal. publish: the participant's offer for its own media (again to add or
 * drop a track, e.g. screen sharing); subscribe-answer: its answer to the server's latest
 * subscribe-offer; candidate: a trickled ICE candidate of one of its two connections (null: no more).
 */
export type GroupCallSignalPayload =
  | { chatRoomId: number; callId: string; kind: 'publish'; sdp: string }
  | { chatRoomId: number; callId: string; kind: 'subscribe-answer'; sdp: string }
  | { chatRoomId: number; callId: string; kind: 'candidate'; target: GroupCallPeer; candidate: GroupCallCandidate | null };

export type GroupCallPeer = 'publisher' | 'subscriber';
export interface GroupCallCandidate { candidate: string; sdpMid?: string | null; sdpMLineIndex?: number | null }

// ---- Delivered on /queue/call/group-signal/{userId} ----
/** Which participant's stream a subscriber m-line carries (mid as in the offer's SDP). */
export interface GroupCallStream { mid: string; userId: number; kind: 'audio' | 'video' }
export type GroupCallRefusal = 'full' | 'not-member' | 'no-call' | 'already-on' | 'unavailable' | 'media-server-lost';
export type GroupCallSignal =
  /** The call you started or joined: publish your media now (answer to start/join). */
  | { kind: 'joined'; callId: string; chatRoomId: number; media: CallMedia; iceServers: Array<{ urls: string | string[]; username?: string; credential?: string }> }
  | { kind: 'publish-answer'; callId: string; sdp: string }
  | { kind: 'subscribe-offer'; callId: string; sdp: string; streams: GroupCallStream[] }
  | { kind: 'candidate'; callId: string; target: GroupCallPeer; candidate: GroupCallCandidate | null }
  /** Refused or ended for you, with its reason and a Korean text to show (e.g. '통화 인원이 가득 찼습니다.'). */
  | { kind: 'refused'; callId: string | null; chatRoomId: number; reason: GroupCallRefusal; message: string }
  | { kind: 'ended'; callId: string; chatRoomId: number; reason: 'ended' | 'media-server-lost'; message: string };

/** Delivered on /queue/call/group-incoming/{userId} once per call start to online members. */
export interface GroupIncomingEvent { chatRoomId: number; callId: string; media: CallMedia; starterName: string }
