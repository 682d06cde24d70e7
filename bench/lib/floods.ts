// Hostile traffic that once slowed every user of a node (docs/architecture.md §3a), and the
// neighbour whose chat latency tells whether it still does. Shared by `make soak` and
// bench/floods.ts (the before/after measurement).
//   - packed frames: many sockets each sending one 1 MiB message of tiny frames at once;
//   - duplicate clientMsgIds: a sender resending an already stored clientMsgId, many a second;
//   - the neighbour: an ordinary member sending a message every few ms, timing SEND → RECEIPT.
import { spawn } from 'node:child_process';
import readline from 'node:readline';
import path from 'node:path';
import WebSocket from 'ws';
import { api } from '@common/api';
import { app } from '@common/destinations';

/** The flood the attack used: 49 900 ACKs with receipts, just under 1 MiB (uWS's message limit). */
export const PACKED_MESSAGE = 'ACK\nid:a\nreceipt:r\n\n\0'.repeat(49_900);

const wsUrlOf = (url: string) => url.replace(/^http/, 'ws') + '/websocket';

export async function login(url: string, email: string, password: string): Promise<{ cookie: string; userId: number }> {
  const res = await fetch(url + api.login, { method: 'POST', headers: { 'content-type': 'application/json', origin: url }, body: JSON.stringify({ email, password }) });
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('sid='));
  if (!cookie) throw new Error(`login failed: ${res.status}`);
  const { userId } = (await res.json()) as { userId: number };
  return { cookie: cookie.split(';')[0], userId };
}

export async function createRoom(url: string, cookie: string, target: { userId: number; name: string }): Promise<number> {
  const res = await fetch(url + api.roomCreate, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie, origin: url },
    body: JSON.stringify({ targetUserId: target.userId, targetUserName: target.name }),
  });
  if (!res.ok) throw new Error(`room create failed: ${res.status}`);
  return ((await res.json()) as { chatRoomId: number }).chatRoomId;
}

/** A socket past CONNECTED, or null when the server refused it. */
function connect(url: string, cookie: string): Promise<WebSocket | null> {
  return new Promise((resolve) => {
    const socket = new WebSocket(wsUrlOf(url), ['v12.stomp'], { headers: { cookie, origin: url } });
    socket.on('error', () => resolve(null));
    socket.on('close', () => resolve(null));
    socket.once('open', () => socket.send('CONNECT\naccept-version:1.2\nheart-beat:0,0\n\n\0'));
    socket.once('message', (data: Buffer) => resolve(data.toString().startsWith('CONNECTED') ? socket : null));
  });
}

export interface PackedResult {
  sockets: number;
  /** Sockets that got an ERROR before their close. */
  errors: number;
  /** From the first send to the last close, ms. */
  ms: number;
}

/**
 * Opens `perUser` sockets for each cookie, then sends PACKED_MESSAGE on all of them at once;
 * `sending` is told just before (the flood proper starts then, not with the connections).
 */
export async function packedFrames(url: string, cookies: string[], perUser: number, sending: () => void = () => {}): Promise<PackedResult> {
  const opened = await Promise.all(cookies.flatMap((cookie) => Array.from({ length: perUser }, () => connect(url, cookie))));
  const sockets = opened.filter((s): s is WebSocket => s !== null);
  let errors = 0;
  const started = performance.now();
  const closed = sockets.map(
    (socket) =>
      new Promise<void>((resolve) => {
        let sawError = false;
        socket.on('message', (data: Buffer) => {
          if (!sawError && data.subarray(0, 5).toString() === 'ERROR') {
            sawError = true;
            errors++;
          }
        });
        socket.on('close', () => resolve());
        setTimeout(() => socket.terminate(), 60_000).unref();
      }),
  );
  sending();
  for (const socket of sockets) socket.send(PACKED_MESSAGE);
  await Promise.all(closed);
  return { sockets: sockets.length, errors, ms: Math.round(performance.now() - started) };
}

/**
 * Resends one stored clientMsgId `rate` times a second until `until` (the attack's 100 frames/s),
 * each with a receipt; resolves with how many were sent and receipted.
 */
export async function duplicateFlood(url: string, cookie: string, roomId: number, rate: number, until: number, sending: () => void = () => {}): Promise<{ sent: number; receipted: number }> {
  const socket = await connect(url, cookie);
  if (!socket) throw new Error('the duplicate flooder could not connect');
  sending();
  let receipted = 0;
  socket.on('message', (data: Buffer) => {
    const text = data.toString();
    if (text.startsWith('RECEIPT')) receipted++;
  });
  const body = JSON.stringify({ chatRoomId: roomId, content: 'again', clientMsgId: 'the-same-one' });
  const frameOf = (n: number) => `SEND\ndestination:${app.privateMessage}\ncontent-type:application/json\nreceipt:d${n}\n\n${body}\0`;
  let sent = 0;
  socket.send(frameOf(sent++)); // the original
  await new Promise<void>((resolve) => {
    const every = Math.max(1, Math.round(1000 / rate));
    const timer = setInterval(() => {
      if (Date.now() >= until || socket.readyState !== socket.OPEN) {
        clearInterval(timer);
        resolve();
        return;
      }
      socket.send(frameOf(sent++));
    }, every);
  });
  await new Promise((r) => setTimeout(r, 1000));
  socket.terminate();
  return { sent, receipted };
}

export interface Latencies { sent: number; receipted: number; p50: number; p99: number; max: number }

