// The broker: every live session, its subscriptions grouped for fan-out, heart-beats, slow
// consumers, and the Publisher that features use (DESIGN.md §3).
//
// Fan-out: each MESSAGE carries the receiver's own subscription id, and clients number their ids
// per connection (sub-0, sub-1, …), so subscribers are grouped by (destination, subscription id).
// A frame is serialised once per group and handed to uWS `publish` on the group's topic; uWS
// then writes the same bytes to every socket of the group in C++.
// A destination with one subscribing session (a user's own queues and refresh topic) maps to that
// session itself and is sent to directly: a uWS topic, or even a Group object, per user would cost
// memory on every idle session for no CPU saved.
import type { Logger } from '../log';
import type { Publisher, StompPrincipal } from './api';
import { escapeHeader } from './frame';
import { MultiMap } from './multimap';
import type { StompRouter } from './router';
import { CLOSE, StompSession, type SessionHost } from './session';

export interface BrokerOptions {
  router: StompRouter;
  log: Logger;
  /** uWS app.publish: sends to every socket subscribed to the topic. */
  fanout(topic: string, message: string): void;
  /** Re-checks a login session's token; false closes its sockets (expiry, or a logout on another node). */
  sessionStillValid?(token: string, authSessionId: string): Promise<boolean>;
  /** How often every connected login session is re-checked (default 5 minutes). */
  revalidateEveryMs?: number;
  /** A socket with more unsent bytes than this is a slow consumer and is closed. */
  slowConsumerBytes: number;
  heartbeat?: { send: number; receive: number };
  /** A millisecond clock wrapped to int32 (see SessionHost.now). */
  now?: () => number;
}

/** Subscribers of one destination that share a subscription id (and header escaping). */
interface Group {
  /** The uWS topic, named once the group has two members. */
  topic: string | null;
  escapedId: string;
  raw: boolean;
  members: number;
  /** The only member while there is one: sent to directly, not subscribed to the uWS topic. */
  solo: StompSession | null;
}

/**
 * A destination's subscribers: one session alone (each of its subscriptions to the destination,
 * usually one, is sent to directly), or groups by subscription id once a second session joins.
 */
type Held = StompSession | Group | Group[];

function findGroup(held: Group | Group[], escapedId: string, raw: boolean): Group | undefined {
  if (!Array.isArray(held)) return held.escapedId === escapedId && held.raw === raw ? held : undefined;
  return held.find((g) => g.escapedId === escapedId && g.raw === raw);
}

/** Headers of 1.0 sessions are not escaped, so their frames differ: a group per mode. */
function groupKey(session: StompSession, id: string): [escapedId: string, raw: boolean] {
  const raw = session.version === '1.0';
  return [raw ? id : escapeHeader(id), raw];
}

/** The groups of a destination held by one session alone: one lone-member group per subscription. */
function soloGroups(session: StompSession, destination: string): Group | Group[] {
  const groups: Group[] = [];
  const subs = session.subscriptions ?? [];
  for (let i = 0; i < subs.length; i += 2) {
    if (subs[i + 1] !== destination) continue;
    const [escapedId, raw] = groupKey(session, subs[i]);
    groups.push({ topic: null, escapedId, raw, members: 1, solo: session });
  }
  return groups.length === 1 ? groups[0] : groups;
}

/** The uWS topic shared by every subscriber with the same destination and subscription id. */
function topicOf(destination: string, group: Group): string {
  return (group.topic ??= `${destination}\u0000${group.escapedId}\u0000${group.raw ? 'raw' : 'esc'}`);
}

const TICK_MS = 250;

/**
 * Milliseconds from `since` to `now` on the int32 clock, right across its wrap (every 24.8 days)
 * while under 2^31 ms: always so where it matters, as a heart-beating session's timestamps are
 * at most twice its interval old (at most 2 × 999 999 999 ms) before it is closed.
 */
