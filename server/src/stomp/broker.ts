// The broker: every live session, its subscriptions grouped for fan-out, heart-beats, slow
// consumers, and the Publisher that features use (DESIGN.md §3).
//
// Fan-out: each MESSAGE carries the receiver's own subscription id, and clients number their ids
// per connection (sub-0, sub-1, …), so subscribers are grouped by (destination, subscription id).
// A frame is serialised once per group and handed to uWS `publish` on the group's topic; uWS
// then writes the same bytes to every socket of the group in C++.
import type { Logger } from '../log';
import type { Publisher, StompPrincipal } from './api';
import { escapeHeader } from './frame';
import type { StompRouter } from './router';
import { CLOSE, type SessionHost, type StompSession, type Subscription } from './session';

export interface BrokerOptions {
  router: StompRouter;
  log: Logger;
  /** uWS app.publish: sends to every socket subscribed to the topic. */
  fanout(topic: string, message: string): void;
  /** Re-checks a login session's token; false closes its sockets (logout elsewhere, expiry). */
  sessionStillValid?(token: string, authSessionId: string): Promise<boolean>;
  revalidateEveryMs?: number;
  /** A socket with more unsent bytes than this is a slow consumer and is closed. */
  slowConsumerBytes: number;
  heartbeat?: { send: number; receive: number };
  now?: () => number;
}

/** Subscribers of one destination that share a subscription id (and header escaping). */
interface Group {
  topic: string;
  escapedId: string;
  raw: boolean;
  members: number;
}

const TICK_MS = 250;

export class Broker implements Publisher, SessionHost {
  readonly router: StompRouter;
  readonly serverName = 'letschat/0.1';
  readonly heartbeat: { send: number; receive: number };
  readonly now: () => number;
  private readonly log: Logger;
  private readonly all = new Set<StompSession>();
  private readonly byUser = new Map<number, Set<StompSession>>();
  private readonly byAuthSession = new Map<string, Set<StompSession>>();
  private readonly groups = new Map<string, Map<string, Group>>();
  private readonly disconnectListeners: Array<(user: StompPrincipal, remaining: number) => void> = [];
  private readonly timers: NodeJS.Timeout[] = [];
  private nextMessageId = 0;
  private nextConnectionId = 0;
  private readonly idPrefix = Date.now().toString(36);

  constructor(private readonly options: BrokerOptions) {
    this.router = options.router;
    this.log = options.log;
    this.heartbeat = options.heartbeat ?? { send: 1000, receive: 1000 };
    this.now = options.now ?? Date.now;
    this.timers.push(setInterval(() => this.tick(), TICK_MS).unref());
    if (options.sessionStillValid) {
      this.timers.push(setInterval(() => void this.revalidate(), options.revalidateEveryMs ?? 60_000).unref());
    }
  }

  newConnectionId(): string {
    return `${this.idPrefix}-${(this.nextConnectionId++).toString(36)}`;
  }

  /** The WebSocket is open (not yet CONNECTed). */
  opened(session: StompSession): void {
    this.all.add(session);
    add(this.byAuthSession, session.principal.authSessionId, session);
  }

  connected(session: StompSession): void {
    add(this.byUser, session.principal.userId, session);
  }

