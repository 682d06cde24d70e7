// A STOMP client for integration tests: @stomp/stompjs (the browser's library) over `ws`.
//
//   const { client } = await newLoggedInUser(server);          // support/users.ts
//   const stomp = await connectStomp(server, client.cookieHeader());
//   const inbox = await stomp.subscribe('/topic/toggle-refresh/7'); // resolves once the server
//                                                                // confirmed it (RECEIPT); rejects
//                                                                // with the ERROR frame if denied
//   await stomp.send('/app/user-active', { ... });               // resolves on RECEIPT, i.e. after
//                                                                // the handler finished; rejects
//                                                                // with the ERROR frame if it failed
//   const msg = await inbox.next();                              // { body, json(), headers }
//   await inbox.nothingSoFar();                                  // asserts no message came before
//                                                                // a RECEIPT of ours: the barrier
//                                                                // for "nothing else arrived"
//   await inbox.nothingWithin(300);                              // asserts no message arrived in
//                                                                // a fixed window (no barrier)
//   await stomp.nextError();                                     // the next ERROR frame
//   await stomp.disconnect();                                    // DISCONNECT with receipt, then closed
//
// `stomp.closed` resolves with the close code when the socket closes, for any reason.
//
// For hand-written frames: `const raw = await openRawStomp(server, { cookie })`, then
// `raw.send('CONNECT\naccept-version:1.2\n\n\0')`, `await raw.nextFrame()` (a parsed Frame),
// `raw.heartbeats` (EOL-only messages received), `await raw.closed` ({ code, reason }).
// openRawStomp rejects with an UpgradeRefused carrying the HTTP status when the upgrade fails.
import { Client, type IFrame, type IMessage, type StompHeaders } from '@stomp/stompjs';
import WebSocket from 'ws';
import { WEBSOCKET_PATH } from '@common/destinations';
// A socket dropped before CONNECTED is opened again as the harness's clients (and the browser's) do.
import { RECONNECT_BACKOFF_MS, RECONNECTS_BEFORE_CONNECTED } from '../../../protocol-harness/src/shared/stomp';
import type { Frame } from '../../src/stomp/frame';
import { StompParser } from '../../src/stomp/parser';
import { expectNothingFor } from './wait';


/** Any running server: the product's RunningServer or a standalone STOMP server. */
export interface HasUrl {
  url: string;
}

export interface ReceivedMessage {
  body: string;
  headers: StompHeaders;
  json<T = unknown>(): T;
}

export interface Inbox {
  readonly destination: string;
  /** The next MESSAGE for this subscription (waits up to timeoutMs). */
  next(timeoutMs?: number): Promise<ReceivedMessage>;
  /**
   * Fails if a MESSAGE arrives within the time: a fixed observation window (wait.ts's
   * expectNothingFor). Better, where there is one, a later message on the same path as a barrier.
   */
  nothingWithin(ms: number): Promise<void>;
  /**
   * Fails if a MESSAGE is here once a round trip on its connection is done: for a message the
   * server would have written to this socket before something the test already saw (the RECEIPT
   * or answer of a request whose handler would have published it; a later message of the same
   * topic to another subscriber on the same node). The barrier that replaces nothingWithin.
   */
  nothingSoFar(): Promise<void>;
  /** The MESSAGEs already here, taken: after a barrier such as roundTrip(), without waiting. */
  drain(): ReceivedMessage[];
  unsubscribe(): void;
}

export interface TestStomp {
  readonly client: Client;
  subscribe(destination: string, headers?: StompHeaders): Promise<Inbox>;
  send(destination: string, body: string | object, headers?: StompHeaders): Promise<void>;
  nextError(timeoutMs?: number): Promise<IFrame>;
  /**
   * A frame with a receipt (an ACK, which asks nothing of the server but to be well formed), and
   * its RECEIPT: every frame the server wrote to this socket before reading ours has arrived by
   * then. The positive barrier that replaces waiting for "nothing more".
   */
  roundTrip(): Promise<void>;
  readonly closed: Promise<number>;
  disconnect(): Promise<void>;
}

export interface ConnectOptions {
  origin?: string;
  heartbeatMs?: number;
  /** @stomp/stompjs's debug lines ('<<< PONG' for a server heart-beat, say). */
  debug?: (line: string) => void;
}