function elapsed(now: number, since: number): number {
  return (now - since) | 0;
}
const STOP_GRACE_MS = 1000;

export class Broker implements Publisher, SessionHost {
  readonly router: StompRouter;
  readonly serverName = 'letschat/0.1';
  readonly heartbeat: { send: number; receive: number };
  readonly now: () => number;
  private readonly log: Logger;
  private readonly all = new Set<StompSession>();
  private readonly byUser = new MultiMap<number, StompSession>();
  private readonly byAuthSession = new MultiMap<string, StompSession>();
  /** Destination → its only session, or its groups (several when clients use different subscription ids). */
  private readonly groups = new Map<string, Held>();
  private readonly disconnectListeners: Array<(user: StompPrincipal, remaining: number) => void> = [];
  /** Per connected user, bumped by unsubscribeUser (see StompSession's SUBSCRIBE). */
  private readonly revocations = new Map<number, number>();
  private readonly timers: NodeJS.Timeout[] = [];
  private nextMessageId = 0;
  private nextConnectionId = 0;
  private readonly idPrefix = Date.now().toString(36);

  constructor(private readonly options: BrokerOptions) {
    this.router = options.router;
    this.log = options.log;
    this.heartbeat = options.heartbeat ?? { send: 1000, receive: 1000 };
    // Milliseconds since the broker started, wrapped to int32: V8 then keeps every session's
    // timestamps as small integers in the object itself, not as a 16-byte heap number each.
    const epoch = Date.now();
    this.now = options.now ?? (() => (Date.now() - epoch) | 0);
    this.timers.push(setInterval(() => this.tick(), TICK_MS).unref());
    if (options.sessionStillValid) {
      this.timers.push(setInterval(() => void this.revalidate(), options.revalidateEveryMs ?? 5 * 60_000).unref());
    }
  }

  newConnectionId(): string {
    return `${this.idPrefix}-${(this.nextConnectionId++).toString(36)}`;
  }

  /** The WebSocket is open (not yet CONNECTed). */
  opened(session: StompSession): void {
    this.all.add(session);
    this.byAuthSession.add(session.principal.authSessionId, session);
  }

  connected(session: StompSession): void {
    this.byUser.add(session.principal.userId, session);
  }

  /** The WebSocket closed, for whatever reason. */
  closed(session: StompSession): void {
    const wasConnected = this.byUser.has(session.principal.userId, session);
    const subs = session.subscriptions ?? [];
    for (let i = 0; i < subs.length; i += 2) this.leaveGroup(session, subs[i], subs[i + 1], true);
    session.subscriptions = null;
    session.closed();
    this.all.delete(session);
    this.byAuthSession.delete(session.principal.authSessionId, session);
    if (!wasConnected) return;
    this.byUser.delete(session.principal.userId, session);
    const remaining = this.connectionCount(session.principal.userId);
    if (remaining === 0) this.revocations.delete(session.principal.userId);
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
    const stored = this.groups.get(destination);
    // A lone session (a user's own queues and topics), with however many ids, is sent to directly.
    if (stored === undefined) {
      this.groups.set(destination, session);
      return;
    }
    if (stored === session) return;
    // A second session: the destination is held by groups from now on.
    const held = stored instanceof StompSession ? soloGroups(stored, destination) : stored;
    const [escapedId, raw] = groupKey(session, id);
    const group = findGroup(held, escapedId, raw);
    if (!group) {
      const created: Group = { topic: null, escapedId, raw, members: 1, solo: session };
      this.groups.set(destination, Array.isArray(held) ? [...held, created] : [held, created]);
      return;
    }
    this.groups.set(destination, held);
    if (group.solo) {
      group.solo.socket?.subscribe(topicOf(destination, group));
      group.solo = null;
    }
    group.members++;
    session.socket?.subscribe(topicOf(destination, group));
  }

  unsubscribed(session: StompSession, id: string, destination: string): void {
    this.leaveGroup(session, id, destination, false);
  }

