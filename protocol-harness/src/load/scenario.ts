// What a load run drives: sessions already connected and subscribed, grouped so that whatever a
// member sends, every member of its group (the sender included) receives. Built once, it can
// be driven several times (make bench raises the rate in steps on one set of sessions).
import type { ReadFrame } from './read-throttle';
import { api, type ChatHistoryResponse } from '@common/api';
import { app, topics, WEBSOCKET_PATH } from '@common/destinations';
import { addUser, createRoom, login, mapLimit, type Credentials, type LoggedInUser } from './chat-rest';
import { Swarm } from './swarm';

export interface Scenario {
  mode: 'chat' | 'broker';
  swarm: Swarm;
  /** Confirmed subscribers by group; every client appears in at most one. */
  groups: number[][];
  /** Group index of each client, or -1 if it could not join. */
  groupOf: number[];
  destination(client: number): string;
  body(client: number, messageId: string): string;
  /**
   * The /app/read a client sends for a message it received from someone else (the
   * driver asks for no other), as our browser client does while looking at the room; null for a
   * body that is no chat message.
   */
  read?(client: number, delivered: string): ReadFrame | null;
  /**
   * The client's room after `afterSeq`, as the browser catches up after a reconnect or a
   * `resync` (docs/protocol.md): each message as a body like a delivery's, oldest first.
   */
  history?(client: number, afterSeq: number): Promise<{ bodies: string[]; hasMore: boolean }>;
  close(): Promise<void>;
}

export interface SetupProgress {
  (step: string, done: number, total: number): void;
}

/** Client i's slot among `slots` groups: contiguous blocks whose sizes differ by at most one. */
export function slotOf(client: number, clients: number, slots: number): number {
  return Math.floor((client * slots) / clients);
}

/**
 * The seq of a chat message as the server writes it: its third top-level key, before any nested
 * object (a quoted reply has one too), and a `"seq":` inside a string would be escaped. Read off
 * the text: the driver would otherwise parse every delivery of every session (27,000 a second at
 * 3000 msg/s) for one number.
 */
export function seqOf(body: string): number | null {
  const at = body.indexOf('"seq":');
  if (at < 0) return null;
  let seq = 0;
  let i = at + 6;
  for (; i < body.length; i++) {
    const digit = body.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) break;
    seq = seq * 10 + digit;
  }
  return i === at + 6 || seq === 0 ? null : seq;
}

/** The room after `afterSeq`, each message as a body like a delivery's. */
async function historyAfter(base: string, cookie: string, chatRoomId: number, afterSeq: number): Promise<{ bodies: string[]; hasMore: boolean }> {
  const res = await fetch(`${base}${api.chatHistory}?chatRoomId=${chatRoomId}&afterSeq=${afterSeq}`, { headers: { cookie } });
  if (!res.ok) throw new Error(`history of room ${chatRoomId}: HTTP ${res.status}`);
  const page = (await res.json()) as ChatHistoryResponse;
  return { bodies: page.messages.map((m) => JSON.stringify({ ...m, chatRoomId })), hasMore: page.hasMore === true };
}

function pad(text: string, size: number): string {
  return text.length >= size ? text : text + '.'.repeat(size - text.length);
}

function groupsFrom(keys: (number | string | null)[]): { groups: number[][]; groupOf: number[] } {
  const index = new Map<number | string, number>();
  const groups: number[][] = [];
  const groupOf = keys.map((key, client) => {
    if (key === null) return -1;
    let g = index.get(key);
    if (g === undefined) {
      g = groups.length;
      index.set(key, g);
      groups.push([]);
    }
    groups[g].push(client);
    return g;
  });
  return { groups, groupOf };
}

export function webSocketUrl(base: string): string {
  const u = new URL(base);
  if (u.protocol === 'ws:' || u.protocol === 'wss:') return u.toString();
  u.protocol = u.protocol === 'https:' ? 'wss:' : 'ws:';
  u.pathname = WEBSOCKET_PATH;
  return u.toString();
}

export interface ChatSetup {
  url: string;
  /** Several nodes of one cluster: client i connects to urls[i % urls.length]. Defaults to [url]. */
  urls?: string[];
  users: Credentials[];
  rooms: number;
  messageBytes: number;
  loginConcurrency: number;
  connectConcurrency: number;
  /** Also subscribe every session to its room's events topic (read, typing, presence), as our client does. */
  roomEvents?: boolean;
  /** `--reconnect`: sessions reopen after a drop with the browser's backoff from this base (and hear `resync`). */
  reconnectBaseMs?: number;
  progress?: SetupProgress;
}

/**
 * Logs every user in, makes `rooms` rooms (the first member creates it with the second, then
 * invites the rest), opens a session per user and subscribes it to its room's topic.
 */
