// Benchmark part 1b: our STOMP core against RabbitMQ's Web-STOMP, same clients, same run.
// One publisher, 1 000 subscribers on one topic, the same SEND bytes; server CPU microseconds per
// delivered MESSAGE (user + system time of the broker process from /proc: our bench broker's
// Node process; RabbitMQ's beam.smp, all its scheduler threads, its idle CPU rate subtracted)
// and deliveries per second. Goal: at least 3 times RabbitMQ's deliveries per CPU-second.
//
// Our core runs pinned to core 0 and this driver to core 1. RabbitMQ is a system service shared
// with the machine: it is not re-pinned, and may use both cores.
//   node --import tsx bench/broker-compare.ts [--subscribers 1000] [--messages 500] [--rounds 2]
import { execFileSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import WebSocket from 'ws';
import { startBrokerProcess, pin } from './lib/broker-process';
import { processCpuMicros } from './lib/cpu-time';
import { emitResult, lowerGoal } from './lib/result';

const { values: args } = parseArgs({
  options: {
    subscribers: { type: 'string', default: '1000' },
    messages: { type: 'string', default: '500' },
    rounds: { type: 'string', default: '2' },
    'body-bytes': { type: 'string', default: '100' },
    'rabbit-url': { type: 'string', default: 'ws://127.0.0.1:15674/ws' },
  },
});
const REQUESTED_SUBSCRIBERS = Number(args.subscribers);
/** Set in main(): the request, or fewer when RabbitMQ's socket limit would refuse them. */
let SUBSCRIBERS = REQUESTED_SUBSCRIBERS;
const MESSAGES = Number(args.messages);
const ROUNDS = Number(args.rounds);
const BODY = 'x'.repeat(Number(args['body-bytes']));
/** Messages in flight before the publisher waits for their deliveries: clients are never flooded. */
const WINDOW = 20;
const TOPIC = '/topic/bench.compare';
const GOAL_RATIO = 3;
const HEARTBEAT_MS = 10_000;

const log = (line: string) => process.stderr.write(`[broker-compare] ${line}\n`);

/** Counts MESSAGE frames (NUL-terminated, whatever the WebSocket message boundaries). */
class Counter {
  delivered = 0;
  private target = Infinity;
  private wake: (() => void) | null = null;

  hit(data: Buffer): void {
    for (let i = data.indexOf(0); i >= 0; i = data.indexOf(0, i + 1)) this.delivered++;
    if (this.delivered >= this.target && this.wake) {
      const w = this.wake;
      this.wake = null;
      w();
    }
  }

  until(total: number, timeoutMs = 60_000): Promise<void> {
    if (this.delivered >= total) return Promise.resolve();
    this.target = total;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`only ${this.delivered} of ${total} deliveries within ${timeoutMs} ms`)), timeoutMs);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}

interface Target {
  name: string;
  url: string;
  connectHeaders: string;
  /** The broker's process, and its CPU rate when idle (µs per second). */
  pid: number;
  idleMicrosPerSecond: number;
}

function nextFrame(ws: WebSocket): Promise<string> {
  return new Promise((resolve) => ws.once('message', (d: Buffer) => resolve(d.toString())));
}

async function stompSocket(t: Target, subscribe: boolean, counter: Counter | null): Promise<WebSocket> {
  const ws = new WebSocket(t.url, ['v12.stomp'], { perMessageDeflate: false });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  // Silent subscribers would be closed by Web-STOMP's 60 s idle timeout mid-run: promise
  // heart-beats and send them (every socket gets one EOL each HEARTBEAT_MS).
  ws.send(`CONNECT\naccept-version:1.2\nheart-beat:${HEARTBEAT_MS},0\n${t.connectHeaders}\n\0`);
  const connected = await nextFrame(ws);
  if (!connected.startsWith('CONNECTED')) throw new Error(`${t.name}: CONNECT refused: ${connected}`);
  if (subscribe) {
    ws.send(`SUBSCRIBE\nid:sub-0\ndestination:${TOPIC}\nack:auto\nreceipt:s\n\n\0`);
    const receipt = await nextFrame(ws);
    if (!receipt.startsWith('RECEIPT')) throw new Error(`${t.name}: SUBSCRIBE refused: ${receipt}`);
  }
  if (counter) ws.on('message', (d: Buffer) => counter.hit(d));
  return ws;
}

