// `make soak`: the server under hostile and heavy traffic for a long while (SOAK_SECONDS, default
// 600): `harness load` with 1000 clients, a fuzzer on 50 sockets sending random bytes and broken
// frames, and one socket at a time flooding frames and transactions; and in turns, the floods of
// docs/architecture.md §3a: 100 sockets of 5 users each sending 1 MiB of packed frames at once,
// then a sender resending a stored clientMsgId 100 times a second, while a neighbour (8 sockets,
// a message every 50 ms) times SEND → RECEIPT: its p99 is reported apart from the load's, outside
// and during each kind of flood (bench/lib/floods.ts). Every 10 s it reads the
// server's heap and RSS from /metrics. It fails when anything acknowledged is lost or duplicated,
// or the heap keeps growing (the last third of the samples above twice the first third, plus
// slack for V8's young generation). Not part of `make test`: it takes minutes, not seconds.
// SOAK_PROF=DIR writes the server's CPU profile (node --cpu-prof) into DIR, to see where it spends.
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { createRoom, inChildProcess, login as signIn, neighbour, type Latencies, type Neighbour } from './lib/floods';
import { startServer, ROOT } from './lib/server-process';

const SECONDS = Number(process.env.SOAK_SECONDS ?? 600);
const CLIENTS = Number(process.env.SOAK_CLIENTS ?? 1000);
const RATE = Number(process.env.SOAK_RATE ?? 1000);
const FUZZ_SOCKETS = 50;
/** Fuzzing sockets are signed in (or they would never get past the upgrade), 10 per user. */
const FUZZ_USERS = 5;
const SAMPLE_MS = 10_000;
const TOKEN = 'soak';
const PASSWORD = 'soak password';
const PREFIX = 'soak';
const HEAP_SLACK_BYTES = 64 * 1024 * 1024;
/** Users whose 20 sockets each send packed frames; then the neighbour, its peer, the resender and its peer. */
const PACKED_USERS = 5;
const PACKED_SOCKETS_PER_USER = 20;
const DUPLICATES_PER_SECOND = 100;
/** Sized to the run: the 120 s CI run holds two rounds of each flood, a 30 s one a round. */
const DUPLICATE_SECONDS = Math.min(15, Math.floor(SECONDS / 6));
const FLOOD_PAUSE_MS = Math.min(20_000, (SECONDS * 1000) / 6);

interface Sample {
  atSeconds: number;
  heapBytes: number;
  rssBytes: number;
}

function metric(text: string, name: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line ? Number(line.split(' ')[1]) : NaN;
}