export interface Neighbour {
  /** Starts a window: latencies of SENDs made from now on count in it. */
  mark(name: string): void;
  /** SENDs made in the window, receipted ones and their latency percentiles (ms). */
  window(name: string): Latencies;
  /**
   * Runs `work`, counting the SENDs made meanwhile (and the second after it) as made during a
   * `kind` flood; from when `work` calls `started`, if it does (after its connections are made).
   */
  during<T>(kind: string, work: (started: () => void) => Promise<T>): Promise<T>;
  /** The SENDs made during every `kind` flood; null: those made during none. */
  summary(kind: string | null): Latencies;
  /** Why the server ended the neighbour's socket, if it did. */
  closed(): string | null;
  stop(): Promise<void>;
}

/**
 * An ordinary member sending a message every `everyMs` ms to its room, timing SEND → RECEIPT,
 * from `sockets` sockets in turn (tabs or devices): one socket's SENDs are handled one after
 * another, each waiting for its commit, so one socket alone would measure its own queue.
 */
export async function neighbour(url: string, cookie: string, roomId: number, everyMs = 25, sockets = 8): Promise<Neighbour> {
  const opened = await Promise.all(Array.from({ length: sockets }, () => connect(url, cookie)));
  if (opened.some((s) => s === null)) throw new Error('the neighbour could not connect');
  const all = opened as WebSocket[];
  const sentAt = new Map<number, number>();
  const latency = new Map<number, number>();
  const windows = new Map<string, number>();
  const spans: Array<{ kind: string; from: number; to: number }> = [];
  let n = 0;
  let ended: string | null = null;
  for (const socket of all) {
    socket.on('close', (code: number, reason: Buffer) => (ended ??= `${code} ${reason.toString()}`));
    socket.on('message', (data: Buffer) => {
      if (data.subarray(0, 5).toString() === 'ERROR') ended ??= /message:(.*)/.exec(data.toString())?.[1] ?? 'ERROR';
      const m = /^RECEIPT\nreceipt-id:n(\d+)/.exec(data.toString());
      if (!m) return;
      const id = Number(m[1]);
      latency.set(id, performance.now() - sentAt.get(id)!);
    });
  }
  const timer = setInterval(() => {
    const id = n++;
    sentAt.set(id, performance.now());
    const body = JSON.stringify({ chatRoomId: roomId, content: `neighbour ${id}`, clientMsgId: `n-${Date.now()}-${id}` });
    all[id % all.length].send(`SEND\ndestination:${app.privateMessage}\ncontent-type:application/json\nreceipt:n${id}\n\n${body}\0`);
  }, everyMs);
  const pct = (xs: number[], p: number) => (xs.length ? xs[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] : NaN);
  const stats = (ids: number[]): Latencies => {
    // A SEND never receipted counts as taking as long as it has been waiting.
    const now = performance.now();
    const xs = ids.map((id) => latency.get(id) ?? now - sentAt.get(id)!).sort((a, b) => a - b);
    const r = (x: number) => Math.round(x * 10) / 10;
    return { sent: ids.length, receipted: ids.filter((id) => latency.has(id)).length, p50: r(pct(xs, 50)), p99: r(pct(xs, 99)), max: r(xs[xs.length - 1] ?? NaN) };
  };
  return {
    mark: (name) => windows.set(name, n),
    closed: () => ended,
    window(name) {
      const from = windows.get(name) ?? 0;
      const ids = Array.from({ length: n - from }, (_, i) => from + i);
      // FLOOD_SERIES=1: each SEND as "ms after the window's start:latency" on stderr, to see when a stall came.
      if (process.env.FLOOD_SERIES) {
        const t0 = sentAt.get(from) ?? performance.now();
        process.stderr.write(ids.map((id) => `${Math.round(sentAt.get(id)! - t0)}:${Math.round(latency.get(id) ?? -1)}`).join(' ') + '\n');
      }
      return stats(ids);
    },
    async during(kind, work) {
      const span = { kind, from: n, to: Infinity };
      spans.push(span);
      try {
        return await work(() => (span.from = n));
      } finally {
        await new Promise((r) => setTimeout(r, 1000));
        span.to = n;
      }
    },
    summary(kind) {
      const ids = Array.from({ length: n }, (_, i) => i).filter((id) => {
        const within = spans.filter((s) => id >= s.from && id < s.to);
        return kind === null ? within.length === 0 : within.some((s) => s.kind === kind);
      });
      return stats(ids);
    },
    async stop() {
      clearInterval(timer);
      await new Promise((r) => setTimeout(r, 500));
      for (const socket of all) socket.terminate();
    },
  };
}

/**
 * Runs a flood in a process of its own (bench/lib/flood-client.ts), so the flooding clients' own
 * work (masking 100 MiB, reading 200 000 receipts) does not delay the neighbour's timers and
 * count as the server's latency.
 */
export function inChildProcess<T>(flood: 'packed', args: { url: string; cookies: string[]; perUser: number }, sending?: () => void): Promise<T>;
export function inChildProcess<T>(flood: 'duplicates', args: { url: string; cookie: string; roomId: number; rate: number; until: number }, sending?: () => void): Promise<T>;
export function inChildProcess<T>(flood: string, args: object, sending: () => void = () => {}): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'flood-client.ts'), flood, JSON.stringify(args)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    const stderr: string[] = [];
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    // The client says "sending" on a line of its own once its connections are made.
    readline.createInterface({ input: child.stderr }).on('line', (line) => (line === 'sending' ? sending() : stderr.push(line)));
    child.on('exit', (code) => {
      if (code !== 0) reject(new Error(`${flood} flood failed (${code}): ${stderr.join('\n')}`));
      else resolve(JSON.parse(stdout) as T);
    });
  });
}
