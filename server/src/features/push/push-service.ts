// Web Push (ours, beyond the spec): rings a callee who has no open connection and tells an
// offline member of a new message, through the push services of their browsers. A push is
// sent in the background: the call and the message never wait for it, and a push service that
// fails or is slow only loses that push. An endpoint the push service calls gone (404, 410) is
// deleted. Messages are coalesced: at most one push per member and room a minute. An endpoint is
// a URL a user gave: it goes out only through the outbound guard (server/src/outbound), checked
// when subscribed and again at every send (DNS may have changed), and what one user or one push
// service may cost is capped (docs/architecture.md §3a).
import {
  decodePushSubscription,
  decodePushUnsubscribe,
  PushSubscriptionError,
  shortenForPush,
  type PushPayload,
} from '@common/push';
import type { CallMedia } from '@common/api';
import type { Logger } from '../../log';
import { InvalidError } from '../errors';
import type { Clock } from '../types';
import type { PushRepository, StoredPushSubscription, VapidKeys } from './push-repository';

export const MESSAGE_PUSH_WINDOW_MS = 60_000;
/** Pushes on their way at once; beyond this, new ones are dropped (and counted), never queued without bound. */
export const MAX_PUSHES_IN_FLIGHT = 256;
/** Pushes on their way at once to one user's devices; beyond it, dropped and counted the same. */
export const MAX_PUSHES_IN_FLIGHT_PER_USER = 4;
/** Requests on their way at once to one push service (endpoint origin); beyond it, dropped and counted. */
export const MAX_REQUESTS_IN_FLIGHT_PER_ORIGIN = 64;
/** Subscriptions one user may hold; an 11th replaces the oldest. */
export const MAX_SUBSCRIPTIONS_PER_USER = 10;
/** Remembered (member, room) pairs before the old ones are pruned. */
const COALESCE_PRUNE_AT = 10_000;

/** `refused`: the outbound guard refused the endpoint at send time (its host now resolves to a private address). */
export type PushOutcome = 'sent' | 'gone' | 'failed' | 'refused' | 'dropped' | 'coalesced';

export interface PushOptions {
  /** Seconds the push service keeps the message for an offline browser. */
  ttlSeconds: number;
  urgency: 'high' | 'normal';
  /** Collapses pushes with the same topic in the push service's queue. */
  topic: string;
}

/** Sends one push; rejects with an error carrying the push service's `statusCode` when refused. */
export type PushSender = (subscription: StoredPushSubscription, payload: string, vapid: VapidKeys, options: PushOptions) => Promise<unknown>;

export interface PushPorts {
  repo: PushRepository;
  send: PushSender;
  /** The configured key pair, or the stored one (generated once when there is none). */
  vapidKeys: () => Promise<VapidKeys>;
  /** Whether the user has an open connection on this node: asked for every message, so it is cheap. */
  isConnectedHere(userId: number): boolean;
  /** Whether the user has an open connection on any node (a cluster asks Redis). */
  isOnline(userId: number): Promise<boolean>;
  clock: Clock;
  log: Logger;
  /**
   * What can be told of an endpoint without DNS (the outbound guard's checkUrl): https, no user
   * info, a public-looking host. Throws with the reason when refused.
   */
  checkEndpoint(endpoint: string): void;
  count?(outcome: PushOutcome): void;
}

export interface PushedMessage {
  id: number;
  roomId: number;
  senderId: number;
  senderName: string;
  content: string;
  /** Ours: the receivers are mentioned by it (pushed even in a muted room, never coalesced away). */
  mention?: true;
}

function statusOf(error: unknown): number | null {
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  return typeof status === 'number' ? status : null;
}

const refusedByGuard = (error: unknown) => (error as { code?: unknown } | null)?.code === 'outbound_refused';

function originOf(endpoint: string): string {
  try {
    return new URL(endpoint).origin;
  } catch {
    return endpoint;
  }
}

