// The one sender of real pushes: the web-push library encrypts the payload (aes128gcm) for the
// subscription's keys and signs the VAPID JWT; the request itself goes out through fetch, which
// (unlike web-push's own https-only sender) also reaches an http push service in development
// and tests.
import webpush from 'web-push';
import type { PushSender } from './push-service';

/** A push service that does not answer within this is given up (the push is lost, nothing waits on it). */
const SEND_TIMEOUT_MS = 10_000;

export class PushRefusedError extends Error {
  constructor(readonly statusCode: number, detail: string) {
    super(`the push service answered ${statusCode}${detail ? `: ${detail.slice(0, 200)}` : ''}`);
  }
}

export function webPushSender(subject: string): PushSender {
  return async (subscription, payload, vapid, options) => {
    const request = webpush.generateRequestDetails({ endpoint: subscription.endpoint, keys: subscription.keys }, payload, {
      vapidDetails: { subject, publicKey: vapid.publicKey, privateKey: vapid.privateKey },
      TTL: options.ttlSeconds,
      urgency: options.urgency,
      topic: options.topic,
      contentEncoding: 'aes128gcm',
    });
    const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)]));
    delete headers['Content-Length']; // fetch sets it from the body
    const response = await fetch(request.endpoint, {
      method: request.method,
      headers,
      body: request.body ? new Uint8Array(request.body) : undefined,
      signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
    });
    const detail = await response.text().catch(() => '');
    if (!response.ok) throw new PushRefusedError(response.status, detail);
  };
}

export function generateVapidKeys(): { publicKey: string; privateKey: string } {
  return webpush.generateVAPIDKeys();
}
