// STOMP payload types (docs/spec.md §3, §7) and their runtime decoders. A decoder returns the typed
// payload or throws PayloadError with a message fit for a STOMP ERROR frame.
import { CALL_MEDIA, type CallMedia, type ChatMessage, type LinkPreview, type RoomNotice } from './api';
import type { GroupCallState } from './group-call';
import { isReaction, LIMITS, toAttachmentId, toPositiveId, type Reaction } from './rules';

export class PayloadError extends Error {}

type Json = Record<string, unknown>;

function object(body: string): Json {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    throw new PayloadError('body is not valid JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new PayloadError('body must be a JSON object');
  }
  return value as Json;
}

/** A positive integer id; numeric strings are accepted because older clients send them. */
function id(o: Json, key: string): number {
  const n = toPositiveId(o[key]);
  if (n === null) throw new PayloadError(`${key} must be a positive integer`);
  return n;
}

function optionalId(o: Json, key: string): number | undefined {
  return o[key] === undefined || o[key] === null ? undefined : id(o, key);
}

/**
 * Ours: the ids a message mentions. Malformed is refused; how many are kept (members only, at
 * most LIMITS.mentionsPerMessage) is the server's to decide, but a list far past that is refused.
 */
const MENTIONS_MAX_RAW = 200;
function optionalIdList(o: Json, key: string): number[] | undefined {
  const v = o[key];
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v) || v.length > MENTIONS_MAX_RAW) throw new PayloadError(`${key} must be a list of at most ${MENTIONS_MAX_RAW} user ids`);
  return v.map((item) => {
    const n = toPositiveId(item);
    if (n === null) throw new PayloadError(`${key} must hold user ids`);
    return n;
  });
}

function optionalAttachmentId(o: Json, key: string): string | undefined {
  if (o[key] === undefined || o[key] === null) return undefined;
  const id = toAttachmentId(o[key]);
  if (id === null) throw new PayloadError(`${key} must be an attachment id`);
  return id;
}

/** Ours: a list of distinct attachment ids, at most `max` of them. */
function optionalAttachmentIds(o: Json, key: string, max: number): string[] | undefined {
  const v = o[key];
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v) || v.length === 0) throw new PayloadError(`${key} must be a list of 1 to ${max} attachment ids`);
  if (v.length > max) throw new PayloadError(`${key} may hold at most ${max} attachments`);
  const ids = v.map((item) => {
    const n = toAttachmentId(item);
    if (n === null) throw new PayloadError(`${key} must hold attachment ids`);
    return n;
  });
  if (new Set(ids).size !== ids.length) throw new PayloadError(`${key} must not name an attachment twice`);
  return ids;
}

function string(o: Json, key: string, max: number): string {
  const v = o[key];
  if (typeof v !== 'string') throw new PayloadError(`${key} must be a string`);
  if (v.length > max) throw new PayloadError(`${key} is longer than ${max} characters`);
  return v;
}

function optionalString(o: Json, key: string, max: number): string | undefined {
  return o[key] === undefined || o[key] === null ? undefined : string(o, key, max);
}

const SDP_MAX = 32 * 1024;
/** SDP and ICE candidates are flat objects; anything nested deeper is not one. */
const SDP_MAX_DEPTH = 8;
/**
 * Only bounds what is decoded: the message rule (1 to 3000 characters after trimming, in
 * rules.ts) is checked by the handler on the trimmed text.
 */
const CONTENT_MAX_RAW = 16 * 1024;

export interface PrivateMessagePayload {
  chatRoomId: number; senderId?: number; content: string; clientMsgId?: string; replyToMessageId?: number; attachmentId?: string; mentions?: number[];
  /** Ours: several photos sent as one message, in order (at most LIMITS.photosPerMessage, each once). */
  attachmentIds?: string[];
}
export interface PresencePayload { chatRoomId: number; userId?: number }
export interface CallPartyPayload { targetUserId: number; userId?: number }
/** /app/call/initiate: media is ours; absent means "audio" (the original client sends none). */
export interface CallInitiatePayload extends CallPartyPayload { media: CallMedia }
/** Ours: /app/call/media-state, what the sender's side sends now. */
export interface MediaStatePayload { targetUserId: number; muted: boolean; camera: boolean; screen: boolean }
export interface SdpPayload { targetUserId: number; sdp: unknown }
export interface IceCandidatePayload { targetUserId: number; candidate: unknown }
export interface HangupPayload { targetUserId: number }
/** Ours: /app/read, the user has read the room up to seq. */
export interface ReadPayload { chatRoomId: number; seq: number }
/** Ours: /app/typing. */
export interface TypingPayload { chatRoomId: number }
/** Ours: /app/edit-message. */
export interface EditMessagePayload { chatRoomId: number; messageId: number; content: string }
/** Ours: /app/delete-message. */
export interface DeleteMessagePayload { chatRoomId: number; messageId: number }
/** Ours: /app/forward-message: the message, to each of the rooms (distinct, at most LIMITS.forwardRooms). */
export interface ForwardMessagePayload { messageId: number; chatRoomIds: number[]; clientMsgId?: string }
/** Ours: /app/hide-message (delete for me). */
export interface HideMessagePayload { messageId: number }
/** Ours: /app/reaction, on = set, off = clear. */
export interface ReactionPayload { chatRoomId: number; messageId: number; emoji: Reaction; on: boolean }