async function sample(url: string, startedAt: number): Promise<Sample> {
  const text = await (await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
  return {
    atSeconds: Math.round((Date.now() - startedAt) / 1000),
    heapBytes: metric(text, 'nodejs_heap_size_used_bytes'),
    rssBytes: metric(text, 'process_resident_memory_bytes'),
  };
}

/** Random bytes, broken frames and oversized headers on many sockets, reconnecting when cut. */
function fuzz(url: string, cookies: string[], until: number): Promise<void> {
  const wsUrl = url.replace(/^http/, 'ws') + '/websocket';
  const junk = (): Buffer | string => {
    const kind = Math.floor(Math.random() * 4);
    if (kind === 0) return Buffer.from(Array.from({ length: 1 + Math.floor(Math.random() * 2048) }, () => Math.floor(Math.random() * 256)));
    if (kind === 1) return `SEND\ndestination:/app/${Math.random().toString(36)}\n\n{${'['.repeat(2000)}\0`;
    if (kind === 2) return `SUBSCRIBE\nid:${'x'.repeat(5000)}\ndestination:/topic/private-chat/1\n\n\0`;
    return `CONNECT\naccept-version:1.2\nheart-beat:${Math.random()}\n\n\0`;
  };
  const one = (cookie: string): Promise<void> =>
    new Promise((resolve) => {
      if (Date.now() > until) return resolve();
      const socket = new WebSocket(wsUrl, ['v12.stomp'], { headers: { cookie } });
      const timer = setInterval(() => socket.readyState === socket.OPEN && socket.send(junk()), 50);
      const done = () => {
        clearInterval(timer);
        setTimeout(() => resolve(one(cookie)), 100);
      };
      socket.on('error', () => {});
      socket.on('close', done);
    });
  return Promise.all(Array.from({ length: FUZZ_SOCKETS }, (_, i) => one(cookies[i % cookies.length]))).then(() => undefined);
}

/** Floods from a signed-in user: thousands of frames in one message, then BEGINs with long names. */
async function flood(url: string, cookie: string, until: number): Promise<void> {
  const wsUrl = url.replace(/^http/, 'ws') + '/websocket';
  while (Date.now() < until) {
    await new Promise<void>((resolve) => {
      const socket = new WebSocket(wsUrl, ['v12.stomp'], { headers: { cookie } });
      socket.on('error', () => {});
      socket.on('open', () => {
        socket.send('CONNECT\naccept-version:1.2\n\n\0');
        socket.send('ACK\nid:a\nreceipt:r\n\n\0'.repeat(40_000));
        socket.send(Array.from({ length: 100 }, (_, i) => `BEGIN\ntransaction:${String(i).padStart(8000, 'x')}\n\n\0`).join(''));
      });
      socket.on('close', () => resolve());
      setTimeout(() => socket.terminate(), 5000);
    });
    await new Promise((r) => setTimeout(r, 1000));
  }
}

/**
 * The floods of docs/architecture.md §3a in turns until `until`, each in a process of its own,
 * with the neighbour's SENDs made meanwhile counted as made during it.
 */
async function hostileFloods(url: string, packedCookies: string[], resender: { cookie: string; roomId: number }, near: Neighbour, until: number): Promise<void> {
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, Math.min(ms, until - Date.now()))));
  for (;;) {
    await sleep(FLOOD_PAUSE_MS);
    if (until - Date.now() < 10_000) return;
    const packed = await near.during('packed', (started) => inChildProcess<{ sockets: number; errors: number; ms: number }>('packed', { url, cookies: packedCookies, perUser: PACKED_SOCKETS_PER_USER }, started));
    process.stdout.write(`  packed frames: ${packed.errors} of ${packed.sockets} sockets refused with an ERROR in ${packed.ms} ms\n`);
    await sleep(FLOOD_PAUSE_MS / 2);
    if (until - Date.now() < (DUPLICATE_SECONDS + 2) * 1000) return;
    const repeats = await near.during('duplicates', (started) =>
      inChildProcess<{ sent: number; receipted: number }>('duplicates', { url, ...resender, rate: DUPLICATES_PER_SECOND, until: Date.now() + DUPLICATE_SECONDS * 1000 }, started),
    );
    process.stdout.write(`  repeated clientMsgId: ${repeats.receipted} of ${repeats.sent} receipted\n`);
  }
}

const latencyText = (l: Latencies) => `p50 ${l.p50} ms, p99 ${l.p99} ms, max ${l.max} ms (${l.receipted} of ${l.sent} receipted)`;