/** Counts of things in flight by key, forgetting a key at zero. */
class InFlight {
  private readonly counts = new Map<string | number, number>();
  /** Takes one if fewer than `max` are in flight for the key. */
  take(key: string | number, max: number): boolean {
    const n = this.counts.get(key) ?? 0;
    if (n >= max) return false;
    this.counts.set(key, n + 1);
    return true;
  }
  give(key: string | number): void {
    const n = (this.counts.get(key) ?? 1) - 1;
    if (n <= 0) this.counts.delete(key);
    else this.counts.set(key, n);
  }
}

export class PushService {
  private keys: Promise<VapidKeys> | null = null;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly perUser = new InFlight();
  private readonly perOrigin = new InFlight();
  /** When each (member, room) last got a message push; oldest first. */
  private readonly lastMessagePush = new Map<string, number>();

  constructor(private readonly ports: PushPorts) {}

  publicKey(): Promise<string> {
    return this.vapid().then((keys) => keys.publicKey);
  }

  /**
   * This device's subscription, for the signed-in user and their session; the user's oldest goes
   * when they would hold more than MAX_SUBSCRIPTIONS_PER_USER. 400 when malformed, or when the
   * endpoint is not one our server may send to (docs/protocol.md, Web Push).
   */
  async subscribe(userId: number, sessionId: string, body: unknown): Promise<void> {
    const subscription = this.decoded(() => decodePushSubscription(body));
    try {
      this.ports.checkEndpoint(subscription.endpoint);
    } catch (error) {
      throw new InvalidError(`endpoint refused: ${(error as Error).message}`, 'invalid_subscription');
    }
    await this.ports.repo.upsert(userId, Number(sessionId), subscription.endpoint, subscription.keys, this.ports.clock(), MAX_SUBSCRIPTIONS_PER_USER);
  }

  /** Forgets the endpoint if it is the user's (a browser that unsubscribed). */
  async unsubscribe(userId: number, body: unknown): Promise<void> {
    // Any URL: forgetting an endpoint sends nothing to it.
    const { endpoint } = this.decoded(() => decodePushUnsubscribe(body));
    await this.ports.repo.deleteOfUser(userId, endpoint);
  }

  hasSubscription(userId: number): Promise<boolean> {
    return this.ports.repo.hasAny(userId);
  }

  /** Rings a callee with no open connection on every device they subscribed. */
  incomingCall(calleeId: number, caller: { userId: number; name: string }, media: CallMedia): void {
    const payload: PushPayload = { kind: 'incoming-call', callerId: caller.userId, callerName: caller.name, media };
    this.pushTo(calleeId, payload, { ttlSeconds: 60, urgency: 'high', topic: 'call' });
  }

  /** Rings a member with no open connection that a group call started in their room (one notification per room's call). */
  groupCallStarted(memberId: number, ring: { chatRoomId: number; callId: string; media: CallMedia; starterName: string }): void {
    const payload: PushPayload = { kind: 'group-call', ...ring };
    this.pushTo(memberId, payload, { ttlSeconds: 60, urgency: 'high', topic: `group-call-${ring.chatRoomId}` });
  }

  /**
   * Tells each member without an open connection, at most once per room a minute. A member
   * connected to another node of a cluster is found only after the minute was taken for them:
   * the price of asking Redis at most once per member and room a minute, not for every message.
   */
  newMessage(message: PushedMessage, memberIds: readonly number[]): void {
    const now = this.ports.clock();
    for (const memberId of memberIds) {
      if (memberId === message.senderId || this.ports.isConnectedHere(memberId)) continue;
      const key = `${memberId}:${message.roomId}`;
      const last = this.lastMessagePush.get(key);
      if (!message.mention && last !== undefined && now - last < MESSAGE_PUSH_WINDOW_MS) {
        this.ports.count?.('coalesced');
        continue;
      }
      this.lastMessagePush.delete(key);
      this.lastMessagePush.set(key, now);
      const payload: PushPayload = {
        kind: 'message',
        chatRoomId: message.roomId,
        messageId: message.id,
        senderName: message.senderName,
        content: shortenForPush(message.content),
        ...(message.mention ? { mention: true as const } : {}),
      };
      this.pushTo(memberId, payload, { ttlSeconds: 3600, urgency: 'normal', topic: `room-${message.roomId}` }, { unlessOnline: true });
    }
    this.pruneCoalescing(now);
  }