  /** The WebSocket closed, for whatever reason. */
  closed(session: StompSession): void {
    const wasConnected = this.byUser.get(session.principal.userId)?.has(session) ?? false;
    for (const sub of session.subscriptions?.values() ?? []) this.leaveGroup(sub);
    session.subscriptions = null;
    session.closed();
    this.all.delete(session);
    remove(this.byAuthSession, session.principal.authSessionId, session);
    if (!wasConnected) return;
    remove(this.byUser, session.principal.userId, session);
    const remaining = this.connectionCount(session.principal.userId);
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

  subscribed(session: StompSession, sub: Subscription): void {
    let groups = this.groups.get(sub.destination);
    if (!groups) this.groups.set(sub.destination, (groups = new Map()));
    let group = groups.get(sub.topic);
    if (!group) {
      const raw = session.version === '1.0';
      groups.set(sub.topic, (group = { topic: sub.topic, escapedId: raw ? sub.id : escapeHeader(sub.id), raw, members: 0 }));
    }
    group.members++;
    session.socket?.subscribe(sub.topic);
  }

  unsubscribed(session: StompSession, sub: Subscription): void {
    session.socket?.unsubscribe(sub.topic);
    this.leaveGroup(sub);
  }

  private leaveGroup(sub: Subscription): void {
    const groups = this.groups.get(sub.destination);
    const group = groups?.get(sub.topic);
    if (!groups || !group) return;
    if (--group.members === 0) {
      groups.delete(sub.topic);
      if (groups.size === 0) this.groups.delete(sub.destination);
    }
  }

  handlerFailed(session: StompSession, destination: string, err: unknown): void {
    this.log.error({ err, destination, userId: session.principal.userId, connection: session.principal.connectionId }, 'STOMP frame handling failed');
  }

  // ---- Publisher ----

  publish(destination: string, body: string | object): void {
    const groups = this.groups.get(destination);
    if (!groups) return;
    const message = new MessageText(destination, body, this.messageId());
    for (const group of groups.values()) this.options.fanout(group.topic, message.forSubscription(group.escapedId, group.raw));
  }

  publishToUser(userId: number, destination: string, body: string | object): void {
    const sessions = this.byUser.get(userId);
    if (!sessions) return;
    let message: MessageText | null = null;
    for (const session of sessions) {
      for (const sub of session.subscriptions?.values() ?? []) {
        if (sub.destination !== destination) continue;
        message ??= new MessageText(destination, body, this.messageId());
        const raw = session.version === '1.0';
        session.sendRaw(message.forSubscription(raw ? sub.id : escapeHeader(sub.id), raw));
      }
    }
  }

  unsubscribeUser(userId: number, destination: string): void {
    for (const session of this.byUser.get(userId) ?? []) {
      for (const sub of [...(session.subscriptions?.values() ?? [])]) {
        if (sub.destination === destination) session.drop(sub);
      }
    }
  }

  closeAuthSession(authSessionId: string): void {
    for (const session of [...(this.byAuthSession.get(authSessionId) ?? [])]) {
      session.fail('session ended', { code: CLOSE.policy, body: 'The login session has ended; sign in again.' });
    }
  }

  connectionCount(userId: number): number {
    return this.byUser.get(userId)?.size ?? 0;
  }

  onDisconnect(listener: (user: StompPrincipal, remaining: number) => void): void {
    this.disconnectListeners.push(listener);
  }

  // ---- lifecycle ----

  /** Closes every socket (server shutdown) and stops the timers. */
  stop(): void {
    for (const t of this.timers) clearInterval(t);
    for (const session of [...this.all]) session.socket?.end(1001, 'server shutting down');
  }

  get sessionCount(): number {
    return this.all.size;
  }

  private messageId(): string {
    return `${this.idPrefix}-${(this.nextMessageId++).toString(36)}`;
  }

  /** Heart-beats out, silent clients and slow consumers closed. */
  private tick(): void {
    const now = this.now();
    for (const session of this.all) {
      const socket = session.socket;
      if (!socket || session.state === 'closed') continue;
      const buffered = socket.getBufferedAmount();
      if (buffered > this.options.slowConsumerBytes) {
        this.log.warn({ userId: session.principal.userId, connection: session.principal.connectionId, buffered }, 'slow consumer closed');
        session.state = 'ending';
        socket.end(CLOSE.policy, 'slow consumer');
        continue;
      }
      if (session.state !== 'connected') continue;
      if (session.expectEvery > 0 && now - session.lastReceived > 2 * session.expectEvery) {
        this.log.info({ userId: session.principal.userId, connection: session.principal.connectionId }, 'closing a silent STOMP client');
        session.fail('no heart-beat from the client', { code: CLOSE.policy });
        continue;
      }
      if (session.sendEvery > 0 && now - session.lastSent >= session.sendEvery - TICK_MS / 2) session.sendRaw('\n');
    }
  }

  private async revalidate(): Promise<void> {
    for (const [authSessionId, sessions] of [...this.byAuthSession]) {
      const first = sessions.values().next().value;
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

/** A MESSAGE frame's text, built once per publish; only the subscription header differs per group. */
class MessageText {
  private readonly head: string;
  private readonly rawHead: string;
  private readonly tail: string;

  constructor(destination: string, body: string | object, messageId: string) {
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    const type = typeof body === 'string' ? 'text/plain;charset=utf-8' : 'application/json';
    const common = `\nmessage-id:${messageId}\nack:${messageId}\ncontent-type:${type}\ncontent-length:${Buffer.byteLength(text)}\nsubscription:`;
    this.head = `MESSAGE\ndestination:${escapeHeader(destination)}${common}`;
    this.rawHead = `MESSAGE\ndestination:${destination}${common}`;
    this.tail = `\n\n${text}\u0000`;
  }

  forSubscription(escapedId: string, raw: boolean): string {
    return (raw ? this.rawHead : this.head) + escapedId + this.tail;
  }
}

function add<K, V>(map: Map<K, Set<V>>, key: K, value: V): void {
  let set = map.get(key);
  if (!set) map.set(key, (set = new Set()));
  set.add(value);
}

function remove<K, V>(map: Map<K, Set<V>>, key: K, value: V): void {
  const set = map.get(key);
  if (!set) return;
  set.delete(value);
  if (set.size === 0) map.delete(key);
}
