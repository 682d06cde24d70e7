// Benchmark (issue [6/7]): how a node should listen to 1000 rooms on the Redis bus. Two listening
// nodes (child processes with an ioredis subscriber each, as the product's RedisBus) each hold
// half of ROOMS rooms, overlapping by a tenth; one publisher sends MESSAGES messages spread over
// every room. Strategies:
//  - per-channel: SUBSCRIBE to each room a node holds (the product today): Redis delivers a
//    message only to the nodes that hold its room;
//  - pattern: one PSUBSCRIBE lc:d:* per node: every node receives every message and drops those
//    of rooms it does not hold;
//  - sharded: SSUBSCRIBE / SPUBLISH per room (Redis 7 sharded pub/sub; on one Redis instance it
//    behaves as per-channel, on a Redis Cluster it spreads channels over the shards).
// Measured per message published: Redis CPU (/proc, and PUBLISH execution time from INFO
// commandstats) and the listening nodes' CPU (process.cpuUsage, summed). Each strategy runs in
// alternating rounds and the median is kept.
//   node --import tsx bench/channel-strategies.ts [--rooms 1000] [--messages 20000] [--rounds 3]
import { execFileSync, fork } from 'node:child_process';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { TestRedis } from '../server/test/support/cluster';
import { processCpuMicros } from './lib/cpu-time';
import { emitResult } from './lib/result';

type Strategy = 'per-channel' | 'pattern' | 'sharded';
const STRATEGIES: Strategy[] = ['per-channel', 'pattern', 'sharded'];
const PREFIX = 'lc:d:/topic/private-chat/';

interface Listen {
  url: string;
  strategy: Strategy;
  rooms: number[];
}

/** Child: listens as told, counts messages of its rooms, answers its CPU when asked. */
function listener(): void {
  let redis: Redis | null = null;
  let kept = 0;
  let dropped = 0;
  process.on('message', (msg: { listen?: Listen; report?: true; stop?: true }) => {
    void (async () => {
      if (msg.listen) {
        const { url, strategy, rooms } = msg.listen;
        const held = new Set(rooms.map((r) => PREFIX + r));
        redis = new Redis(url);
        const onMessage = (channel: string) => {
          if (held.has(channel)) kept++;
          else dropped++;
        };
        if (strategy === 'pattern') {
          redis.on('pmessage', (_p: string, channel: string) => onMessage(channel));
          await redis.psubscribe('lc:d:*');
        } else if (strategy === 'sharded') {
          redis.on('smessage', (channel: string) => onMessage(channel));
          for (let i = 0; i < rooms.length; i += 100) await redis.ssubscribe(...rooms.slice(i, i + 100).map((r) => PREFIX + r));
        } else {
          redis.on('message', (channel: string) => onMessage(channel));
          for (let i = 0; i < rooms.length; i += 100) await redis.subscribe(...rooms.slice(i, i + 100).map((r) => PREFIX + r));
        }
        process.send?.({ ready: true });
      } else if (msg.report) {
        const cpu = process.cpuUsage();
        process.send?.({ cpuMicros: cpu.user + cpu.system, kept, dropped });
      } else if (msg.stop) {
        redis?.disconnect();
        process.exit(0);
      }
    })();
  });
}

interface Child {
  ask<T>(msg: object, key: string): Promise<T>;
  stop(): void;
}