/** An error carrying the server's ERROR frame. */
export class StompErrorFrame extends Error {
  constructor(readonly frame: IFrame) {
    super(`STOMP ERROR: ${frame.headers.message}`);
  }
}

class Waiters<T> {
  private readonly items: T[] = [];
  private readonly waiting: Array<(item: T) => void> = [];

  push(item: T): void {
    const w = this.waiting.shift();
    if (w) w(item);
    else this.items.push(item);
  }

  next(timeoutMs: number, what: string): Promise<T> {
    const item = this.items.shift();
    if (item !== undefined) return Promise.resolve(item);
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.splice(this.waiting.indexOf(done), 1);
        reject(new Error(`no ${what} within ${timeoutMs} ms`));
      }, timeoutMs);
      const done = (value: T) => {
        clearTimeout(timer);
        resolve(value);
      };
      this.waiting.push(done);
    });
  }

  get pending(): number {
    return this.items.length;
  }

  drain(): T[] {
    return this.items.splice(0);
  }
}

function toReceived(m: IMessage): ReceivedMessage {
  return { body: m.body, headers: m.headers, json: <T>() => JSON.parse(m.body) as T };
}

export function stompUrl(server: HasUrl): string {
  return server.url.replace(/^http/, 'ws') + WEBSOCKET_PATH;
}

export async function connectStomp(server: HasUrl, cookie: string, options: ConnectOptions = {}): Promise<TestStomp> {
  const errors = new Waiters<IFrame>();
  const receiptErrors = new Map<string, (frame: IFrame) => void>();
  let receiptSeq = 0;
  let resolveClosed!: (code: number) => void;
  const closed = new Promise<number>((resolve) => (resolveClosed = resolve));
  const headers: Record<string, string> = { cookie };
  if (options.origin !== undefined) headers.origin = options.origin;
  const heartbeat = options.heartbeatMs ?? 0;

  // A socket that drops under the handshake (1006 after the upgrade, before CONNECTED: seen about
  // once in thousands of connections on a loaded machine) is opened again, as the browser client
  // does, and said on stderr; an ERROR or a refused upgrade is never retried.
  let client!: Client;
  for (let attempt = 0; ; attempt++) {
    let opened = false;
    let connected = false;
    client = new Client({
      webSocketFactory: () => {
        const ws = new WebSocket(stompUrl(server), ['v12.stomp'], { headers });
        ws.once('open', () => (opened = true));
        return ws;
      },
      reconnectDelay: 0,
      heartbeatIncoming: heartbeat,
      heartbeatOutgoing: heartbeat,
      debug: options.debug ?? (() => {}),
    });
    const attemptClient = client;
    const dropped = await new Promise<string | null>((resolve, reject) => {
      attemptClient.onConnect = () => {
        connected = true;
        resolve(null);
      };
      attemptClient.onStompError = (frame) => {
        const receipt = frame.headers['receipt-id'];
        const waiter = receipt === undefined ? undefined : receiptErrors.get(receipt);
        if (waiter) waiter(frame);
        errors.push(frame);
        reject(new StompErrorFrame(frame));
      };
      attemptClient.onWebSocketClose = (evt: { code: number }) => {
        if (opened && !connected && evt.code === 1006 && attempt < RECONNECTS_BEFORE_CONNECTED) {
          resolve(`WebSocket closed (1006) before CONNECTED`);
          return;
        }
        resolveClosed(evt.code);
        for (const waiter of receiptErrors.values()) waiter({ command: 'CLOSE', headers: { message: `socket closed (${evt.code})` }, body: '', isBinaryBody: false, binaryBody: new Uint8Array() });
        reject(new Error(`WebSocket closed (${evt.code}) before CONNECTED`));
      };
      attemptClient.onWebSocketError = () => {};
      attemptClient.activate();
    });
    if (dropped === null) break;
    await attemptClient.deactivate({ force: true });
    console.warn(`  (connectStomp: ${dropped} to ${stompUrl(server)}; opening it again, as the browser client does)`);
    // The browser's backoff, kept as such: a retry pace, not a wait for an outcome.
    await new Promise((r) => setTimeout(r, RECONNECT_BACKOFF_MS * 2 ** attempt));
  }

  /** Sends via `act` with a receipt header and resolves on RECEIPT, rejects on ERROR or close. */
  const withReceipt = (act: (receipt: string) => void) =>
    new Promise<void>((resolve, reject) => {
      const receipt = `r-${receiptSeq++}`;
      receiptErrors.set(receipt, (frame) => {
        receiptErrors.delete(receipt);
        reject(new StompErrorFrame(frame));
      });
      client.watchForReceipt(receipt, () => {
        receiptErrors.delete(receipt);
        resolve();
      });
      act(receipt);
    });

  const roundTrip = () => withReceipt((receipt) => client.ack('round-trip', 'round-trip', { receipt }));

  return {
    client,
    closed,
    async subscribe(destination, extra = {}) {
      const messages = new Waiters<ReceivedMessage>();
      let sub: { unsubscribe(): void } | undefined;
      await withReceipt((receipt) => {
        sub = client.subscribe(destination, (m) => messages.push(toReceived(m)), { ...extra, receipt });
      });
      return {
        destination,
        next: (timeoutMs = 10_000) => messages.next(timeoutMs, `MESSAGE on ${destination}`),
        nothingWithin: (ms) => expectNothingFor(ms, `a MESSAGE on ${destination}`, () => messages.pending > 0),
        async nothingSoFar() {
          await roundTrip();
          const arrived = messages.drain();
          if (arrived.length > 0) throw new Error(`unexpected MESSAGE on ${destination}: ${arrived.map((m) => m.body).join(' | ')}`);
        },
        drain: () => messages.drain(),
        unsubscribe: () => sub?.unsubscribe(),
      };
    },
    send(destination, body, extra = {}) {
      const text = typeof body === 'string' ? body : JSON.stringify(body);
      return withReceipt((receipt) => client.publish({ destination, body: text, headers: { ...extra, receipt } }));
    },
    nextError: (timeoutMs = 10_000) => errors.next(timeoutMs, 'ERROR frame'),
    roundTrip,
    async disconnect() {
      if (!client.connected) {
        await client.deactivate();
        return;
      }
      await client.deactivate();
      await closed;
    },
  };
}

