// Benchmark: resident memory per idle authenticated STOMP session at 10 000 sessions.
//
// The server (bench/broker.ts: the product's transport and STOMP layers) runs as a
// child process. Two client processes open raw `ws` sockets, each with a session cookie, CONNECT
// (no heart-beats) and SUBSCRIBE to destinations of their own, as an idle browser tab does. The server's RSS is read after
// a full GC with a warm-up population open, and again with 10 000 more sessions; the difference
// divided by 10 000 is the cost of one session. Measured with one subscription per session (the
// goal's figure) and with the eight a signed-in browser holds.
//
// Each RSS is read once the idle server has settled. A burst of connections grows V8's young
// generation to its maximum (32 MiB of semi-spaces), which a forced GC does not give back; V8's
// memory reducer does, some seconds after allocation stops. Read 2 s after the burst, that growth
// would be charged to the sessions (about 2.5 KiB each at 10 000), so that figure is reported
// beside the settled one rather than as the cost of a session.
//   node --import tsx bench/idle-memory.ts [--sessions 10000] [--subscriptions 1,8]
import { fork } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import WebSocket from 'ws';
import { pin, startBrokerProcess } from './lib/broker-process';
import { processRssBytes } from './lib/cpu-time';
import { machineFacts } from './lib/machine';
import { emitResult, upperGoal } from './lib/result';

const { values: args } = parseArgs({
  options: {
    sessions: { type: 'string', default: '10000' },
    /** Comma-separated: one fresh server per figure; the first is held against the goal. */
    subscriptions: { type: 'string', default: '1,8' },
    warmup: { type: 'string', default: '500' },
    // Internal: run as a client process.
    client: { type: 'string' },
    port: { type: 'string' },
    offset: { type: 'string' },
  },
});
const GOAL_BYTES = 3 * 1024;
const CLIENT_PROCESSES = 2;
const CONCURRENCY = 100;
const RESULTS = path.resolve(__dirname, 'results');

/** Client mode: opens `count` idle STOMP sessions and reports when all are CONNECTED. */
async function runClient(port: number, count: number, offset: number, subscriptions: number): Promise<void> {
  const sockets: WebSocket[] = [];
  const openOne = (i: number) =>
    new Promise<void>((resolve, reject) => {
      const ws = new WebSocket(`ws://127.0.0.1:${port}/websocket`, ['v12.stomp'], {
        perMessageDeflate: false,
        headers: { cookie: `sid=bench-${offset + i}` },
      });
      let subscribed = 0;
      ws.once('error', reject);
      ws.on('message', (data: Buffer) => {
        const text = data.toString();
        if (text.startsWith('CONNECTED')) {
          if (subscriptions === 0) return resolve();
          for (let s = 0; s < subscriptions; s++) ws.send(`SUBSCRIBE\nid:sub-${s}\ndestination:/topic/bench.idle-${offset + i}-${s}\nreceipt:r${s}\n\n\0`);
        } else if (text.startsWith('RECEIPT') && ++subscribed === subscriptions) resolve();
        else if (text.startsWith('ERROR')) reject(new Error(text));
      });
      ws.once('open', () => ws.send('CONNECT\naccept-version:1.2\nheart-beat:0,0\n\n\0'));
      sockets.push(ws);
    });
  for (let i = 0; i < count; i += CONCURRENCY) {
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, count - i) }, (_, k) => openOne(i + k)));
  }
  process.send!({ ready: sockets.length });
  // Stay idle until the parent ends this process.
  await new Promise(() => {});
}

function startClients(port: number, count: number, offset: number, subscriptions: number): Promise<() => void> {
  const child = fork(__filename, ['--client', String(count), '--port', String(port), '--offset', String(offset), '--subscriptions', String(subscriptions)], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`client process exited with ${code}`)));
    child.once('message', () => resolve(() => child.kill('SIGKILL')));
  });
}

/** Long enough for V8's memory reducer (it acts 8 s after the last GC when allocation is low). */
const SETTLE_MS = 20_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** RSS after `waitMs` of idleness and a full GC. */
async function idleRss(broker: { pid: number; gc(): Promise<NodeJS.MemoryUsage> }, waitMs: number): Promise<{ rss: number; heapUsed: number }> {
  await sleep(waitMs);
  await broker.gc();
  await sleep(500);
  const usage = await broker.gc();
  return { rss: processRssBytes(broker.pid), heapUsed: usage.heapUsed };
}

interface Variant {
  subscriptions: number;
  rssBefore: number;
  rssAfter: number;
  /** Settled: the cost of a session. */
  rssPerSession: number;
  /** Read 2 s after the last connection, young-generation growth included. */
  rssPerSessionRightAfter: number;
  heapPerSession: number;
}

