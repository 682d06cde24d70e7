// Benchmark: STOMP fan-out over loopback. One publisher, 1 000 subscribers on one topic, MESSAGE
// frames of about 250 bytes. Reports the server's CPU microseconds per delivered MESSAGE and
// deliveries per second, beside the floor measured in the same run: bare uWS app.publish of the
// same bytes (bench-broker's /bench-raw endpoints), with the same clients.
//
// The server (bench/broker.ts) runs as a child process pinned to core 0; this driver
// and its light clients (raw `ws` sockets that only count messages) are pinned to core 1. Rounds
// alternate STOMP and floor; the best round of each is reported, since other processes on the
// machine can only add CPU time.
//   node --import tsx bench/fanout.ts [--subscribers 1000] [--messages 1000] [--rounds 3]
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import WebSocket from 'ws';
import { startBrokerProcess, pin } from './lib/broker-process';
import { processCpuMicros } from './lib/cpu-time';
import { machineFacts } from './lib/machine';
import { emitResult, upperGoal } from './lib/result';

const { values: args } = parseArgs({
  options: {
    subscribers: { type: 'string', default: '1000' },
    messages: { type: 'string', default: '1000' },
    rounds: { type: 'string', default: '3' },
    'frame-bytes': { type: 'string', default: '250' },
  },
});
const SUBSCRIBERS = Number(args.subscribers);
const MESSAGES = Number(args.messages);
const ROUNDS = Number(args.rounds);
const FRAME_BYTES = Number(args['frame-bytes']);
/** Messages in flight before the publisher waits for their deliveries: clients are never flooded. */
const WINDOW = 20;
const TOPIC = '/topic/bench.fanout';
const GOAL_RATIO = 1.5;
const RESULTS = path.resolve(__dirname, 'results');

/** Counts every delivered message across all subscribers and wakes whoever waits for a total. */
class Counter {
  delivered = 0;
  private target = Infinity;
  private wake: (() => void) | null = null;
  lastFrame = '';

  hit(data: Buffer): void {
    if (data.length <= 2) return; // heart-beat EOL
    this.delivered++;
    if (this.delivered === 1) this.lastFrame = data.toString();
    if (this.delivered >= this.target && this.wake) {
      const w = this.wake;
      this.wake = null;
      w();
    }
  }

  until(total: number): Promise<void> {
    if (this.delivered >= total) return Promise.resolve();
    this.target = total;
    return new Promise((resolve) => (this.wake = resolve));
  }
}

function open(url: string, protocols: string[] = []): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, protocols, { perMessageDeflate: false, headers: {} });
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

function nextMessage(ws: WebSocket): Promise<string> {
  return new Promise((resolve) => ws.once('message', (d: Buffer) => resolve(d.toString())));
}

async function stompSocket(base: string, subscribe: boolean, counter: Counter | null): Promise<WebSocket> {
  const ws = await open(`${base}/websocket`, ['v12.stomp']);
  ws.send('CONNECT\naccept-version:1.2\nheart-beat:0,0\n\n\0');
  const connected = await nextMessage(ws);
  if (!connected.startsWith('CONNECTED')) throw new Error(`CONNECT refused: ${connected}`);
  if (subscribe) {
    // Every subscriber uses id sub-0, as browsers do for their first subscription: one group.
    ws.send(`SUBSCRIBE\nid:sub-0\ndestination:${TOPIC}\nreceipt:s\n\n\0`);
    const receipt = await nextMessage(ws);
    if (!receipt.startsWith('RECEIPT')) throw new Error(`SUBSCRIBE refused: ${receipt}`);
  }
  if (counter) ws.on('message', (d: Buffer) => counter.hit(d));
  return ws;
}

async function inBatches<T>(n: number, size: number, make: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < n; i += size) out.push(...(await Promise.all(Array.from({ length: Math.min(size, n - i) }, (_, k) => make(i + k)))));
  return out;
}

interface Phase {
  name: string;
  counter: Counter;
  send(): void;
}

interface Measured {
  cpuMicros: number;
  seconds: number;
  deliveries: number;
}

async function measure(serverPid: number, phase: Phase, messages: number): Promise<Measured> {
  const start = phase.counter.delivered;
  const cpu0 = processCpuMicros(serverPid);
  const t0 = process.hrtime.bigint();
  for (let sent = 0; sent < messages; ) {
    const batch = Math.min(WINDOW, messages - sent);
    for (let i = 0; i < batch; i++) phase.send();
    sent += batch;
    await phase.counter.until(start + sent * SUBSCRIBERS);
  }
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const cpuMicros = processCpuMicros(serverPid) - cpu0;
  return { cpuMicros, seconds, deliveries: phase.counter.delivered - start };
}

