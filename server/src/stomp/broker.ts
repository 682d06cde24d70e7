// The broker: every live session, the subscription registry for fan-out, the tick that beats
// hearts and closes silent clients and slow consumers, and the Publisher that features use
// (docs/architecture.md §3). Fan-out itself is in subscriptions.ts, heart-beats in heartbeat.ts, the
// slow-consumer policy in slow-consumer.ts.
import type { Logger } from '../log';
import type { Publisher, StompPrincipal } from './api';
import { DEFAULT_BUDGET, type BudgetLimits } from './budget';
import { HEARTBEAT_TICK_MS, SERVER_HEARTBEAT } from './heartbeat';
import { escapeHeader } from './frame';
import { MultiMap } from './multimap';
import type { StompRouter } from './router';
import { CLOSE, type StompSession, type SessionHost } from './session';
import { isSlowConsumer, SLOW_CONSUMER_BYTES } from './slow-consumer';
import { deliverTo, MessageText, SubscriptionRegistry } from './subscriptions';
import { Turns } from './turns';

export interface BrokerOptions {
  router: StompRouter;
  log: Logger;
  /** uWS app.publish: sends to every socket subscribed to the topic. */
  fanout(topic: string, message: string): void;
  /** Re-checks a login session's token; false closes its sockets (expiry, or a logout on another node). */
  sessionStillValid?(token: string, authSessionId: string): Promise<boolean>;
  /** How often every connected login session is re-checked (default 5 minutes). */
  revalidateEveryMs?: number;
  /** A socket with more unsent bytes than this is a slow consumer and is closed (default SLOW_CONSUMER_BYTES). */
  slowConsumerBytes?: number;
  heartbeat?: { send: number; receive: number };
  /** What one connection may send per second (default DEFAULT_BUDGET). */
  budget?: BudgetLimits;
  /** A socket that has not completed CONNECT this long after opening is closed (default 10 s). */
  connectTimeoutMs?: number;
  /** Open sockets one user may hold; the next is refused with an ERROR (default 20). */
  maxConnectionsPerUser?: number;
  /** Open sockets one client address may hold (default 200). */
  maxConnectionsPerAddress?: number;
  /** A millisecond clock wrapped to int32 (see SessionHost.now). */
  now?: () => number;
  /** Told what this node's clients listen to, so a cluster bus carries only that here. */
  interest?: LocalInterest;
}

/**
 * What this node's clients listen to, as it changes: a destination's first subscriber on this
 * node (held) and its last leaving; a user's first connection here and their last closing.
 */
export interface LocalInterest {
  destination(destination: string, held: boolean): void;
  user(userId: number, connected: boolean): void;
}

export const CONNECTION_LIMITS = { connectTimeoutMs: 10_000, perUser: 20, perAddress: 200 };

/** What the STOMP layer has done, as plain numbers (metrics read them when scraped). */
export interface StompCounters {
  framesIn: number;
  framesOut: number;
  published: number;
  deliveries: number;
  slowConsumersClosed: number;
}

const STOP_GRACE_MS = 1000;

export class Broker implements Publisher, SessionHost {
  readonly router: StompRouter;
  readonly serverName = 'letschat/0.1';
  readonly heartbeat: { send: number; receive: number };
  readonly budget: BudgetLimits;
  readonly connectTimeoutMs: number;
  readonly now: () => number;
  readonly counters: StompCounters = { framesIn: 0, framesOut: 0, published: 0, deliveries: 0, slowConsumersClosed: 0 };
  readonly turns: Turns;
  private readonly log: Logger;
  private readonly all = new Set<StompSession>();
  private readonly byUser = new MultiMap<number, StompSession>();
  private readonly byAuthSession = new MultiMap<string, StompSession>();
  /** Open sockets (connected or not) per user and per client address, for the connection caps. */
  private readonly openByUser = new Map<number, number>();
  private readonly openByAddress = new Map<string, number>();
  private readonly subscriptions: SubscriptionRegistry;
  private readonly connectListeners: Array<(user: StompPrincipal, connections: number) => void> = [];
  private readonly disconnectListeners: Array<(user: StompPrincipal, remaining: number) => void> = [];
  private readonly subscribeListeners: Array<(user: StompPrincipal, destination: string, deliver: (body: string | object) => void) => void> = [];
  /** Per connected user, bumped by unsubscribeUser (see StompSession's SUBSCRIBE). */
  private readonly revocations = new Map<number, number>();
  private readonly timers: NodeJS.Timeout[] = [];
  private nextMessageId = 0;
  private nextConnectionId = 0;
  private readonly idPrefix = Date.now().toString(36);

