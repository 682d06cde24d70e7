// Who is subscribed to what, arranged for fan-out (docs/architecture.md §3). Each MESSAGE carries the
// receiver's own subscription id, and clients number their ids per connection (sub-0, sub-1, …),
// so subscribers are grouped by (destination, subscription id). A frame is serialised once per
// group and handed to uWS `publish` on the group's topic; uWS then writes the same bytes to every
// socket of the group in C++.
// A destination with one subscribing session (a user's own queues and refresh topic) maps to that
// session itself and is sent to directly: a uWS topic, or even a Group object, per user would cost
// memory on every idle session for no CPU saved.
import { SerializedJson } from './api';
import { escapeHeader } from './frame';
import { StompSession } from './session';

/** A MESSAGE frame's text, built once per publish; only the subscription header differs per group. */
export class MessageText {
  private readonly head: string;
  private readonly rawHead: string;
  private readonly tail: string;

  constructor(destination: string, body: string | object, messageId: string) {
    const text = typeof body === 'string' ? body : body instanceof SerializedJson ? body.text : JSON.stringify(body);
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
  session.forEachSubscriptionTo(destination, (id) => {
    const [escapedId, raw] = groupKey(session, id);
    groups.push({ topic: null, escapedId, raw, members: 1, solo: session });
  });
  return groups.length === 1 ? groups[0] : groups;
}

/** The uWS topic shared by every subscriber with the same destination and subscription id. */
function topicOf(destination: string, group: Group): string {
  return (group.topic ??= `${destination}\u0000${group.escapedId}\u0000${group.raw ? 'raw' : 'esc'}`);
}

/** Sends the message to each of the session's subscriptions to the destination; answers how many. */
export function deliverTo(session: StompSession, destination: string, message: MessageText): number {
  const raw = session.version === '1.0';
  let delivered = 0;
  session.forEachSubscriptionTo(destination, (id) => {
    session.sendRaw(message.forSubscription(raw ? id : escapeHeader(id), raw));
    delivered++;
  });
  return delivered;
}

export class SubscriptionRegistry {
  /** Destination → its only session, or its groups (several when clients use different subscription ids). */
  private readonly held = new Map<string, Held>();

  /**
   * @param fanout uWS app.publish: sends to every socket subscribed to the topic.
   * @param onHeld told when a destination gets its first subscriber on this node (true) and
   *   loses its last (false): a cluster bus listens for it only meanwhile.
   */
  constructor(
    private readonly fanout: (topic: string, message: string) => void,
    private readonly onHeld: (destination: string, held: boolean) => void = () => {},
  ) {}

  /** The session has just added the subscription (id, destination). */
  add(session: StompSession, id: string, destination: string): void {
    const stored = this.held.get(destination);
    // A lone session (a user's own queues and topics), with however many ids, is sent to directly.
    if (stored === undefined) {
      this.held.set(destination, session);
      this.onHeld(destination, true);
      return;
    }
    if (stored === session) return;
    // A second session: the destination is held by groups from now on.
    const held = stored instanceof StompSession ? soloGroups(stored, destination) : stored;
    const [escapedId, raw] = groupKey(session, id);
    const group = findGroup(held, escapedId, raw);
    if (!group) {
      const created: Group = { topic: null, escapedId, raw, members: 1, solo: session };
      this.held.set(destination, Array.isArray(held) ? [...held, created] : [held, created]);
      return;
    }
    this.held.set(destination, held);
    if (group.solo) {
      group.solo.socket?.subscribe(topicOf(destination, group));
      group.solo = null;
    }
    group.members++;
    session.socket?.subscribe(topicOf(destination, group));
  }

  /**
   * The session no longer holds the subscription. `closing`: the whole session leaves, its socket
   * is gone and its subscriptions with it.
   */
  remove(session: StompSession, id: string, destination: string, closing: boolean): void {
    const held = this.held.get(destination);
    if (held === undefined) return;
    if (held instanceof StompSession) {
      if (held === session && (closing || !session.subscribesTo(destination))) this.release(destination);
      return;
    }
    const group = findGroup(held, ...groupKey(session, id));
    if (!group) return;
    if (group.solo !== session && !closing) session.socket?.unsubscribe(topicOf(destination, group));
    if (--group.members > 0) return;
    if (!Array.isArray(held)) this.release(destination);
    else {
      const rest = held.filter((g) => g !== group);
      this.held.set(destination, rest.length === 1 ? rest[0] : rest);
    }
  }

  /** Whether any session on this node subscribes to the destination. */
  has(destination: string): boolean {
    return this.held.has(destination);
  }

  /** Every destination some session on this node subscribes to. */
  destinations(): IterableIterator<string> {
    return this.held.keys();
  }

  private release(destination: string): void {
    this.held.delete(destination);
    this.onHeld(destination, false);
  }

  /** Every subscriber of the destination receives the message; answers how many deliveries. */
  publish(destination: string, makeMessage: () => MessageText): number {
    const held = this.held.get(destination);
    if (!held) return 0;
    const message = makeMessage();
    if (held instanceof StompSession) return deliverTo(held, destination, message);
    let delivered = 0;
    for (const group of Array.isArray(held) ? held : [held]) {
      const text = message.forSubscription(group.escapedId, group.raw);
      if (group.solo) group.solo.sendRaw(text);
      else this.fanout(topicOf(destination, group), text);
      delivered += group.members;
    }
    return delivered;
  }
}