  /** `closing`: the whole session leaves, its socket is gone and its subscriptions with it. */
  private leaveGroup(session: StompSession, id: string, destination: string, closing: boolean): void {
    const held = this.groups.get(destination);
    if (held === undefined) return;
    if (held instanceof StompSession) {
      if (held === session && (closing || !session.subscribesTo(destination))) this.groups.delete(destination);
      return;
    }
    const group = findGroup(held, ...groupKey(session, id));
    if (!group) return;
    if (group.solo !== session && !closing) session.socket?.unsubscribe(topicOf(destination, group));
    if (--group.members > 0) return;
    if (!Array.isArray(held)) this.groups.delete(destination);
    else {
      const rest = held.filter((g) => g !== group);
      this.groups.set(destination, rest.length === 1 ? rest[0] : rest);
    }
  }

  handlerFailed(session: StompSession, destination: string, err: unknown): void {
    this.log.error({ err, destination, userId: session.principal.userId, connection: session.principal.connectionId }, 'STOMP frame handling failed');
  }

  // ---- Publisher ----

  publish(destination: string, body: string | object): void {
    const held = this.groups.get(destination);
    if (!held) return;
    const message = new MessageText(destination, body, this.messageId());
    if (held instanceof StompSession) {
      deliver(held, destination, message);
      return;
    }
    for (const group of Array.isArray(held) ? held : [held]) {
      const text = message.forSubscription(group.escapedId, group.raw);
      if (group.solo) group.solo.sendRaw(text);
      else this.options.fanout(topicOf(destination, group), text);
    }
  }

  publishToUser(userId: number, destination: string, body: string | object, exceptConnectionId?: string): void {
    const sessions = this.byUser.get(userId);
    let message: MessageText | null = null;
    for (const session of sessions) {
      if (!session.subscribesTo(destination) || session.principal.connectionId === exceptConnectionId) continue;
      message ??= new MessageText(destination, body, this.messageId());
      deliver(session, destination, message);
    }
  }

  unsubscribeUser(userId: number, destination: string): void {
    // Only a connected user can have a SUBSCRIBE in flight, so only they need the bump.
    if (this.byUser.count(userId) > 0) this.revocations.set(userId, this.revocationEpoch(userId) + 1);
    for (const session of this.byUser.get(userId)) session.dropDestination(destination);
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

  onDisconnect(listener: (user: StompPrincipal, remaining: number) => void): void {
    this.disconnectListeners.push(listener);
  }

  // ---- lifecycle ----

  /** Closes every socket (server shutdown) and stops the timers. */
  async stop(): Promise<void> {
    for (const t of this.timers) clearInterval(t);
    for (const session of [...this.all]) session.socket?.end(1001, 'server shutting down');
    // Graceful closes finish when clients answer; disconnect listeners (presence) run meanwhile,
    // before the caller closes the database. A client that does not answer is cut.
    const deadline = Date.now() + STOP_GRACE_MS;
    while (this.all.size > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    for (const session of [...this.all]) session.socket?.close();
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
      if (session.expectEvery > 0 && elapsed(now, session.lastReceived) > 2 * session.expectEvery) {
        this.log.info({ userId: session.principal.userId, connection: session.principal.connectionId }, 'closing a silent STOMP client');
        session.fail('no heart-beat from the client', { code: CLOSE.policy });
        continue;
      }
      if (session.sendEvery > 0 && elapsed(now, session.lastSent) >= session.sendEvery - TICK_MS / 2) session.sendRaw('\n');
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

/** Sends the message to each of the session's subscriptions to the destination. */
function deliver(session: StompSession, destination: string, message: MessageText): void {
  const subs = session.subscriptions ?? [];
  const raw = session.version === '1.0';
  for (let i = 0; i < subs.length; i += 2) {
    if (subs[i + 1] === destination) session.sendRaw(message.forSubscription(raw ? subs[i] : escapeHeader(subs[i]), raw));
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