export class UpgradeRefused extends Error {
  constructor(readonly status: number) {
    super(`WebSocket upgrade refused with HTTP ${status}`);
  }
}

export interface RawStomp {
  readonly socket: WebSocket;
  /** The subprotocol the server chose ('' for none). */
  readonly protocol: string;
  /** Messages that held only EOLs (server heart-beats). */
  readonly heartbeats: number;
  send(data: string | Buffer): void;
  nextFrame(timeoutMs?: number): Promise<Frame>;
  readonly closed: Promise<{ code: number; reason: string }>;
}

export interface RawOptions {
  cookie?: string;
  origin?: string;
  protocols?: string[];
  /** Further upgrade headers (X-Forwarded-For from a proxy, say). */
  headers?: Record<string, string>;
}

export function openRawStomp(server: HasUrl, options: RawOptions = {}): Promise<RawStomp> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.cookie) headers.cookie = options.cookie;
  if (options.origin) headers.origin = options.origin;
  const socket = new WebSocket(stompUrl(server), options.protocols ?? ['v12.stomp'], { headers });
  const frames = new Waiters<Frame>();
  const parser = new StompParser();
  let heartbeats = 0;
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() }));
  });
  socket.on('message', (data: Buffer) => {
    if (/^(\r?\n)+$/.test(data.toString('latin1'))) {
      heartbeats++;
      return;
    }
    const { frames: parsed, error } = parser.push(data);
    for (const f of parsed) frames.push(f);
    if (error) socket.emit('error', error);
  });
  return new Promise((resolve, reject) => {
    socket.once('unexpected-response', (_req, res) => {
      reject(new UpgradeRefused(res.statusCode ?? 0));
      socket.terminate();
    });
    socket.once('error', (err) => reject(err));
    socket.once('open', () => {
      socket.on('error', () => {});
      resolve({
        socket,
        protocol: socket.protocol,
        get heartbeats() {
          return heartbeats;
        },
        send: (data) => socket.send(data),
        nextFrame: (timeoutMs = 10_000) => frames.next(timeoutMs, 'STOMP frame'),
        closed,
      });
    });
  });
}