  constructor(private readonly options: BrokerOptions) {
    this.router = options.router;
    this.log = options.log;
    this.heartbeat = options.heartbeat ?? SERVER_HEARTBEAT;
    this.budget = options.budget ?? DEFAULT_BUDGET;
    this.connectTimeoutMs = options.connectTimeoutMs ?? CONNECTION_LIMITS.connectTimeoutMs;
    this.turns = new Turns((err) => this.log.error({ err }, 'a STOMP turn failed'));
    this.subscriptions = new SubscriptionRegistry(options.fanout, options.interest && ((d, held) => options.interest!.destination(d, held)));
    // Milliseconds since the broker started, wrapped to int32: V8 then keeps every session's
    // timestamps as small integers in the object itself, not as a 16-byte heap number each.
    const epoch = Date.now();
    this.now = options.now ?? (() => (Date.now() - epoch) | 0);
    this.timers.push(setInterval(() => this.tick(), HEARTBEAT_TICK_MS).unref());
    if (options.sessionStillValid) {
      this.timers.push(setInterval(() => void this.revalidate(), options.revalidateEveryMs ?? 5 * 60_000).unref());
    }
  }

  newConnectionId(): string {
    return `${this.idPrefix}-${(this.nextConnectionId++).toString(36)}`;
  }

  /** The WebSocket is open (not yet CONNECTed). Over a connection cap it is refused with an ERROR. */
  opened(session: StompSession): void {
    this.all.add(session);
    this.byAuthSession.add(session.principal.authSessionId, session);
    const byUser = count(this.openByUser, session.principal.userId, +1);
    const byAddress = count(this.openByAddress, session.remoteAddress, +1);
    const perUser = this.options.maxConnectionsPerUser ?? CONNECTION_LIMITS.perUser;
    const perAddress = this.options.maxConnectionsPerAddress ?? CONNECTION_LIMITS.perAddress;
    if (byUser > perUser) {
      session.fail(`more than ${perUser} connections for this user`, { code: CLOSE.policy, body: 'Too many open connections: close other tabs or devices.' });
    } else if (byAddress > perAddress) {
      session.fail(`more than ${perAddress} connections from this address`, { code: CLOSE.policy });
    }
  }

  connected(session: StompSession): void {
    const { userId } = session.principal;
    this.byUser.add(userId, session);
    const connections = this.connectionCount(userId);
    if (connections === 1) this.options.interest?.user(userId, true);
    for (const listener of this.connectListeners) {
      try {
        listener(session.principal, connections);
      } catch (err) {
        this.log.error({ err }, 'connect listener failed');
      }
    }
  }

  /** The WebSocket closed, for whatever reason. */
  closed(session: StompSession): void {
    const wasConnected = this.byUser.has(session.principal.userId, session);
    const subs = session.takeSubscriptions();
    for (let i = 0; i < subs.length; i += 2) this.subscriptions.remove(session, subs[i], subs[i + 1], true);
    session.closed();
    if (this.all.delete(session)) {
      count(this.openByUser, session.principal.userId, -1);
      count(this.openByAddress, session.remoteAddress, -1);
    }
    this.byAuthSession.delete(session.principal.authSessionId, session);
    if (!wasConnected) return;
    this.byUser.delete(session.principal.userId, session);
    const remaining = this.connectionCount(session.principal.userId);
    if (remaining === 0) {
      this.revocations.delete(session.principal.userId);
      this.options.interest?.user(session.principal.userId, false);
    }
    for (const listener of this.disconnectListeners) {
      try {
        Promise.resolve(listener(session.principal, remaining) as unknown).catch((err: unknown) =>
          this.log.error({ err }, 'disconnect listener failed'),
        );
      } catch (err) {
        this.log.error({ err }, 'disconnect listener failed');
      }
    }
  }

  subscribed(session: StompSession, id: string, destination: string): void {
    this.subscriptions.add(session, id, destination);
    for (const listener of this.subscribeListeners) {
      try {
        listener(session.principal, destination, (body) => {
          const raw = session.version === '1.0';
          session.sendRaw(new MessageText(destination, body, this.messageId()).forSubscription(raw ? id : escapeHeader(id), raw));
        });
      } catch (err) {
        this.log.error({ err, destination }, 'subscribe listener failed');
      }
    }
  }

  unsubscribed(session: StompSession, id: string, destination: string): void {
    this.subscriptions.remove(session, id, destination, false);
  }

  handlerFailed(session: StompSession, destination: string, err: unknown): void {
    this.log.error({ err, destination, userId: session.principal.userId, connection: session.principal.connectionId }, 'STOMP frame handling failed');
  }

  // ---- Publisher ----

  publish(destination: string, body: string | object): void {
    this.counters.published++;
    this.counters.deliveries += this.subscriptions.publish(destination, () => new MessageText(destination, body, this.messageId()));
  }

  publishToUser(userId: number, destination: string, body: string | object, exceptConnectionId?: string): void {
    const sessions = this.byUser.get(userId);
    let message: MessageText | null = null;
    for (const session of sessions) {
      if (!session.subscribesTo(destination) || session.principal.connectionId === exceptConnectionId) continue;
      message ??= new MessageText(destination, body, this.messageId());
      this.counters.deliveries += deliverTo(session, destination, message);
    }
  }

