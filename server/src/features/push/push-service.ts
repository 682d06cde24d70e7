// Web Push (ours, beyond the spec): rings a callee who has no open connection and tells an
// offline member of a new message, through the push services of their browsers. A push is
// sent in the background: the call and the message never wait for it, and a push service that
// fails or is slow only loses that push. An endpoint the push service calls gone (404, 410) is
// deleted. Messages are coalesced: at most one push per member and room a minute.
import {
  decodePushSubscription,
  decodePushUnsubscribe,
  PushSubscriptionError,
  shortenForPush,
  type PushPayload,
} from '@common/push';
import type { Logger } from '../../log';
import { InvalidError } from '../errors';
import type { Clock } from '../types';
import type { PushRepository, StoredPushSubscription, VapidKeys } from './push-repository';

export const MESSAGE_PUSH_WINDOW_MS = 60_000;
/** Pushes on their way at once; beyond this, new ones are dropped (and counted), never queued without bound. */
export const MAX_PUSHES_IN_FLIGHT = 256;
/** Remembered (member, room) pairs before the old ones are pruned. */
const COALESCE_PRUNE_AT = 10_000;

export type PushOutcome = 'sent' | 'gone' | 'failed' | 'dropped' | 'coalesced';

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
  /** Endpoints may be http only when the server itself runs on http (development, tests). */
  allowHttpEndpoints: boolean;
  count?(outcome: PushOutcome): void;
}

export interface PushedMessage {
  id: number;
  roomId: number;
  senderId: number;
  senderName: string;
  content: string;
}

function statusOf(error: unknown): number | null {
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  return typeof status === 'number' ? status : null;
}

export class PushService {
  private keys: Promise<VapidKeys> | null = null;
  private readonly inFlight = new Set<Promise<void>>();
  /** When each (member, room) last got a message push; oldest first. */
  private readonly lastMessagePush = new Map<string, number>();

  constructor(private readonly ports: PushPorts) {}

  publicKey(): Promise<string> {
    return this.vapid().then((keys) => keys.publicKey);
  }

  /** This device's subscription, for the signed-in user and their session. 400 when malformed. */
  async subscribe(userId: number, sessionId: string, body: unknown): Promise<void> {
    const subscription = this.decoded(() => decodePushSubscription(body, this.ports.allowHttpEndpoints));
    await this.ports.repo.upsert(userId, Number(sessionId), subscription.endpoint, subscription.keys, this.ports.clock());
  }

  /** Forgets the endpoint if it is the user's (a browser that unsubscribed). */
  async unsubscribe(userId: number, body: unknown): Promise<void> {
    const { endpoint } = this.decoded(() => decodePushUnsubscribe(body, this.ports.allowHttpEndpoints));
    await this.ports.repo.deleteOfUser(userId, endpoint);
  }

  hasSubscription(userId: number): Promise<boolean> {
    return this.ports.repo.hasAny(userId);
  }

  /** Rings a callee with no open connection on every device they subscribed. */
  incomingCall(calleeId: number, caller: { userId: number; name: string }): void {
    const payload: PushPayload = { kind: 'incoming-call', callerId: caller.userId, callerName: caller.name };
    this.pushTo(calleeId, payload, { ttlSeconds: 60, urgency: 'high', topic: 'call' });
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
      if (last !== undefined && now - last < MESSAGE_PUSH_WINDOW_MS) {
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
    if (this.inFlight.size >= MAX_PUSHES_IN_FLIGHT) {
      this.ports.count?.('dropped');
      return;
    }
    const sending = this.deliver(userId, JSON.stringify(payload), options, when.unlessOnline)
      .catch((error: unknown) => this.ports.log.warn({ err: error, userId }, 'push not sent'))
      .finally(() => this.inFlight.delete(sending));
    this.inFlight.add(sending);
  }

  private async deliver(userId: number, payload: string, options: PushOptions, unlessOnline: boolean): Promise<void> {
    if (unlessOnline && (await this.ports.isOnline(userId))) return;
    const subscriptions = await this.ports.repo.ofUser(userId);
    if (subscriptions.length === 0) return;
    const vapid = await this.vapid();
    await Promise.all(subscriptions.map((subscription) => this.deliverTo(subscription, payload, vapid, options)));
  }

  private async deliverTo(subscription: StoredPushSubscription, payload: string, vapid: VapidKeys, options: PushOptions): Promise<void> {
    try {
      await this.ports.send(subscription, payload, vapid, options);
      this.ports.count?.('sent');
    } catch (error) {
      const status = statusOf(error);
      if (status === 404 || status === 410) {
        // The browser unsubscribed or the subscription expired: it will never work again.
        await this.ports.repo.delete(subscription.id);
        this.ports.count?.('gone');
        return;
      }
      this.ports.count?.('failed');
      this.ports.log.warn({ status, userId: subscription.userId, err: status === null ? error : undefined }, 'push refused');
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
