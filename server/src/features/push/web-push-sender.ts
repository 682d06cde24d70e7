// The one sender of real pushes: the web-push library encrypts the payload (aes128gcm) for the
// subscription's keys and signs the VAPID JWT (generateRequestDetails); the request itself goes
// out through the outbound guard (server/src/outbound), which checks the endpoint's addresses
// again at every send, connects to the checked one, and follows no redirect: a push service
// answers 201, never 3xx, so a redirect is a failed push.
import webpush from 'web-push';
import type { Outbound } from '../../outbound';
import type { PushSender } from './push-service';

/** A push service that does not answer within this is given up (the push is lost, nothing waits on it). */
const SEND_TIMEOUT_MS = 10_000;
const CONNECT_TIMEOUT_MS = 5_000;
/** A push service answers a status and a short text at most. */
const MAX_RESPONSE_BYTES = 16 * 1024;

export class PushRefusedError extends Error {
  constructor(readonly statusCode: number, detail: string) {
    super(`the push service answered ${statusCode}${detail ? `: ${detail.slice(0, 200)}` : ''}`);
  }
}

export function webPushSender(subject: string, outbound: Outbound): PushSender {
  return async (subscription, payload, vapid, options) => {
    const request = webpush.generateRequestDetails({ endpoint: subscription.endpoint, keys: subscription.keys }, payload, {
      vapidDetails: { subject, publicKey: vapid.publicKey, privateKey: vapid.privateKey },
      TTL: options.ttlSeconds,
      urgency: options.urgency,
      topic: options.topic,
      contentEncoding: 'aes128gcm',
    });
    const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)]));
    delete headers['Content-Length']; // the guard sets it from the body
    const response = await outbound.request(request.endpoint, {
      method: request.method,
      headers,
      body: request.body ? new Uint8Array(request.body) : undefined,
      redirects: 'none',
      connectTimeoutMs: CONNECT_TIMEOUT_MS,
      totalTimeoutMs: SEND_TIMEOUT_MS,
      maxResponseBytes: MAX_RESPONSE_BYTES,
      oversize: 'truncate',
    });
    if (response.status < 200 || response.status >= 300) throw new PushRefusedError(response.status, response.body.toString('utf8'));
  };
}

export function generateVapidKeys(): { publicKey: string; privateKey: string } {
  return webpush.generateVAPIDKeys();
}