  unsubscribeUser(userId: number, destination: string): void {
    // Only a connected user can have a SUBSCRIBE in flight, so only they need the bump.
    if (this.byUser.count(userId) > 0) this.revocations.set(userId, this.revocationEpoch(userId) + 1);
    for (const session of this.byUser.get(userId)) session.dropDestination(destination);
  }

  /** The destinations some client of this node subscribes to (a snapshot). */
  heldDestinations(): string[] {
    return [...this.subscriptions.destinations()];
  }

  revocationEpoch(userId: number): number {
    return this.revocations.get(userId) ?? 0;
  }

  closeAuthSession(authSessionId: string): void {
    for (const session of this.byAuthSession.get(authSessionId)) {
      session.fail('session ended', { code: CLOSE.policy, body: 'The login session has ended; sign in again.' });
    }
  }

  connectionCount(userId: number): number {
    return this.byUser.count(userId);
  }

  onConnect(listener: (user: StompPrincipal, connections: number) => void): void {
    this.connectListeners.push(listener);
  }

  onDisconnect(listener: (user: StompPrincipal, remaining: number) => void): void {
    this.disconnectListeners.push(listener);
  }

  onSubscribe(listener: (user: StompPrincipal, destination: string, deliver: (body: string | object) => void) => void): void {
    this.subscribeListeners.push(listener);
  }

  // ---- lifecycle ----

  /** Closes every socket (server shutdown) and stops the timers. */
  async stop(): Promise<void> {
    for (const t of this.timers) clearInterval(t);
    // Told with an ERROR, so clients know to come back (to another node, or this one restarted).
    for (const session of [...this.all]) {
      session.fail('server shutting down; reconnect', { code: CLOSE.goingAway, body: 'The server is restarting. Reconnect in a few seconds.' });
    }
    // Graceful closes finish when clients answer; disconnect listeners (presence) run meanwhile,
    // before the caller closes the database. A client that does not answer is cut.
    const deadline = Date.now() + STOP_GRACE_MS;
    while (this.all.size > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    for (const session of [...this.all]) session.socket?.close();
  }

  get sessionCount(): number {
    return this.all.size;
  }

  /** Sessions past CONNECT. */
  get connectedCount(): number {
    let n = 0;
    for (const session of this.all) if (session.state === 'connected') n++;
    return n;
  }

  private messageId(): string {
    return `${this.idPrefix}-${(this.nextMessageId++).toString(36)}`;
  }

  /** Heart-beats out, silent clients and slow consumers closed. */
  private tick(): void {
    const now = this.now();
    const slowConsumerBytes = this.options.slowConsumerBytes ?? SLOW_CONSUMER_BYTES;
    for (const session of this.all) {
      if (session.state === 'closed') continue;
      const buffered = session.bufferedBytes();
      if (isSlowConsumer(buffered, slowConsumerBytes)) {
        this.log.warn({ userId: session.principal.userId, connection: session.principal.connectionId, buffered }, 'slow consumer closed');
        this.counters.slowConsumersClosed++;
        session.endAsSlowConsumer();
        continue;
      }
      const outcome = session.keepAlive(now);
      if (outcome !== 'ok') {
        const why = outcome === 'silent' ? 'closed a silent STOMP client' : 'closed a socket that never sent CONNECT';
        this.log.info({ userId: session.principal.userId, connection: session.principal.connectionId }, why);
      }
    }
  }

  /**
   * Checks again, as if new, every login session and every subscription of this node: after news
   * may have been lost (the cluster bus was down), a logout or a leave made on another node
   * meanwhile still ends what it should here. A subscription no longer authorised is dropped.
   */
  async recheckAll(): Promise<void> {
    await this.revalidate();
    for (const session of [...this.all]) {
      if (session.state !== 'connected') continue;
      for (const destination of session.subscribedDestinations()) {
        let allowed = true;
        try {
          allowed = await this.router.authorize(session.principal, destination);
        } catch (err) {
          this.log.warn({ err, destination }, 'could not re-check a subscription');
        }
        if (!allowed) session.dropDestination(destination);
      }
    }
  }

  private async revalidate(): Promise<void> {
    for (const authSessionId of this.byAuthSession.keys()) {
      const first = this.byAuthSession.get(authSessionId)[0];
      if (!first) continue;
      let valid = true;
      try {
        valid = await this.options.sessionStillValid!(first.token, authSessionId);
      } catch (err) {
        this.log.warn({ err }, 'could not re-check a login session');
      }
      if (!valid) this.closeAuthSession(authSessionId);
    }
  }
}

/** Adds delta to the key's count, dropping the key at zero; answers the new count. */
function count<K>(counts: Map<K, number>, key: K, delta: number): number {
  const n = (counts.get(key) ?? 0) + delta;
  if (n > 0) counts.set(key, n);
  else counts.delete(key);
  return n;
}