export async function prepareChat(s: ChatSetup): Promise<Scenario> {
  const n = s.users.length;
  if (s.rooms < 1 || n < 2 * s.rooms) throw new Error(`chat mode needs at least 2 clients per room (${n} clients, ${s.rooms} rooms)`);
  const base = s.url.replace(/\/+$/, '');
  let done = 0;
  const users = await mapLimit(s.users, s.loginConcurrency, async (c) => {
    const u = await login(base, c);
    s.progress?.('logging in', ++done, n);
    return u;
  });

  const members: LoggedInUser[][] = Array.from({ length: s.rooms }, () => []);
  users.forEach((u, i) => members[slotOf(i, n, s.rooms)].push(u));
  done = 0;
  const roomIds = await mapLimit(members, s.loginConcurrency, async (list) => {
    const [owner, second, ...rest] = list;
    const chatRoomId = await createRoom(base, owner, second);
    for (const u of rest) await addUser(base, owner, chatRoomId, u);
    s.progress?.('making rooms', ++done, s.rooms);
    return chatRoomId;
  });
  const roomOf = users.map((_u, i) => roomIds[slotOf(i, n, s.rooms)]);

  const swarm = new Swarm();
  // Any node accepts any login session (they are in the database), so the REST set-up goes to
  // the first URL and only the WebSockets are spread.
  const ws = (s.urls?.length ? s.urls : [base]).map(webSocketUrl);
  done = 0;
  const reconnect = s.reconnectBaseMs === undefined ? {} : { reconnectBaseMs: s.reconnectBaseMs };
  // With several nodes, a session whose node died tries the others in turn (docs/operations.md "Reconnecting").
  const others = (i: number) => (ws.length > 1 ? { otherUrls: ws.filter((_, k) => k !== i % ws.length) } : {});
  await swarm.connect(n, (i) => ({ url: ws[i % ws.length], headers: { cookie: users[i].cookie }, ...reconnect, ...(s.reconnectBaseMs === undefined ? {} : others(i)) }), s.connectConcurrency, () => s.progress?.('connecting', ++done, n));
  const confirmed = await swarm.subscribe((i) => topics.privateChat(roomOf[i]));
  // A client that reconnects also hears the server's `resync` there.
  if (s.roomEvents || s.reconnectBaseMs !== undefined) await swarm.subscribe((i) => topics.chatRoomEvents(roomOf[i]));
  // Two groups of users that map to the same room id (a server reusing a room) merge: each
  // member receives what the other group sends.
  const { groups, groupOf } = groupsFrom(roomOf.map((room, i) => (confirmed.has(i) ? room : null)));
  return {
    mode: 'chat',
    swarm,
    groups,
    groupOf,
    destination: () => app.privateMessage,
    body: (client, id) => JSON.stringify({ chatRoomId: roomOf[client], content: pad(`load ${id} `, s.messageBytes), clientMsgId: id }),
    read: (client, delivered) => {
      const seq = seqOf(delivered);
      return seq === null ? null : { destination: app.read, body: `{"chatRoomId":${roomOf[client]},"seq":${seq}}`, seq };
    },
    // Only with --reconnect: the driver then tracks every delivery's seq to catch up from.
    ...(s.reconnectBaseMs === undefined ? {} : { history: (client: number, afterSeq: number) => historyAfter(base, users[client].cookie, roomOf[client], afterSeq) }),
    close: () => swarm.close(),
  };
}

export interface BrokerSetup {
  url: string;
  /** Several brokers of one cluster: client i connects to urls[i % urls.length]. */
  urls?: string[];
  clients: number;
  topics: number;
  login?: string;
  passcode?: string;
  vhost?: string;
  messageBytes: number;
  connectConcurrency: number;
  progress?: SetupProgress;
}

/** Bench topic name of slot n: /topic/bench.{n}. */
export function benchTopic(n: number): string {
  return `/topic/bench.${n}`;
}

/** Pure publish/subscribe: client i subscribes to and sends on /topic/bench.{slot}. */
export async function prepareBroker(s: BrokerSetup): Promise<Scenario> {
  if (s.topics < 1 || s.clients < s.topics) throw new Error(`broker mode needs at least 1 client per topic (${s.clients} clients, ${s.topics} topics)`);
  const swarm = new Swarm();
  const urls = (s.urls?.length ? s.urls : [s.url]).map(webSocketUrl);
  let done = 0;
  await swarm.connect(
    s.clients,
    (i) => ({ url: urls[i % urls.length], host: s.vhost, login: s.login, passcode: s.passcode }),
    s.connectConcurrency,
    () => s.progress?.('connecting', ++done, s.clients),
  );
  const topicOf = (i: number) => slotOf(i, s.clients, s.topics);
  const confirmed = await swarm.subscribe((i) => benchTopic(topicOf(i)));
  const { groups, groupOf } = groupsFrom(Array.from({ length: s.clients }, (_x, i) => (confirmed.has(i) ? topicOf(i) : null)));
  return {
    mode: 'broker',
    swarm,
    groups,
    groupOf,
    destination: (client) => benchTopic(topicOf(client)),
    body: (_client, id) => JSON.stringify({ clientMsgId: id, pad: pad('', Math.max(0, s.messageBytes - id.length - 28)) }),
    close: () => swarm.close(),
  };
}