async function login(url: string, email: string): Promise<string> {
  const res = await fetch(`${url}/api/user/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: PASSWORD }) });
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('sid='));
  if (!cookie) throw new Error(`login failed: ${res.status}`);
  return cookie.split(';')[0];
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'letschat-soak-'));
  const env = { DATABASE_URL: `sqlite:${path.join(dir, 'soak.sqlite3')}`, MAIL_DIR: path.join(dir, 'mail'), METRICS_TOKEN: TOKEN };
  const firstPacked = CLIENTS + 2 + FUZZ_USERS;
  const firstOther = firstPacked + PACKED_USERS;
  execFileSync('npm', ['run', '--silent', 'admin', '--', 'seed', '--users', String(firstOther + 3), '--password', PASSWORD, '--prefix', PREFIX], {
    cwd: ROOT, env: { ...process.env, ...env }, stdio: 'ignore',
  });
  const server = await startServer({ env, nodeArgs: process.env.SOAK_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.SOAK_PROF}`] : [] });
  const startedAt = Date.now();
  const until = startedAt + SECONDS * 1000;
  const samples: Sample[] = [];
  let failed = false;
  try {
    process.stdout.write(`soak: ${SECONDS} s against ${server.url}: ${CLIENTS} load clients at ${RATE} msg/s, ${FUZZ_SOCKETS} fuzzing sockets, floods\n`);
    const floodCookie = await login(server.url, `${PREFIX}${CLIENTS + 1}@example.test`);
    const fuzzCookies = await Promise.all(Array.from({ length: FUZZ_USERS }, (_, i) => login(server.url, `${PREFIX}${CLIENTS + 2 + i}@example.test`)));
    // The server's PUBLIC_URL (localhost): the origin its CSRF and WebSocket checks expect.
    const floodUrl = `http://localhost:${server.port}`;
    const packedCookies = await Promise.all(Array.from({ length: PACKED_USERS }, async (_, i) => (await signIn(floodUrl, `${PREFIX}${firstPacked + i}@example.test`, PASSWORD)).cookie));
    const [near, nearPeer, resender, resent] = await Promise.all([0, 1, 2, 3].map((i) => signIn(floodUrl, `${PREFIX}${firstOther + i}@example.test`, PASSWORD)));
    const nearRoom = await createRoom(floodUrl, near.cookie, { userId: nearPeer.userId, name: `${PREFIX}${firstOther + 1}` });
    const resentRoom = await createRoom(floodUrl, resender.cookie, { userId: resent.userId, name: `${PREFIX}${firstOther + 3}` });
    const probe = await neighbour(floodUrl, near.cookie, nearRoom, 50);
    const load = new Promise<{ report: Record<string, unknown> | null; code: number }>((resolve) => {
      execFile(
        'npm',
        ['run', '--silent', 'harness', '--', 'load', '--url', server.url, '--users-prefix', PREFIX, '--password', PASSWORD,
          '--clients', String(CLIENTS), '--rooms', String(Math.max(1, CLIENTS / 10)), '--rate', String(RATE), '--duration', String(SECONDS), '--ramp', '5', '--json'],
        { cwd: ROOT, maxBuffer: 64 * 1024 * 1024, timeout: (SECONDS + 300) * 1000 },
        (err, stdout) => {
          const code = err ? Number((err as { code?: number }).code ?? 1) : 0;
          try {
            resolve({ report: JSON.parse(stdout) as Record<string, unknown>, code });
          } catch {
            resolve({ report: null, code });
          }
        },
      );
    });
    const sampling = setInterval(() => {
      sample(server.url, startedAt).then(
        (s) => {
          samples.push(s);
          process.stdout.write(`  ${s.atSeconds} s: heap ${(s.heapBytes / 2 ** 20).toFixed(1)} MiB, rss ${(s.rssBytes / 2 ** 20).toFixed(1)} MiB\n`);
        },
        () => {},
      );
    }, SAMPLE_MS);
    const [{ report, code }] = await Promise.all([
      load,
      fuzz(server.url, fuzzCookies, until),
      flood(server.url, floodCookie, until),
      hostileFloods(floodUrl, packedCookies, { cookie: resender.cookie, roomId: resentRoom }, probe, until),
    ]);
    clearInterval(sampling);
    await probe.stop();
    process.stdout.write(`neighbour outside the floods: ${latencyText(probe.summary(null))}\n`);
    process.stdout.write(`neighbour during packed frames on ${PACKED_USERS * PACKED_SOCKETS_PER_USER} sockets: ${latencyText(probe.summary('packed'))}\n`);
    process.stdout.write(`neighbour during a repeated clientMsgId at ${DUPLICATES_PER_SECOND}/s: ${latencyText(probe.summary('duplicates'))}\n`);
    samples.push(await sample(server.url, startedAt));

    const counts = (report?.counts ?? {}) as Record<string, number>;
    const latency = (report?.latency ?? {}) as Record<string, number>;
    process.stdout.write(`load: lost ${counts.lost}, duplicated ${counts.duplicated}, out of order ${counts.outOfOrder}, p99 ${latency.p99Ms} ms (exit ${code})\n`);
    if (!report || code !== 0 || counts.lost !== 0 || counts.duplicated !== 0) {
      process.stdout.write('FAIL: the load run lost, duplicated or reordered messages, or did not report\n');
      failed = true;
    }
    const third = Math.max(1, Math.floor(samples.length / 3));
    const mean = (xs: Sample[]) => xs.reduce((n, s) => n + s.heapBytes, 0) / xs.length;
    const early = mean(samples.slice(0, third));
    const late = mean(samples.slice(-third));
    process.stdout.write(`heap: first third ${(early / 2 ** 20).toFixed(1)} MiB, last third ${(late / 2 ** 20).toFixed(1)} MiB\n`);
    if (late > 2 * early + HEAP_SLACK_BYTES) {
      process.stdout.write('FAIL: the heap kept growing\n');
      failed = true;
    }
  } finally {
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  process.stdout.write(failed ? 'soak: FAIL\n' : 'soak: PASS\n');
  process.exit(failed ? 1 : 0);
}

main().catch((err: unknown) => {
  process.stderr.write(`soak: ${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