function startChild(): Child {
  const child = fork(__filename, ['--child'], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return {
    ask: <T>(msg: object, key: string) =>
      new Promise<T>((resolve) => {
        const on = (reply: Record<string, unknown>) => {
          if (!(key in reply)) return;
          child.off('message', on);
          resolve(reply as T);
        };
        child.on('message', on);
        child.send(msg);
      }),
    stop: () => child.send({ stop: true }),
  };
}

async function publishStats(admin: Redis): Promise<{ calls: number; usec: number }> {
  const info = await admin.info('commandstats');
  let calls = 0;
  let usec = 0;
  for (const m of info.matchAll(/cmdstat_s?publish:calls=(\d+),usec=(\d+)/g)) {
    calls += Number(m[1]);
    usec += Number(m[2]);
  }
  return { calls, usec };
}

function redisPid(port: number): number {
  // The private redis-server's pid, from the port it listens on.
  return Number(execFileSync('sh', ['-c', `pgrep -f 'redis-server.*:${port}' | head -1`], { encoding: 'utf8' }).trim());
}

interface Measured {
  redisMicros: number;
  publishUsec: number;
  nodeMicros: number;
  dropped: number;
}

async function round(url: string, strategy: Strategy, rooms: number, messages: number, admin: Redis, pid: number): Promise<Measured> {
  const half = Math.floor(rooms / 2);
  const overlap = Math.floor(rooms / 10);
  // Node A holds rooms [0, half + overlap), node B [half - overlap, rooms): both hold some.
  const held = [Array.from({ length: half + overlap }, (_, i) => i), Array.from({ length: rooms - half + overlap }, (_, i) => half - overlap + i)];
  const children = [startChild(), startChild()];
  await Promise.all(children.map((c, i) => c.ask({ listen: { url, strategy, rooms: held[i] } }, 'ready')));
  const before = await Promise.all(children.map((c) => c.ask<{ cpuMicros: number; kept: number; dropped: number }>({ report: true }, 'cpuMicros')));
  const redis0 = processCpuMicros(pid);
  const stats0 = await publishStats(admin);
  const publisher = new Redis(url, { enableAutoPipelining: true });
  const body = 'x'.repeat(300);
  const expected = held[0].length + held[1].length; // deliveries per full pass over the rooms
  for (let sent = 0; sent < messages; ) {
    const batch: Promise<unknown>[] = [];
    for (let i = 0; i < 500 && sent < messages; i++, sent++) {
      const channel = PREFIX + (sent % rooms);
      batch.push(strategy === 'sharded' ? publisher.spublish(channel, body) : publisher.publish(channel, body));
    }
    await Promise.all(batch);
  }
  const wanted = Math.round((expected * messages) / rooms);
  let after = before;
  for (let waited = 0; waited < 200; waited++) {
    after = await Promise.all(children.map((c) => c.ask<{ cpuMicros: number; kept: number; dropped: number }>({ report: true }, 'cpuMicros')));
    if (after.reduce((s, a, i) => s + a.kept - before[i].kept, 0) >= wanted) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  const stats = await publishStats(admin);
  const m: Measured = {
    redisMicros: (processCpuMicros(pid) - redis0) / messages,
    publishUsec: (stats.usec - stats0.usec) / messages,
    nodeMicros: after.reduce((s, a, i) => s + a.cpuMicros - before[i].cpuMicros, 0) / messages,
    dropped: after.reduce((s, a, i) => s + a.dropped - before[i].dropped, 0) / messages,
  };
  publisher.disconnect();
  children.forEach((c) => c.stop());
  return m;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main(): Promise<void> {
  const { values: args } = parseArgs({
    options: { rooms: { type: 'string', default: '1000' }, messages: { type: 'string', default: '20000' }, rounds: { type: 'string', default: '3' }, child: { type: 'boolean' } },
  });
  const ROOMS = Number(args.rooms);
  const MESSAGES = Number(args.messages);
  const ROUNDS = Number(args.rounds);
  const redis = await TestRedis.start();
  const admin = new Redis(redis.url);
  try {
    const pid = redisPid(redis.port);
    const results = new Map<Strategy, Measured[]>(STRATEGIES.map((s) => [s, []]));
    await round(redis.url, 'per-channel', ROOMS, 2000, admin, pid); // warm-up
    for (let r = 0; r < ROUNDS; r++) {
      for (const s of STRATEGIES) {
        const m = await round(redis.url, s, ROOMS, MESSAGES, admin, pid);
        results.get(s)!.push(m);
        console.log(`round ${r + 1} ${s}: Redis ${m.redisMicros.toFixed(2)} µs/message (PUBLISH executed ${m.publishUsec.toFixed(2)} µs), nodes ${m.nodeMicros.toFixed(2)} µs/message, ${m.dropped.toFixed(2)} unwanted deliveries/message`);
      }
    }
    const summary = STRATEGIES.map((s) => {
      const list = results.get(s)!;
      return { strategy: s, redis: median(list.map((m) => m.redisMicros)), publish: median(list.map((m) => m.publishUsec)), nodes: median(list.map((m) => m.nodeMicros)), dropped: median(list.map((m) => m.dropped)) };
    });
    console.log(JSON.stringify(summary));
    const base = summary[0];
    emitResult({
      title: `Bus channel strategies at ${ROOMS} rooms (2 listening nodes, each holding ${Math.floor(ROOMS / 2) + Math.floor(ROOMS / 10)} rooms)`,
      figures: summary.map((s) => ({
        measure: `${s.strategy}: Redis CPU / PUBLISH execution / listening nodes' CPU per message`,
        value: `${s.redis.toFixed(2)} / ${s.publish.toFixed(2)} / ${s.nodes.toFixed(2)} µs (${s.dropped.toFixed(2)} unwanted deliveries)`,
        baseline: s === base ? undefined : `per-channel ${base.redis.toFixed(2)} / ${base.publish.toFixed(2)} / ${base.nodes.toFixed(2)} µs`,
      })),
      notes: [
        'Redis CPU from /proc (10 ms ticks over the round: coarse); PUBLISH execution time from INFO commandstats (Redis\u2019s own clock, load-independent); nodes\u2019 CPU from process.cpuUsage of the two listening processes. Medians of alternating rounds.',
        'sharded runs SSUBSCRIBE/SPUBLISH on one Redis 7 instance: the same work as per-channel here; its gain is spreading channels over the shards of a Redis Cluster.',
      ],
    });
  } finally {
    admin.disconnect();
    await redis.stop();
  }
}

if (process.argv.includes('--child')) listener();
else
  main().then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