async function main(): Promise<void> {
  const machine = machineFacts();
  const broker = await startBrokerProcess();
  const pinned = pin(broker.pid, '0') && pin(process.pid, '1');
  const base = `ws://127.0.0.1:${broker.port}`;
  try {
    const stomp = new Counter();
    const raw = new Counter();
    console.log(`connecting ${SUBSCRIBERS} STOMP and ${SUBSCRIBERS} bare subscribers…`);
    const stompSubs = await inBatches(SUBSCRIBERS, 100, () => stompSocket(base, true, stomp));
    const rawSubs = await inBatches(SUBSCRIBERS, 100, async () => {
      const ws = await open(`${base}/bench-raw`);
      ws.on('message', (d: Buffer) => raw.hit(d));
      return ws;
    });
    const stompPub = await stompSocket(base, false, null);
    const rawPub = await open(`${base}/bench-raw-publish`);

    // Size the body so that the delivered MESSAGE frame is FRAME_BYTES long.
    const probe = 'x'.repeat(100);
    stompPub.send(`SEND\ndestination:${TOPIC}\n\n${probe}\0`);
    await stomp.until(SUBSCRIBERS);
    const body = 'x'.repeat(Math.max(1, 100 + FRAME_BYTES - Buffer.byteLength(stomp.lastFrame)));
    const send = `SEND\ndestination:${TOPIC}\n\n${body}\0`;
    stompPub.send(send);
    await stomp.until(2 * SUBSCRIBERS);
    // The floor publishes exactly the bytes a STOMP subscriber receives.
    const sample = await new Promise<string>((resolve) => {
      stompSubs[0].once('message', (d: Buffer) => resolve(d.toString()));
      stompPub.send(send);
    });
    await stomp.until(3 * SUBSCRIBERS);
    const frameBytes = Buffer.byteLength(sample);

    const phases: Phase[] = [
      { name: 'STOMP', counter: stomp, send: () => stompPub.send(send) },
      { name: 'uWS publish floor', counter: raw, send: () => rawPub.send(sample) },
    ];
    for (const p of phases) await measure(broker.pid, p, Math.min(200, MESSAGES)); // warm-up (JIT)
    const best = new Map<string, Measured>();
    for (let round = 1; round <= ROUNDS; round++) {
      for (const p of phases) {
        const m = await measure(broker.pid, p, MESSAGES);
        const perDelivery = m.cpuMicros / m.deliveries;
        console.log(`round ${round} ${p.name}: ${perDelivery.toFixed(3)} µs CPU/delivery, ${(m.deliveries / m.seconds).toFixed(0)} deliveries/s`);
        const prev = best.get(p.name);
        if (!prev || perDelivery < prev.cpuMicros / prev.deliveries) best.set(p.name, m);
      }
    }

    const s = best.get('STOMP')!;
    const f = best.get('uWS publish floor')!;
    const stompUs = s.cpuMicros / s.deliveries;
    const floorUs = f.cpuMicros / f.deliveries;
    const ratio = stompUs / floorUs;
    const report = {
      benchmark: 'STOMP fan-out',
      machine,
      pinned: pinned ? 'server on core 0, clients on core 1' : 'not pinned (taskset unavailable)',
      subscribers: SUBSCRIBERS,
      messagesPerRound: MESSAGES,
      rounds: ROUNDS,
      frameBytes,
      stomp: { cpuMicrosPerDelivery: stompUs, deliveriesPerSecond: s.deliveries / s.seconds },
      floor: { cpuMicrosPerDelivery: floorUs, deliveriesPerSecond: f.deliveries / f.seconds },
      ratio,
      goal: `≤ ${GOAL_RATIO}× the floor`,
    };
    fs.mkdirSync(RESULTS, { recursive: true });
    fs.writeFileSync(path.join(RESULTS, 'fanout.json'), JSON.stringify(report, null, 2) + '\n');
    const md = [
      '# STOMP fan-out',
      '',
      `${SUBSCRIBERS} subscribers on one topic, one publisher, ${frameBytes}-byte MESSAGE frames, ${MESSAGES} messages per round, best of ${ROUNDS} rounds; ${report.pinned}.`,
      '',
      '| | server CPU µs per delivery | deliveries/s |',
      '|---|---|---|',
      `| STOMP (parse SEND, route, serialise once per group, uWS publish) | ${stompUs.toFixed(3)} | ${report.stomp.deliveriesPerSecond.toFixed(0)} |`,
      `| floor: bare uWS publish of the same bytes | ${floorUs.toFixed(3)} | ${report.floor.deliveriesPerSecond.toFixed(0)} |`,
      '',
      `Ratio ${ratio.toFixed(2)}× (goal ≤ ${GOAL_RATIO}×: ${ratio <= GOAL_RATIO ? 'met' : 'missed'}).`,
      '',
      '## Machine',
      '',
      ...Object.entries(machine).map(([k, v]) => `- ${k}: ${v}`),
      '',
    ].join('\n');
    fs.writeFileSync(path.join(RESULTS, 'fanout.md'), md);
    console.log(md);
    emitResult({
      title: 'STOMP fan-out (1 publisher → 1 000 subscribers, ~250-byte frames)',
      figures: [
        {
          measure: 'server CPU µs per delivered MESSAGE',
          value: stompUs.toFixed(3),
          baseline: `${floorUs.toFixed(3)} (bare uWS publish)`,
          ratio: `${ratio.toFixed(2)}×`,
          goal: `≤ ${GOAL_RATIO}× the floor`,
          verdict: upperGoal(ratio, GOAL_RATIO, '×'),
        },
        {
          measure: 'deliveries per second',
          value: report.stomp.deliveriesPerSecond.toFixed(0),
          baseline: `${report.floor.deliveriesPerSecond.toFixed(0)} (bare uWS publish)`,
        },
      ],
      notes: [
        `Best of ${ROUNDS} alternating rounds of ${MESSAGES} messages; ${report.pinned}.`,
        `Publisher keeps at most ${WINDOW} messages in flight; deliveries/s is bounded by the single client process counting them.`,
      ],
    });
    for (const ws of [...stompSubs, ...rawSubs, stompPub, rawPub]) ws.terminate();
  } finally {
    await broker.stop();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
