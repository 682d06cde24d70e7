// `make soak`: the server under hostile and heavy traffic for a long while (SOAK_SECONDS, default
// 600): `harness load` with 1000 clients, a fuzzer on 50 sockets sending random bytes and broken
// frames, and one socket at a time flooding frames and transactions. Every 10 s it reads the
// server's heap and RSS from /metrics. It fails when anything acknowledged is lost or duplicated,
// or the heap keeps growing (the last third of the samples above twice the first third, plus
// slack for V8's young generation). Not part of `make test`: it takes minutes, not seconds.
// SOAK_PROF=DIR writes the server's CPU profile (node --cpu-prof) into DIR, to see where it spends.
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
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

async function login(url: string, email: string): Promise<string> {
  const res = await fetch(`${url}/api/user/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: PASSWORD }) });
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('sid='));
  if (!cookie) throw new Error(`login failed: ${res.status}`);
  return cookie.split(';')[0];
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'letschat-soak-'));
  const env = { DATABASE_URL: `sqlite:${path.join(dir, 'soak.sqlite3')}`, MAIL_DIR: path.join(dir, 'mail'), METRICS_TOKEN: TOKEN };
  execFileSync('npm', ['run', '--silent', 'admin', '--', 'seed', '--users', String(CLIENTS + 1 + FUZZ_USERS), '--password', PASSWORD, '--prefix', PREFIX], {
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
    const [{ report, code }] = await Promise.all([load, fuzz(server.url, fuzzCookies, until), flood(server.url, floodCookie, until)]);
    clearInterval(sampling);
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
