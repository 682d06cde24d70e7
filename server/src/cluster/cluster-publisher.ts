// The Publisher features use, for one node or many: everything is done on this node at once,
// then sent over the bus so every other node does the same for its own clients. Features do
// not know whether other nodes exist.
//
// Channels: `d:{destination}` carries a publish to a destination (a room's topic, a user's
// refresh topic), listened to while a client here subscribes to it; `u:{userId}` carries what is
// for one user's connections (call queues, the end of a subscription), listened to while the
// user is connected here; `all` carries what every node must do (a login session ended, a
// feature's signal such as a room's members changing).
import { parseSubscriptionDestination } from '@common/destinations';
import type { Broker, LocalInterest } from '../stomp/broker';
import { SerializedJson, type Publisher, type StompPrincipal } from '../stomp/api';
import type { Logger } from '../log';
import type { Bus } from './bus';
import type { Signals } from './signals';

type UserNews =
  | { op: 'deliver'; d: string; t: 's' | 'j'; b: string; x?: string }
  | { op: 'unsub'; d: string };

type NodeNews = { op: 'close-session'; id: string } | { op: 'signal'; name: string; data: string } | { op: 'resync' };

const ALL = 'all';
const destinationChannel = (destination: string) => `d:${destination}`;
const userChannel = (userId: number) => `u:${userId}`;

/**
 * What the broker tells about this node's clients, turned into what the bus listens to: a
 * destination's channel while a client here subscribes to it, a user's while they are connected here.
 */
export function busInterest(bus: Bus): LocalInterest {
  return {
    destination: (destination, held) => (held ? bus.listen(destinationChannel(destination)) : bus.unlisten(destinationChannel(destination))),
    user: (userId, connected) => (connected ? bus.listen(userChannel(userId)) : bus.unlisten(userChannel(userId))),
  };
}

/** A body as text plus its kind: 's' text/plain, 'j' JSON. */
function encodeBody(body: string | object): ['s' | 'j', string] {
  if (typeof body === 'string') return ['s', body];
  return ['j', body instanceof SerializedJson ? body.text : JSON.stringify(body)];
}

function decodeBody(kind: string, text: string): string | SerializedJson {
  return kind === 's' ? text : new SerializedJson(text);
}

export class ClusterPublisher implements Publisher, Signals {
  private readonly signalHandlers = new Map<string, Array<(data: string) => void>>();
  /** The bus's drop count when this node last told clients to catch up. */
  private droppedAtResync = 0;

  constructor(
    private readonly broker: Broker,
    private readonly bus: Bus,
    private readonly log: Logger,
  ) {
    bus.listen(ALL);
    bus.onMessage((channel, message) => this.received(channel, message));
    // In the same turn as the features' onLost handlers and the re-check of sessions: a client
    // told to catch up asks over HTTP, which comes after them.
    bus.onReconnect(() => {
      const droppedHere = bus.dropped > this.droppedAtResync;
      this.droppedAtResync = bus.dropped;
      this.resync(droppedHere);
    });
  }

  publish(destination: string, body: string | object): void {
    this.broker.publish(destination, body);
    const [kind, text] = encodeBody(body);
    this.bus.publish(destinationChannel(destination), kind + text);
  }

  publishToUser(userId: number, destination: string, body: string | object, exceptConnectionId?: string): void {
    this.broker.publishToUser(userId, destination, body, exceptConnectionId);
    const [t, b] = encodeBody(body);
    this.toUser(userId, exceptConnectionId === undefined ? { op: 'deliver', d: destination, t, b } : { op: 'deliver', d: destination, t, b, x: exceptConnectionId });
  }

  unsubscribeUser(userId: number, destination: string): void {
    this.broker.unsubscribeUser(userId, destination);
    this.toUser(userId, { op: 'unsub', d: destination });
  }

  closeAuthSession(authSessionId: string): void {
    this.broker.closeAuthSession(authSessionId);
    this.toAll({ op: 'close-session', id: authSessionId });
  }

  connectionCount(userId: number): number {
    return this.broker.connectionCount(userId);
  }

  onConnect(listener: (user: StompPrincipal, connections: number) => void): void {
    this.broker.onConnect(listener);
  }

  onDisconnect(listener: (user: StompPrincipal, remaining: number) => void): void {
    this.broker.onDisconnect(listener);
  }

  onSubscribe(listener: (user: StompPrincipal, destination: string, deliver: (body: string | object) => void) => void): void {
    this.broker.onSubscribe(listener);
  }

  // ---- Signals ----

  broadcast(name: string, data: string): void {
    this.toAll({ op: 'signal', name, data });
  }

  onLost(handler: () => void): void {
    // Registered with the bus before main.ts's re-check of sessions and subscriptions, so it runs first.
    this.bus.onReconnect(handler);
  }

  onSignal(name: string, handler: (data: string) => void): void {
    const list = this.signalHandlers.get(name) ?? [];
    list.push(handler);
    this.signalHandlers.set(name, list);
  }

  // ---- healing after a bus outage (docs/protocol.md "Catching up after a bus outage") ----

  /**
   * News may have been lost while the bus was down: every client of this node is told to catch
   * up on the topics it already holds (`true` on its chat-list refresh topic, `{type: "resync"}`
   * on each room-events topic), and, when this node dropped news of its own meanwhile
   * (`everywhere`), so is every client of every other node.
   */
  resync(everywhere: boolean): void {
    this.resyncHere();
    if (everywhere) this.toAll({ op: 'resync' });
  }

  private resyncHere(): void {
    let told = 0;
    for (const destination of this.broker.heldDestinations()) {
      const parsed = parseSubscriptionDestination(destination);
      if (parsed.kind === 'toggleRefresh') this.broker.publish(destination, 'true');
      else if (parsed.kind === 'chatRoomEvents') this.broker.publish(destination, { type: 'resync', chatRoomId: parsed.chatRoomId });
      else continue;
      told++;
    }
    this.log.info({ destinations: told }, 'told clients to catch up after the bus was down');
  }

  // ---- from other nodes ----

  private toUser(userId: number, news: UserNews): void {
    this.bus.publish(userChannel(userId), JSON.stringify(news));
  }

  private toAll(news: NodeNews): void {
    this.bus.publish(ALL, JSON.stringify(news));
  }

  private received(channel: string, message: string): void {
    if (channel.startsWith('d:')) {
      this.broker.publish(channel.slice(2), decodeBody(message[0], message.slice(1)));
    } else if (channel.startsWith('u:')) {
      const news = JSON.parse(message) as UserNews;
      const userId = Number(channel.slice(2));
      if (news.op === 'deliver') this.broker.publishToUser(userId, news.d, decodeBody(news.t, news.b), news.x);
      else this.broker.unsubscribeUser(userId, news.d);
    } else if (channel === ALL) {
      const news = JSON.parse(message) as NodeNews;
      if (news.op === 'close-session') this.broker.closeAuthSession(news.id);
      else if (news.op === 'resync') this.resyncHere();
      else for (const handler of this.signalHandlers.get(news.name) ?? []) handler(news.data);
    } else {
      this.log.warn({ channel }, 'bus message on an unknown channel');
    }
  }
}