async function inBatches<T>(n: number, size: number, make: () => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < n; i += size) out.push(...(await Promise.all(Array.from({ length: Math.min(size, n - i) }, make))));
  return out;
}

interface Measured {
  cpuMicros: number;
  seconds: number;
  deliveries: number;
}

class Rig {
  private constructor(
    readonly target: Target,
    private readonly counter: Counter,
    private readonly subscribers: WebSocket[],
    private readonly publisher: WebSocket,
  ) {}

  private heartbeat: NodeJS.Timeout | null = null;

  static async open(target: Target): Promise<Rig> {
    const counter = new Counter();
    const subscribers = await inBatches(SUBSCRIBERS, 100, () => stompSocket(target, true, counter));
    const publisher = await stompSocket(target, false, null);
    const rig = new Rig(target, counter, subscribers, publisher);
    rig.heartbeat = setInterval(() => {
      for (const ws of [...subscribers, publisher]) if (ws.readyState === WebSocket.OPEN) ws.send('\n');
    }, HEARTBEAT_MS);
    return rig;
  }

  async measure(messages: number): Promise<Measured> {
    const send = `SEND\ndestination:${TOPIC}\ncontent-type:text/plain\n\n${BODY}\0`;
    const start = this.counter.delivered;
    const cpu0 = processCpuMicros(this.target.pid);
    const t0 = process.hrtime.bigint();
    for (let sent = 0; sent < messages; ) {
      const batch = Math.min(WINDOW, messages - sent);
      for (let i = 0; i < batch; i++) this.publisher.send(send);
      sent += batch;
      await this.counter.until(start + sent * SUBSCRIBERS).catch((err: Error) => {
        throw new Error(`${this.target.name}: ${err.message}`);
      });
    }
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    const cpuMicros = Math.max(0, processCpuMicros(this.target.pid) - cpu0 - this.target.idleMicrosPerSecond * seconds);
    return { cpuMicros, seconds, deliveries: this.counter.delivered - start };
  }

  close(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    for (const ws of [...this.subscribers, this.publisher]) ws.terminate();
  }
}

async function idleRate(pid: number, seconds = 3): Promise<number> {
  const c0 = processCpuMicros(pid);
  await new Promise((r) => setTimeout(r, seconds * 1000));
  return (processCpuMicros(pid) - c0) / seconds;
}

/**
 * RabbitMQ accepts sockets up to a limit derived from its file-descriptor ulimit (832 with the
 * Debian service's 1024); beyond it, a resource alarm blocks every publisher. Null if unknown.
 */
