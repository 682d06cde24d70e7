// Web Push (ours, beyond the spec): the REST bodies of /api/push/*, their decoder, and what a
// push message carries to the service worker, which words it from client/src/i18n/ko*.ts.
import type { CallMedia } from './api';

export interface PushPublicKeyResponse {
  /** The server's VAPID public key, base64url: the applicationServerKey of pushManager.subscribe. */
  publicKey: string;
}

/** POST /api/push/subscriptions: PushSubscription.toJSON() of this device's browser. */
export interface PushSubscriptionRequest {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

/** DELETE /api/push/subscriptions. */
export interface PushUnsubscribeRequest {
  endpoint: string;
}

/** The JSON a push message carries. */
export type PushPayload =
  /** `media`: ours, what the caller asked (a push made before it existed reads as a voice call). */
  | { kind: 'incoming-call'; callerId: number; callerName: string; media: CallMedia }
  /** Ours: a group call started in one of the receiver's rooms (the group-incoming ring, for a closed tab). */
  | { kind: 'group-call'; chatRoomId: number; callId: string; media: CallMedia; starterName: string }
  /** `mention` (ours, present only when true): the message mentions the receiver, who may have muted the room. */
  | { kind: 'message'; chatRoomId: number; messageId: number; senderName: string; content: string; mention?: true };

/** A pushed message's text is cut to this many characters (code points). */
export const PUSH_CONTENT_MAX = 100;
export const PUSH_ENDPOINT_MAX = 2048;

// An uncompressed P-256 point (65 bytes, first byte 0x04, so base64url starts with B) and a
// 16-byte auth secret, base64url with optional padding: what browsers hand out.
const P256DH = /^B[A-Za-z0-9_-]{86}=?$/;
const AUTH = /^[A-Za-z0-9_-]{22}(==)?$/;

export class PushSubscriptionError extends Error {}

function objectOf(raw: unknown, what: string): Record<string, unknown> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new PushSubscriptionError(`${what} must be a JSON object`);
  return raw as Record<string, unknown>;
}

/**
 * The endpoint of a push service, as a shape: an http(s) URL of at most 2048 characters. Which
 * endpoints the server may send to (https, public hosts) is its outbound guard's business
 * (docs/operations.md, Outbound requests).
 */
export function decodePushEndpoint(raw: unknown): string {
  if (typeof raw !== 'string' || raw.length === 0) throw new PushSubscriptionError('endpoint must be a non-empty string');
  if (raw.length > PUSH_ENDPOINT_MAX) throw new PushSubscriptionError(`endpoint is longer than ${PUSH_ENDPOINT_MAX} characters`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new PushSubscriptionError('endpoint is not a URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new PushSubscriptionError('endpoint must be an https URL');
  return raw;
}

export function decodePushSubscription(body: unknown): PushSubscriptionRequest {
  const o = objectOf(body, 'body');
  const endpoint = decodePushEndpoint(o.endpoint);
  const keys = objectOf(o.keys, 'keys');
  if (typeof keys.p256dh !== 'string' || !P256DH.test(keys.p256dh)) throw new PushSubscriptionError('keys.p256dh must be a base64url P-256 public key');
  if (typeof keys.auth !== 'string' || !AUTH.test(keys.auth)) throw new PushSubscriptionError('keys.auth must be a base64url 16-byte secret');
  return { endpoint, keys: { p256dh: keys.p256dh, auth: keys.auth } };
}

export function decodePushUnsubscribe(body: unknown): PushUnsubscribeRequest {
  return { endpoint: decodePushEndpoint(objectOf(body, 'body').endpoint) };
}

/** The first `max` characters (whole code points, so no emoji is cut in half), with … when cut. */
export function shortenForPush(text: string, max = PUSH_CONTENT_MAX): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}
