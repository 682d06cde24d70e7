// A browser's push service played locally: an HTTP server that records each push, answers with
// the status the test sets per endpoint (201 by default), and a subscription like a browser's
// whose keys the test made, so it can decrypt (aes128gcm) what the server sent and check the
// VAPID Authorization header.
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { decrypt } from 'http_ece';
import type { PushSubscriptionRequest } from '@common/push';
import { WAIT_MS, waitFor } from './wait';

export interface ReceivedPush {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export interface TestSubscription {
  request: PushSubscriptionRequest;
  /** The decrypted payload of a push sent to this subscription. */
  open(push: ReceivedPush): string;
}

export interface VapidClaims {
  aud: string;
  exp: number;
  sub: string;
}

export class LocalPushService {
  readonly received: ReceivedPush[] = [];
  private readonly statuses = new Map<string, number>();
  private readonly locations = new Map<string, string>();
  private server!: http.Server;
  url = '';

  async start(): Promise<void> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const path = req.url ?? '/';
        this.received.push({ path, headers: req.headers, body: Buffer.concat(chunks) });
        const location = this.locations.get(path);
        res.writeHead(this.statuses.get(path) ?? 201, location ? { location } : {}).end();
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** The push service answers this status to pushes for the subscription (410: gone). */
  answer(subscription: TestSubscription, status: number): void {
    this.statuses.set(new URL(subscription.request.endpoint).pathname, status);
  }

  /** The push service answers pushes for the subscription with this redirect (a hostile one would). */
  redirect(subscription: TestSubscription, status: number, location: string): void {
    const path = new URL(subscription.request.endpoint).pathname;
    this.statuses.set(path, status);
    this.locations.set(path, location);
  }

  /** The pushes that reached this subscription so far. */
  pushesTo(subscription: TestSubscription): ReceivedPush[] {
    const path = new URL(subscription.request.endpoint).pathname;
    return this.received.filter((p) => p.path === path);
  }

  /** Resolves with the n-th push (1-based) to the subscription once it has arrived. */
  nthPushTo(subscription: TestSubscription, n: number, timeoutMs = WAIT_MS): Promise<ReceivedPush> {
    return waitFor(() => this.pushesTo(subscription)[n - 1], { what: `push ${n} to ${subscription.request.endpoint}`, timeoutMs });
  }

  /** A subscription as a browser would make it: a P-256 key pair and a 16-byte auth secret. */
  subscription(): TestSubscription {
    const ecdh = crypto.createECDH('prime256v1');
    ecdh.generateKeys();
    const auth = crypto.randomBytes(16).toString('base64url');
    const request: PushSubscriptionRequest = {
      endpoint: `${this.url}/push/${crypto.randomBytes(8).toString('hex')}`,
      keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth },
    };
    return { request, open: (push) => decrypt(push.body, { version: 'aes128gcm', privateKey: ecdh, authSecret: auth }).toString('utf8') };
  }
}

/**
 * Checks a push's `Authorization: vapid t=<JWT>, k=<public key>` (RFC 8292): the JWT is ES256,
 * signed by the key it names. Returns the key and the JWT's claims.
 */
export function verifyVapid(push: ReceivedPush): { publicKey: string; claims: VapidClaims } {
  const header = push.headers.authorization ?? '';
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header);
  if (!match) throw new Error(`not a VAPID Authorization header: "${header}"`);
  const [, jwt, publicKey] = match;
  const [head, claims, signature] = jwt.split('.');
  const alg = (JSON.parse(Buffer.from(head, 'base64url').toString('utf8')) as { alg?: string }).alg;
  if (alg !== 'ES256') throw new Error(`the VAPID JWT is signed with ${alg}, not ES256`);
  const point = Buffer.from(publicKey, 'base64url');
  const key = crypto.createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33, 65).toString('base64url') },
    format: 'jwk',
  });
  const valid = crypto.verify('sha256', Buffer.from(`${head}.${claims}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url'));
  if (!valid) throw new Error('the VAPID JWT signature does not verify with the key in k=');
  return { publicKey, claims: JSON.parse(Buffer.from(claims, 'base64url').toString('utf8')) as VapidClaims };
}