function rabbitSocketLimit(): number | null {
  try {
    const status = execFileSync('rabbitmqctl', ['status'], { encoding: 'utf8', timeout: 30_000 });
    const m = /Sockets: \d+, limit: (\d+)/.exec(status);
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

function rabbitPid(): number {
  const pid = Number(execFileSync('pidof', ['beam.smp'], { encoding: 'utf8' }).trim().split(/\s+/)[0]);
  if (!pid) throw new Error('RabbitMQ (beam.smp) is not running');
  return pid;
}

async function main(): Promise<void> {
  const socketLimit = rabbitSocketLimit();
  // RabbitMQ also counts its own files against the same ulimit and raises the alarm near it:
  // stay within 85% of the socket limit, rounded down to a hundred.
  if (socketLimit !== null && socketLimit * 0.85 < REQUESTED_SUBSCRIBERS) SUBSCRIBERS = Math.max(100, Math.floor((socketLimit * 0.85) / 100) * 100);
  if (SUBSCRIBERS !== REQUESTED_SUBSCRIBERS) log(`RabbitMQ accepts at most ${socketLimit} sockets here: comparing at ${SUBSCRIBERS} subscribers`);
  const broker = await startBrokerProcess();
  const pinned = pin(broker.pid, '0') && pin(process.pid, '1');
  const rigs: Rig[] = [];
  try {
    const ourPid = broker.pid;
    const rabbit = rabbitPid();
    const [ourIdle, rabbitIdle] = await Promise.all([idleRate(ourPid), idleRate(rabbit)]);
    log(`idle CPU: our core ${(ourIdle / 1e4).toFixed(1)}%, RabbitMQ ${(rabbitIdle / 1e4).toFixed(1)}% of a core`);
    rigs.push(
      await Rig.open({ name: 'our STOMP core', url: `ws://127.0.0.1:${broker.port}/websocket`, connectHeaders: 'host:localhost\n', pid: ourPid, idleMicrosPerSecond: ourIdle }),
      await Rig.open({ name: 'RabbitMQ Web-STOMP', url: args['rabbit-url'], connectHeaders: 'host:/\nlogin:guest\npasscode:guest\n', pid: rabbit, idleMicrosPerSecond: rabbitIdle }),
    );
    for (const rig of rigs) await rig.measure(Math.min(100, MESSAGES)); // warm-up
    const best = new Map<string, Measured>();
    for (let round = 1; round <= ROUNDS; round++) {
      for (const rig of rigs) {
        const m = await rig.measure(MESSAGES);
        log(`round ${round} ${rig.target.name}: ${(m.cpuMicros / m.deliveries).toFixed(3)} µs CPU/delivery, ${(m.deliveries / m.seconds).toFixed(0)} deliveries/s`);
        const prev = best.get(rig.target.name);
        if (!prev || m.cpuMicros / m.deliveries < prev.cpuMicros / prev.deliveries) best.set(rig.target.name, m);
      }
    }
    const ours = best.get('our STOMP core')!;
    const theirs = best.get('RabbitMQ Web-STOMP')!;
    const oursUs = ours.cpuMicros / ours.deliveries;
    const theirsUs = theirs.cpuMicros / theirs.deliveries;
    const ratio = theirsUs / oursUs; // deliveries per CPU-second, ours over theirs
    emitResult({
      title: `Broker fan-out: our STOMP core vs RabbitMQ Web-STOMP (1 publisher → ${SUBSCRIBERS.toLocaleString('en-US')} subscribers)`,
      figures: [
        {
          measure: 'server CPU µs per delivered MESSAGE',
          value: oursUs.toFixed(3),
          baseline: `${theirsUs.toFixed(3)} (RabbitMQ)`,
          ratio: `${ratio.toFixed(1)}× the deliveries per CPU-second`,
          goal: `≥ ${GOAL_RATIO}× RabbitMQ's deliveries per CPU-second`,
          verdict: lowerGoal(ratio, GOAL_RATIO, '×'),
        },
        {
          measure: 'deliveries per CPU-second',
          value: (1e6 / oursUs).toFixed(0),
          baseline: `${(1e6 / theirsUs).toFixed(0)} (RabbitMQ)`,
        },
        {
          measure: 'deliveries per second (wall clock)',
          value: (ours.deliveries / ours.seconds).toFixed(0),
          baseline: `${(theirs.deliveries / theirs.seconds).toFixed(0)} (RabbitMQ)`,
        },
      ],
      notes: [
        `Same client for both: ${SUBSCRIBERS} raw WebSocket STOMP subscribers on ${TOPIC} and one publisher of ${BODY.length}-byte bodies, at most ${WINDOW} messages in flight, every socket sending a heart-beat each ${HEARTBEAT_MS / 1000} s; best of ${ROUNDS} alternating rounds of ${MESSAGES} messages after a warm-up.`,
        `CPU is the broker process's user + system time from /proc, minus its idle rate measured just before (our core ${(ourIdle / 1e4).toFixed(1)}%, RabbitMQ ${(rabbitIdle / 1e4).toFixed(1)}% of a core).`,
        pinned
          ? 'Cores: our core pinned to core 0, the clients to core 1; RabbitMQ (a shared system service) left unpinned, so it could use both.'
          : 'Cores: not pinned (taskset unavailable).',
        'Deliveries per second is bounded by the single client process counting them, the same for both.',
        ...(SUBSCRIBERS !== REQUESTED_SUBSCRIBERS
          ? [
              `Measured at ${SUBSCRIBERS} subscribers, not ${REQUESTED_SUBSCRIBERS}: RabbitMQ on this machine accepts at most ${socketLimit} sockets (its service's file-descriptor limit), and past that a resource alarm blocks every publisher. Our core at ${REQUESTED_SUBSCRIBERS} is in the fan-out table above. Raise RabbitMQ's ulimit -n to compare at ${REQUESTED_SUBSCRIBERS}.`,
            ]
          : []),
      ],
    });
  } finally {
    for (const rig of rigs) rig.close();
    await broker.stop();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`[broker-compare] failed: ${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  },
);