/** One fresh server: warm-up sessions, then `sessions` more, RSS after a full GC each time. */
async function measureVariant(sessions: number, subscriptions: number, warmup: number): Promise<Variant> {
  const broker = await startBrokerProcess({ exposeGc: true });
  pin(broker.pid, '0');
  const stops: Array<() => void> = [];
  try {
    stops.push(await startClients(broker.port, warmup, 0, subscriptions));
    const before = await idleRss(broker, SETTLE_MS);
    const t0 = Date.now();
    const per = Math.ceil(sessions / CLIENT_PROCESSES);
    const started = await Promise.all(
      Array.from({ length: CLIENT_PROCESSES }, (_, p) => startClients(broker.port, Math.min(per, sessions - p * per), warmup + p * per, subscriptions)),
    );
    stops.push(...started);
    console.log(`${subscriptions} subscription(s): ${sessions} sessions connected in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    const rightAfter = await idleRss(broker, 2000);
    const after = await idleRss(broker, SETTLE_MS);
    return {
      subscriptions,
      rssBefore: before.rss,
      rssAfter: after.rss,
      rssPerSession: (after.rss - before.rss) / sessions,
      rssPerSessionRightAfter: (rightAfter.rss - before.rss) / sessions,
      heapPerSession: (after.heapUsed - before.heapUsed) / sessions,
    };
  } finally {
    for (const stop of stops) stop();
    await broker.stop();
  }
}

async function main(): Promise<void> {
  const sessions = Number(args.sessions);
  const warmup = Number(args.warmup);
  const machine = machineFacts();
  const variants: Variant[] = [];
  for (const subscriptions of args.subscriptions.split(',').map(Number)) variants.push(await measureVariant(sessions, subscriptions, warmup));
  const headline = variants[0];
  const kib = (b: number) => `${(b / 1024).toFixed(2)} KiB`;
  const report = { benchmark: 'idle STOMP session memory', machine, sessions, warmupSessions: warmup, variants, goal: `≤ ${GOAL_BYTES} bytes` };
  fs.mkdirSync(RESULTS, { recursive: true });
  fs.writeFileSync(path.join(RESULTS, 'idle-memory.json'), JSON.stringify(report, null, 2) + '\n');
  const md = [
    '# Memory per idle STOMP session',
    '',
    `${sessions} idle authenticated sessions (session cookie, CONNECT without heart-beats, then the subscriptions shown), measured against ${warmup} warm-up sessions on a fresh server, RSS after a full GC once the idle server settled (${SETTLE_MS / 1000} s).`,
    'Each session subscribes to destinations of its own, as a user does to /topic/toggle-refresh/{uid} and the 7 /queue/call/*/{uid} queues.',
    '',
    '| subscriptions per session | server RSS before → after | RSS per session | of which JS heap | goal ≤ 3 KiB | RSS per session 2 s after the burst |',
    '|---|---|---|---|---|---|',
    ...variants.map(
      (v) =>
        `| ${v.subscriptions} | ${(v.rssBefore / 2 ** 20).toFixed(1)} → ${(v.rssAfter / 2 ** 20).toFixed(1)} MiB | ${kib(v.rssPerSession)} | ${kib(v.heapPerSession)} | ${v.rssPerSession <= GOAL_BYTES ? 'met' : 'missed'} | ${kib(v.rssPerSessionRightAfter)} |`,
    ),
    '',
    'The last column is read 2 s after the last connection: it includes the growth of V8\'s young generation under the burst (up to 32 MiB in all), which V8 gives back once the server is idle.',
    '',
    '## Machine',
    '',
    ...Object.entries(machine).map(([k, v]) => `- ${k}: ${v}`),
    '',
  ].join('\n');
  fs.writeFileSync(path.join(RESULTS, 'idle-memory.md'), md);
  console.log(md);
  emitResult({
    title: `Memory per idle STOMP session (${sessions} sessions)`,
    figures: variants.map((v) => ({
      measure: `server RSS per idle authenticated session, ${v.subscriptions} subscription(s)`,
      value: `${kib(v.rssPerSession)} (JS heap ${kib(v.heapPerSession)})`,
      goal: v === headline ? '≤ 3 KiB' : undefined,
      verdict: v === headline ? upperGoal(v.rssPerSession / 1024, GOAL_BYTES / 1024, 'KiB') : undefined,
    })),
    notes: [
      `RSS of the bench-broker process (the product's transport and STOMP layers) after a full GC once idle for ${SETTLE_MS / 1000} s, ${warmup} warm-up sessions subtracted.`,
      `Clients: ${CLIENT_PROCESSES} processes of raw ws sockets, each session with its own cookie and destinations.`,
      `Read 2 s after the burst instead (V8's young generation still grown to its maximum): ${variants.map((v) => `${kib(v.rssPerSessionRightAfter)} with ${v.subscriptions}`).join(', ')} subscription(s).`,
    ],
  });
}

if (args.client) {
  runClient(Number(args.port), Number(args.client), Number(args.offset), Number(args.subscriptions)).catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
} else {
  main().then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