/** Ours: what the server delivers on /topic/chat-room-events/{chatRoomId}. */
export type RoomEvent =
  | { type: 'read'; chatRoomId: number; userId: number; lastReadSeq: number }
  | { type: 'typing'; chatRoomId: number; userId: number; name: string }
  | { type: 'presence'; userId: number; online: boolean }
  | { type: 'edited'; chatRoomId: number; messageId: number; content: string; editedAt: string; changeSeq: number }
  | { type: 'deleted'; chatRoomId: number; messageId: number; changeSeq: number }
  | { type: 'reaction'; chatRoomId: number; messageId: number; userId: number; emoji: Reaction; on: boolean; changeSeq: number }
  /** News may have been lost (the cluster bus was down): catch up as after a reconnect (docs/protocol.md). */
  | { type: 'resync'; chatRoomId: number }
  /** Ours: the room's notice was set (notice) or removed (null). */
  | { type: 'notice'; chatRoomId: number; notice: RoomNotice | null }
  /** Ours: the preview of a message's first link, sent once the server fetched it. */
  | { type: 'linkPreview'; chatRoomId: number; messageId: number; linkPreview: LinkPreview }
  /** Ours: the receiving user hid the message for themselves (delete for me): sent to that user's own subscriptions only. */
  | { type: 'hidden'; chatRoomId: number; messageId: number }
  /** Ours: a group call is on in the room (its state now), or has ended. */
  | ({ type: 'groupCall' } & Omit<GroupCallState, 'active'>)
  | { type: 'groupCallEnded'; chatRoomId: number; callId: string };

/**
 * What the server delivers on /topic/private-chat/{id}: the message as chat history lists it
 * (one definition, api.ts ChatMessage), always naming its room.
 */
export type ChatMessageEvent = ChatMessage & { chatRoomId: number };

export type HangupReason = 'busy' | 'timeout' | 'rejected' | 'disconnected' | 'answered-elsewhere' | 'unavailable' | 'connection-lost';
export const HANGUP_REASONS: readonly HangupReason[] = ['busy', 'timeout', 'rejected', 'disconnected', 'answered-elsewhere', 'unavailable', 'connection-lost'];

/**
 * What the server delivers on /queue/call/{signal}/{uid}. Ours (docs/protocol.md "Call events"):
 * `media` and `callId` on incoming, accepted and resume (callId is opaque: it names the live call,
 * not a row of GET /api/calls); `role` on resume (the "caller" sends the new offer); muted,
 * camera and screen on media-state; the reason connection-lost.
 */
export interface CallEvent {
  userId: number;
  name?: string;
  targetUserId?: number;
  sdp?: unknown;
  candidate?: unknown;
  reason?: HangupReason;
  media?: CallMedia;
  callId?: string;
  role?: 'caller' | 'callee';
  muted?: boolean;
  camera?: boolean;
  screen?: boolean;
}

/**
 * Whether a parsed JSON value nests deeper than maxDepth, found without recursion: a body of
 * 64 KiB can nest 32 000 levels, which a recursive walk (JSON.stringify among them) would not
 * survive.
 */
export function nestsDeeperThan(value: unknown, maxDepth: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth >= maxDepth) return true;
    for (const child of Object.values(v)) stack.push([child, depth + 1]);
  }
  return false;
}

function sdpLike(o: Json, key: string): unknown {
  const v = o[key];
  if (v === undefined || v === null) throw new PayloadError(`${key} is required`);
  if (nestsDeeperThan(v, SDP_MAX_DEPTH)) throw new PayloadError(`${key} is nested too deeply`);
  if (JSON.stringify(v).length > SDP_MAX) throw new PayloadError(`${key} is too large`);
  return v;
}