  /** Waits for the pushes on their way (server shutdown). */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  private decoded<T>(decode: () => T): T {
    try {
      return decode();
    } catch (error) {
      if (error instanceof PushSubscriptionError) throw new InvalidError(error.message, 'invalid_subscription');
      throw error;
    }
  }

  private vapid(): Promise<VapidKeys> {
    this.keys ??= this.ports.vapidKeys().catch((error: unknown) => {
      this.keys = null; // a database hiccup: try again next time
      throw error;
    });
    return this.keys;
  }

  private pushTo(userId: number, payload: PushPayload, options: PushOptions, when: { unlessOnline: boolean } = { unlessOnline: false }): void {
    if (this.inFlight.size >= MAX_PUSHES_IN_FLIGHT || !this.perUser.take(userId, MAX_PUSHES_IN_FLIGHT_PER_USER)) {
      this.ports.count?.('dropped');
      return;
    }
    const sending = this.deliver(userId, JSON.stringify(payload), options, when.unlessOnline)
      .catch((error: unknown) => this.ports.log.warn({ err: error, userId }, 'push not sent'))
      .finally(() => {
        this.inFlight.delete(sending);
        this.perUser.give(userId);
      });
    this.inFlight.add(sending);
  }

  private async deliver(userId: number, payload: string, options: PushOptions, unlessOnline: boolean): Promise<void> {
    if (unlessOnline && (await this.ports.isOnline(userId))) return;
    // The newest ones only: rows stored before the cap may still be more.
    const subscriptions = await this.ports.repo.ofUser(userId, MAX_SUBSCRIPTIONS_PER_USER);
    if (subscriptions.length === 0) return;
    const vapid = await this.vapid();
    await Promise.all(subscriptions.map((subscription) => this.deliverTo(subscription, payload, vapid, options)));
  }

  private async deliverTo(subscription: StoredPushSubscription, payload: string, vapid: VapidKeys, options: PushOptions): Promise<void> {
    const origin = originOf(subscription.endpoint);
    if (!this.perOrigin.take(origin, MAX_REQUESTS_IN_FLIGHT_PER_ORIGIN)) {
      this.ports.count?.('dropped');
      return;
    }
    try {
      await this.ports.send(subscription, payload, vapid, options);
      this.ports.count?.('sent');
    } catch (error) {
      if (refusedByGuard(error)) {
        // Kept: the host may resolve to a public address again; it costs no request meanwhile.
        this.ports.count?.('refused');
        this.ports.log.warn({ userId: subscription.userId, reason: (error as Error).message }, 'push endpoint refused by the outbound guard');
        return;
      }
      const status = statusOf(error);
      if (status === 404 || status === 410) {
        // The browser unsubscribed or the subscription expired: it will never work again.
        await this.ports.repo.delete(subscription.id);
        this.ports.count?.('gone');
        return;
      }
      this.ports.count?.('failed');
      this.ports.log.warn({ status, userId: subscription.userId, err: status === null ? error : undefined }, 'push refused');
    } finally {
      this.perOrigin.give(origin);
    }
  }

  private pruneCoalescing(now: number): void {
    if (this.lastMessagePush.size <= COALESCE_PRUNE_AT) return;
    for (const [key, at] of this.lastMessagePush) {
      if (now - at < MESSAGE_PUSH_WINDOW_MS) break;
      this.lastMessagePush.delete(key);
    }
  }
}
