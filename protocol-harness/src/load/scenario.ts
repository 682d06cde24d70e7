// What a load run drives: sessions already connected and subscribed, grouped so that whatever a
// member sends, every member of its group (the sender included) receives. Built once, it can
// be driven several times (make bench raises the rate in steps on one set of sessions).
import type { ReadFrame } from './read-throttle';
import { api, type ChatHistoryResponse } from '@common/api';
import { app, topics, WEBSOCKET_PATH } from '@common/destinations';
import { InfrastructureError, UsageError } from '../shared/outcome';
import { addUser, createRoom, login, mapLimit, RestError, type Credentials, type LoggedInUser } from './chat-rest';
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
  /** The seeded users' prefix (--users-prefix), to say how many of them exist when some are missing. */
  usersPrefix?: string;
  /** `--reconnect`: sessions reopen after a drop with the browser's backoff from this base (and hear `resync`). */
  reconnectBaseMs?: number;
  progress?: SetupProgress;
}

/** Refused logins to stop after: the server counts failures per address (429 after 30 in 15 min). */
const MAX_LOGIN_FAILURES = 10;

/**
 * Why the logins failed, as an operator can act on it: the seeded users ran out ("only 200 users
 * with prefix ld; 205 asked": every login tried from some index on was refused, every one before
 * it succeeded), every login was refused (a wrong password), or the first failure itself.
 * `tried[i]` is false for users not tried once MAX_LOGIN_FAILURES were refused.
 */
export function loginFailure(users: readonly Credentials[], failures: ReadonlyMap<number, RestError>, tried: readonly boolean[], usersPrefix?: string): string {
  const indices = [...failures.keys()].sort((a, b) => a - b);
  const k = indices[0];
  const first = failures.get(k)!;
  const refused = [...failures.values()].every((e) => e.status === 401 || e.status === 429) && first.status === 401;
  const more = indices.length > 1 ? ` (and ${indices.length - 1} more refused)` : '';
  const tail = tried.every((t, i) => (i < k ? t && !failures.has(i) : !t || failures.has(i)));
  if (refused && tail && k > 0) {
    const who = usersPrefix ? `users with prefix ${usersPrefix}` : 'users could log in';
    return `only ${k} ${who}; ${users.length} asked (${first.message}${more})`;
  }
  if (refused && k === 0 && tail) {
    return `login refused (${first.message}${more}): a wrong --password${usersPrefix ? `, or no users seeded with prefix ${usersPrefix}` : ''}?`;
  }
  return `${first.message}${more}`;
}

export async function prepareChat(s: ChatSetup): Promise<Scenario> {
  const n = s.users.length;
  if (s.rooms < 1 || n < 2 * s.rooms) throw new UsageError(`chat mode needs at least 2 clients per room (${n} clients, ${s.rooms} rooms)`);
  const base = s.url.replace(/\/+$/, '');
  // One login first: an unreachable server is said once, not once per user.
  const asInfrastructure = (err: unknown) => (err instanceof RestError ? new InfrastructureError(err.message) : err);
  const firstUser = await login(base, s.users[0]).catch((err: unknown) => {
    if (err instanceof RestError && err.status === 401) return err;
    throw asInfrastructure(err);
  });
  let done = 1;
  s.progress?.('logging in', done, n);
  const failures = new Map<number, RestError>();
  const tried = s.users.map(() => false);
  tried[0] = true;
  if (firstUser instanceof RestError) failures.set(0, firstUser);
  const logins = await mapLimit(s.users.slice(1), s.loginConcurrency, async (c, i) => {
    if (failures.size >= MAX_LOGIN_FAILURES) return null;
    tried[i + 1] = true;
    try {
      return await login(base, c);
    } catch (err) {
      if (!(err instanceof RestError)) throw err;
      failures.set(i + 1, err);
      return null;
    } finally {
      s.progress?.('logging in', ++done, n);
    }
  });
  if (failures.size > 0) throw new InfrastructureError(loginFailure(s.users, failures, tried, s.usersPrefix));
  const users = [firstUser as LoggedInUser, ...(logins as LoggedInUser[])];

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
  /** Topics are /topic/bench.{offset}…: --workers give each process its own. */
  topicOffset?: number;
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
  if (s.topics < 1 || s.clients < s.topics) throw new UsageError(`broker mode needs at least 1 client per topic (${s.clients} clients, ${s.topics} topics)`);
  const swarm = new Swarm();
  const urls = (s.urls?.length ? s.urls : [s.url]).map(webSocketUrl);
  let done = 0;
  await swarm.connect(
    s.clients,
    (i) => ({ url: urls[i % urls.length], host: s.vhost, login: s.login, passcode: s.passcode }),
    s.connectConcurrency,
    () => s.progress?.('connecting', ++done, s.clients),
  );
  const topicOf = (i: number) => (s.topicOffset ?? 0) + slotOf(i, s.clients, s.topics);
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