export const decode = {
  privateMessage(body: string): PrivateMessagePayload {
    const o = object(body);
    return {
      chatRoomId: id(o, 'chatRoomId'),
      senderId: optionalId(o, 'senderId'),
      content: string(o, 'content', CONTENT_MAX_RAW),
      clientMsgId: optionalString(o, 'clientMsgId', 64),
      replyToMessageId: optionalId(o, 'replyToMessageId'),
      attachmentId: optionalAttachmentId(o, 'attachmentId'),
      mentions: optionalIdList(o, 'mentions'),
      attachmentIds: optionalAttachmentIds(o, 'attachmentIds', LIMITS.photosPerMessage),
    };
  },
  presence(body: string): PresencePayload {
    const o = object(body);
    return { chatRoomId: id(o, 'chatRoomId'), userId: optionalId(o, 'userId') };
  },
  callParty(body: string): CallPartyPayload {
    const o = object(body);
    return { targetUserId: id(o, 'targetUserId'), userId: optionalId(o, 'userId') };
  },
  callInitiate(body: string): CallInitiatePayload {
    const o = object(body);
    const media = o.media ?? 'audio';
    if (!CALL_MEDIA.includes(media as CallMedia)) throw new PayloadError(`media must be one of ${CALL_MEDIA.join(' ')}`);
    return { targetUserId: id(o, 'targetUserId'), userId: optionalId(o, 'userId'), media: media as CallMedia };
  },
  mediaState(body: string): MediaStatePayload {
    const o = object(body);
    const flag = (key: string): boolean => {
      if (typeof o[key] !== 'boolean') throw new PayloadError(`${key} must be true or false`);
      return o[key];
    };
    return { targetUserId: id(o, 'targetUserId'), muted: flag('muted'), camera: flag('camera'), screen: flag('screen') };
  },
  sdp(body: string): SdpPayload {
    const o = object(body);
    return { targetUserId: id(o, 'targetUserId'), sdp: sdpLike(o, 'sdp') };
  },
  iceCandidate(body: string): IceCandidatePayload {
    const o = object(body);
    return { targetUserId: id(o, 'targetUserId'), candidate: sdpLike(o, 'candidate') };
  },
  hangup(body: string): HangupPayload {
    const o = object(body);
    return { targetUserId: id(o, 'targetUserId') };
  },
  read(body: string): ReadPayload {
    const o = object(body);
    return { chatRoomId: id(o, 'chatRoomId'), seq: id(o, 'seq') };
  },
  typing(body: string): TypingPayload {
    const o = object(body);
    return { chatRoomId: id(o, 'chatRoomId') };
  },
  editMessage(body: string): EditMessagePayload {
    const o = object(body);
    return { chatRoomId: id(o, 'chatRoomId'), messageId: id(o, 'messageId'), content: string(o, 'content', CONTENT_MAX_RAW) };
  },
  deleteMessage(body: string): DeleteMessagePayload {
    const o = object(body);
    return { chatRoomId: id(o, 'chatRoomId'), messageId: id(o, 'messageId') };
  },
  forwardMessage(body: string): ForwardMessagePayload {
    const o = object(body);
    const rooms = o.chatRoomIds;
    if (!Array.isArray(rooms) || rooms.length === 0) throw new PayloadError('chatRoomIds must be a list of chat room ids');
    const ids = rooms.map((item) => {
      const n = toPositiveId(item);
      if (n === null) throw new PayloadError('chatRoomIds must hold chat room ids');
      return n;
    });
    const distinct = [...new Set(ids)];
    if (distinct.length > LIMITS.forwardRooms) throw new PayloadError(`a message can be forwarded to at most ${LIMITS.forwardRooms} chat rooms at once`);
    return { messageId: id(o, 'messageId'), chatRoomIds: distinct, clientMsgId: optionalString(o, 'clientMsgId', 64) };
  },
  hideMessage(body: string): HideMessagePayload {
    const o = object(body);
    return { messageId: id(o, 'messageId') };
  },
  reaction(body: string): ReactionPayload {
    const o = object(body);
    if (!isReaction(o.emoji)) throw new PayloadError('emoji must be exactly one emoji');
    if (typeof o.on !== 'boolean') throw new PayloadError('on must be true or false');
    return { chatRoomId: id(o, 'chatRoomId'), messageId: id(o, 'messageId'), emoji: o.emoji, on: o.on };
  },
};
