// Benchmark part 2: chat end to end on MariaDB. 1 000 seeded users in 100 rooms of 10, each with
// a STOMP session subscribed to its room; the offered rate rises in steps until p99 passes
// 100 ms or anything is lost. Reports the highest rate held with zero loss and its latencies.
//
// The server runs as a child process pinned to core 0, this driver pins itself to core 1, and
// MariaDB (a separate process) is left free to run on either.
// With --workers 2 the server is `WORKERS=2 npm start`: a supervisor and two node processes on
// one port (SO_REUSEPORT spreads the connections), joined by a private redis-server; the two
// share core 0 as the single node does, so the comparison shows what the cluster costs on the
// same CPU, not what a second core would add (the driver needs the other one).
//   node --import tsx bench/chat-e2e.ts [--users 1000] [--rooms 100] [--step-seconds 8] [--rates 500,1000,…] [--workers 1|2]
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import knexFactory, { type Knex } from 'knex';
import { drive } from '../protocol-harness/src/load/driver';
import type { LoadReport } from '../protocol-harness/src/load/report';
import { prepareChat } from '../protocol-harness/src/load/scenario';
import { hottestFunctions } from './lib/cpu-profile';
import { processCpuMicros, processTree, treeCpuMicros } from './lib/cpu-time';
import { freePort, TestRedis } from '../server/test/support/cluster';
import { createBenchDatabase } from './lib/mariadb';
import { emitResult, lowerGoal, type PartResult } from './lib/result';
import { ROOT, startServer } from './lib/server-process';

const { values: args } = parseArgs({
  options: {
    users: { type: 'string', default: '1000' },
    rooms: { type: 'string', default: '100' },
    'step-seconds': { type: 'string', default: '8' },
    rates: { type: 'string', default: '250,500,1000,1500,2000,2500,3000,4000,5000,6000,8000' },
    // Every receiver sends /app/read for what it receives and listens to its room's
    // events, as the browser client does (the newest seq at once, then at most once a second);
    // --reads per-message sends one for every message, --reads false measures the chat alone.
    reads: { type: 'string', default: 'true' },
    workers: { type: 'string', default: '1' },
  },
});
const READS = args.reads !== 'false';
const READ_INTERVAL_MS = args.reads === 'per-message' ? 0 : 1000;
const WORKERS = Number(args.workers);
const USERS = Number(args.users);
const ROOMS = Number(args.rooms);
const STEP_SECONDS = Number(args['step-seconds']);
const RATES = args.rates.split(',').map(Number);
const P99_LIMIT_MS = 100;
// The goal: with every receiver sending /app/read, 3000 msg/s at p99 ≤ 50 ms.
const GOAL_RATE = 3000;
const GOAL_P99_MS = 50;
const PASSWORD = 'bench-load-pass';
const PREFIX = 'benchchat';

const PROFILE_DIR = path.join(ROOT, 'var', 'bench-profiles', WORKERS > 1 ? `chat-e2e-${WORKERS}-workers` : 'chat-e2e');

interface Step {
  report: LoadReport;
  /** Share of one core used during the step. */
  serverCpu: number;
  mariadbCpu: number | null;
  /** Share of one core used by this process, the load driver (its own latency is in the figures). */
  driverCpu: number;
  /** The driver's event-loop delay p99 (ms): how late it may see a delivery that had arrived. */
  driverLoopP99Ms: number;
  /** MariaDB InnoDB fsyncs per message sent (durable commits cost one each, less with group commit). */
  fsyncsPerMessage: number;
  /** InnoDB row lock waits during the step and the time spent in them (server-wide). */
  lockWaits: { count: number; ms: number };
  /** The server's message transactions during the step (its /metrics): how many, their mean time, and its event loop's p99 delay. */
  transactions: { count: number; meanMs: number; p99Ms: number; messages: number; loopP99Ms: number };
  /** Messages still waiting for the search index (MessageIndexer) when the step's drain ended. */
  waitingForIndex: number;
}

/** A global MariaDB status counter (the whole server: other work on the machine adds to it). */
async function mariadbStatus(db: Knex, name: string): Promise<number> {
  const [rows] = (await db.raw('SHOW GLOBAL STATUS LIKE ?', [name])) as [{ Value: string }[]];
  return Number(rows[0]?.Value ?? 0);
}

function mariadbPid(): number | null {
  try {
    return Number(execFileSync('pidof', ['mariadbd'], { encoding: 'utf8' }).trim().split(/\s+/)[0]) || null;
  } catch {
    return null;
  }
}

const log = (line: string) => process.stderr.write(`[chat-e2e] ${line}\n`);

function pinSelf(cpus: string): boolean {
  try {
    execFileSync('taskset', ['-cp', cpus, String(process.pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * A step holds when nothing was lost, duplicated, reordered or refused, no session failed during
 * it, and p99 stayed within the limit. A session that failed to open during set-up is left out
 * of every room's accounting (and reported), rather than failing every step.
 */
function held(r: LoadReport): boolean {
  const c = r.counts;
  const exact = c.lost === 0 && c.duplicated === 0 && c.outOfOrder === 0 && c.unexpected === 0 && c.rejected === 0;
  return exact && c.sent > 0 && r.connectionErrorsDuringRun === 0 && r.latency.p99Ms <= P99_LIMIT_MS;
}

/** Who missed what, when a step lost deliveries (the driver's loss detail). */
function lossText(r: LoadReport): string {
  const l = r.loss;
  if (!l) return '';
  return `(${l.receiversMissing} receivers missing deliveries, most: ${l.worst.map((w) => `client ${w.client} ${w.missing}${w.open ? '' : ' closed'}`).join(', ')}; ${l.messagesNobodyGot} messages reached nobody, ${l.unacknowledgedMissing} unacknowledged; ${l.late} arrived within 10 s after the drain)`;
}

function row({ report: r, serverCpu, mariadbCpu, driverCpu, driverLoopP99Ms, fsyncsPerMessage, lockWaits, waitingForIndex, transactions: t }: Step): string {
  const c = r.counts;
  const pct = (x: number | null) => (x === null ? 'n/a' : `${Math.round(x * 100)}%`);
  const perSecond = (n: number | undefined) => (n === undefined ? 'n/a' : String(Math.round(n / (r.durationSeconds || 1))));
  return `| ${r.offeredRate} | ${Math.round(r.throughput.sendsPerSecond)} | ${c.delivered}/${c.expectedDeliveries} | ${c.lost} | ${c.duplicated} | ${c.outOfOrder} | ${r.latency.p50Ms.toFixed(1)} | ${r.latency.p90Ms.toFixed(1)} | ${r.latency.p99Ms.toFixed(1)} | ${r.latency.maxMs.toFixed(1)} | ${pct(serverCpu)} | ${pct(mariadbCpu)} | ${pct(driverCpu)} | ${driverLoopP99Ms.toFixed(1)} | ${fsyncsPerMessage.toFixed(2)} | ${lockWaits.count} / ${lockWaits.ms} | ${Math.round(t.count / (r.durationSeconds || 1))} | ${(t.messages / Math.max(t.count, 1)).toFixed(1)} | ${t.meanMs.toFixed(1)} / ≤ ${t.p99Ms} | ${t.loopP99Ms.toFixed(1)} | ${waitingForIndex} | ${perSecond(r.reads?.sent)} | ${perSecond(r.reads?.eventsReceived)} |`;
}

/** Opens the server's GET /metrics: what its message transactions did during each step. */
const METRICS_TOKEN = 'bench-chat-e2e-metrics';

/** The server's counters that say what its message writer did (a sum over workers is not attempted: one node's). */
async function serverMetrics(base: string): Promise<Map<string, number>> {
  const text = await (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  const values = new Map<string, number>();
  for (const line of text.split('\n')) {
    const m = /^(letschat_message_batch_seconds_(?:sum|count)|letschat_messages_stored_total|nodejs_eventloop_lag_p99_seconds) (\S+)$/.exec(line);
    if (m) values.set(m[1], Number(m[2]));
    const bucket = /^letschat_message_batch_seconds_bucket\{le="([^"]+)"\} (\S+)$/.exec(line);
    if (bucket) values.set(`le ${bucket[1]}`, Number(bucket[2]));
  }
  return values;
}

function transactionsBetween(before: Map<string, number>, after: Map<string, number>): Step['transactions'] {
  const delta = (k: string) => (after.get(k) ?? 0) - (before.get(k) ?? 0);
  const count = delta('letschat_message_batch_seconds_count');
  // The smallest bucket bound that holds 99% of the step's transactions.
  const bounds = [...after.keys()].filter((k) => k.startsWith('le ') && k !== 'le +Inf').map((k) => Number(k.slice(3))).sort((a, b) => a - b);
  const p99Bound = bounds.find((b) => delta(`le ${b}`) >= 0.99 * count);
  return {
    count,
    p99Ms: p99Bound === undefined ? Infinity : p99Bound * 1000,
    meanMs: (1000 * delta('letschat_message_batch_seconds_sum')) / Math.max(count, 1),
    messages: delta('letschat_messages_stored_total'),
    // The event loop's delay histogram restarts at each scrape: this is the step's. It holds the
    // time between its samples, taken every 20 ms (server/src/observability/metrics.ts): the delay is beyond that.
    loopP99Ms: Math.max(0, 1000 * (after.get('nodejs_eventloop_lag_p99_seconds') ?? 0) - 20),
  };
}

async function main(): Promise<void> {
  const pinned = pinSelf('1');
  const database = await createBenchDatabase('chat');
  fs.rmSync(PROFILE_DIR, { recursive: true, force: true });
  // Several workers need Redis (a private one: never the shared instance) and one fixed port.
  const redis = WORKERS > 1 ? await TestRedis.start() : null;
  const clusterEnv: Record<string, string> = redis ? { WORKERS: String(WORKERS), REDIS_URL: redis.url, PORT: String(await freePort()) } : {};
  const server = await startServer({
    env: { DATABASE_URL: database.url, METRICS_TOKEN, ...clusterEnv },
    cpus: pinned ? '0' : undefined,
    nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`],
  }).catch(async (err) => {
    await redis?.stop();
    await database.drop();
    throw err;
  });
  // The first worker announces itself; the supervisor says when all are up.
  if (WORKERS > 1) {
    const deadline = Date.now() + 60_000;
    while (!server.recentLog.some((l) => l.includes(`${WORKERS} workers on port`)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  }
  const serverPids = processTree(server.pid);
  log(`server pid ${server.pid} (${serverPids.length} processes) at ${server.url} on ${database.name}`);
  const steps: Step[] = [];
  let joined = 0;
  let setupErrors: string[] = [];
  const dbPid = mariadbPid();
  const status = knexFactory({ client: 'mysql2', connection: { uri: database.url } as never, pool: { min: 0, max: 1 } });
  try {
    execFileSync('npm', ['run', '--silent', 'admin', '--', 'seed', '--users', String(USERS), '--password', PASSWORD, '--prefix', PREFIX], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: database.url },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const started = Date.now();
    const scenario = await prepareChat({
      url: server.url,
      users: Array.from({ length: USERS }, (_x, i) => ({ email: `${PREFIX}${i + 1}@example.test`, password: PASSWORD })),
      rooms: ROOMS,
      messageBytes: 64,
      loginConcurrency: 8,
      connectConcurrency: 50,
      roomEvents: READS,
      progress: (step, done, total) => done === total && log(`${step}: ${done}/${total}`),
    });
    joined = scenario.groups.flat().length;
    setupErrors = [...scenario.swarm.errorSamples];
    log(`set up in ${((Date.now() - started) / 1000).toFixed(1)} s: ${scenario.groups.length} rooms, ${scenario.groups.flat().length} sessions`);
    try {
      // Warm-up, not reported: JIT, connection pools, MariaDB's buffer pool.
      await drive(scenario, { schedule: { ratePerSecond: Math.min(RATES[0], 200), durationSeconds: 3, rampSeconds: 0 }, drainSeconds: 5, sendReads: READS, readIntervalMs: READ_INTERVAL_MS });
      for (const rate of RATES) {
        const t0 = process.hrtime.bigint();
        const server0 = treeCpuMicros(serverPids);
        const db0 = dbPid ? processCpuMicros(dbPid) : 0;
        const driver0 = process.cpuUsage();
        const driverLoop = monitorEventLoopDelay({ resolution: 10 });
        driverLoop.enable();
        const metrics0 = await serverMetrics(server.url);
        const fsyncs0 = await mariadbStatus(status, 'Innodb_data_fsyncs');
        const lockWaits0 = await mariadbStatus(status, 'Innodb_row_lock_waits');
        const lockMs0 = await mariadbStatus(status, 'Innodb_row_lock_time');
        const r = await drive(scenario, { schedule: { ratePerSecond: rate, durationSeconds: STEP_SECONDS, rampSeconds: 0 }, drainSeconds: 5, sendReads: READS, readIntervalMs: READ_INTERVAL_MS });
        const wallUs = Number(process.hrtime.bigint() - t0) / 1000;
        steps.push({
          report: r,
          serverCpu: (treeCpuMicros(serverPids) - server0) / wallUs,
          mariadbCpu: dbPid ? (processCpuMicros(dbPid) - db0) / wallUs : null,
          driverCpu: ((d) => (d.user + d.system) / wallUs)(process.cpuUsage(driver0)),
          // The histogram holds the time between its samples, taken every 10 ms: the delay is beyond that.
          driverLoopP99Ms: (driverLoop.disable(), Math.max(0, driverLoop.percentile(99) / 1e6 - 10)),
          fsyncsPerMessage: ((await mariadbStatus(status, 'Innodb_data_fsyncs')) - fsyncs0) / Math.max(r.counts.sent, 1),
          lockWaits: { count: (await mariadbStatus(status, 'Innodb_row_lock_waits')) - lockWaits0, ms: (await mariadbStatus(status, 'Innodb_row_lock_time')) - lockMs0 },
          transactions: transactionsBetween(metrics0, await serverMetrics(server.url)),
          waitingForIndex: Number((await status('messages').where('indexed', 0).count<Array<{ n: number }>>({ n: '*' }))[0].n),
        });
        log(`${rate} msg/s: sent ${r.counts.sent}, lost ${r.counts.lost}, p99 ${r.latency.p99Ms.toFixed(1)} ms, ok ${r.ok}${r.loss ? ` ${lossText(r)}` : ''}`);
        if (!held(r)) break;
      }
    } finally {
      await scenario.close();
    }
  } finally {
    await status.destroy();
    await server.stop();
    await redis?.stop();
    await database.drop();
  }

  const best = steps.map((s) => s.report).filter(held).pop();
  // The goal's rate: zero loss and p99 within the goal (steps are noisy on a shared machine, so
  // the highest such step, not the last one before the first slow step).
  const withinGoal = steps
    .map((s) => s.report)
    .filter((r) => held(r) && r.latency.p99Ms <= GOAL_P99_MS)
    .pop();
  const stopped = steps[steps.length - 1]?.report;
  const hot = hottestFunctions(PROFILE_DIR, ROOT);
  const stopReason =
    stopped && !held(stopped) && stopped.latency.p99Ms <= P99_LIMIT_MS
      ? `stopped at ${stopped.offeredRate} msg/s: lost ${stopped.counts.lost} ${lossText(stopped)}, duplicated ${stopped.counts.duplicated}, out of order ${stopped.counts.outOfOrder}, connection errors during the step ${stopped.connectionErrorsDuringRun}${stopped.errorSamples.length ? ` (${stopped.errorSamples.join('; ')})` : ''}`
      : stopped && stopped.latency.p99Ms > P99_LIMIT_MS
        ? `stopped at ${stopped.offeredRate} msg/s: p99 ${stopped.latency.p99Ms.toFixed(1)} ms > ${P99_LIMIT_MS} ms`
        : `every step up to ${stopped?.offeredRate} msg/s held`;
  const result: PartResult = {
    title: `Chat end to end on MariaDB${WORKERS > 1 ? `, ${WORKERS} nodes (WORKERS=${WORKERS}, SO_REUSEPORT, Redis bus)` : ', 1 node'}: ${USERS} users in ${ROOMS} rooms of ${USERS / ROOMS}${READS ? ', every receiver sending /app/read' : ''}`,
    figures: [
      ...(best
        ? [
            { measure: `highest offered rate held with zero loss (p99 ≤ ${P99_LIMIT_MS} ms)`, value: `${best.offeredRate} msg/s` },
            { measure: 'its deliveries', value: `${Math.round(best.throughput.deliveriesPerSecond)} /s` },
            { measure: 'its latency p50 / p90 / p99 / max', value: `${best.latency.p50Ms.toFixed(1)} / ${best.latency.p90Ms.toFixed(1)} / ${best.latency.p99Ms.toFixed(1)} / ${best.latency.maxMs.toFixed(1)} ms` },
          ]
        : [{ measure: 'highest offered rate held with zero loss', value: `none (even ${RATES[0]} msg/s failed)` }]),
      withinGoal
        ? {
            measure: `highest zero-loss rate with p99 ≤ ${GOAL_P99_MS} ms`,
            value: `${withinGoal.offeredRate} msg/s (p99 ${withinGoal.latency.p99Ms.toFixed(1)} ms)`,
            goal: `≥ ${GOAL_RATE} msg/s with p99 ≤ ${GOAL_P99_MS} ms`,
            verdict: lowerGoal(withinGoal.offeredRate, GOAL_RATE, 'msg/s'),
          }
        : { measure: `highest zero-loss rate with p99 ≤ ${GOAL_P99_MS} ms`, value: 'none', goal: `≥ ${GOAL_RATE} msg/s with p99 ≤ ${GOAL_P99_MS} ms`, verdict: 'missed: no step qualified' },
    ],
    notes: [
      pinned
        ? WORKERS > 1
          ? `Cores: the supervisor and its ${WORKERS} workers pinned to core 0 with taskset (the same one core as the single node), the load driver to core 1; MariaDB and the private redis-server unpinned. Server CPU sums all of them but Redis.`
          : 'Cores: the server (one Node process) pinned to core 0 with taskset, the load driver to core 1; MariaDB unpinned (either core).'
        : 'Cores: taskset unavailable, server, driver and MariaDB shared both cores freely.',
      `After a 3 s warm-up (not reported), each step offers the rate for ${STEP_SECONDS} s (open loop, senders round robin over all sessions), then waits up to 5 s for stragglers; a message is delivered to all ${USERS / ROOMS} members of its room, the sender included. Latency is send → delivery on the same machine clock.`,
      READS
        ? (READ_INTERVAL_MS > 0
          ? 'Every session also subscribes to its room\'s events topic, and sends /app/read {chatRoomId, seq} (no receipt) for the messages of others it receives as the browser client does while looking at the room: the first at once, then at most one a second with the newest seq (--reads per-message sends one per message).'
          : 'Every session also subscribes to its room\'s events topic, and sends /app/read {chatRoomId, seq} (no receipt) for every message of another it receives (--reads per-message: the most a client could send; the browser client sends at most one a second).') + ' The server batches read positions into one UPDATE per round trip and coalesces read events to one a second per member; the last two columns are their traffic per second of the step (the drain included in the count). Before issue 11 (bench/results of 2026-11-21, no reads): 3000 msg/s at p99 23.6 ms.'
        : 'Without /app/read (--reads false): the chat alone.',
      `${joined} of ${USERS} sessions joined their room${joined < USERS ? ` (failures: ${setupErrors.join('; ')})` : ''}.`,
      stopReason,
      'CPU columns: share of one core used by the server process, by mariadbd and by this process (the load driver, on core 1 with whatever MariaDB runs there) during each step (including its drain). Fsyncs/msg: MariaDB InnoDB fsyncs (Innodb_data_fsyncs, server-wide) per message sent; innodb_flush_log_at_trx_commit=1 makes every commit durable before the message is broadcast (docs/architecture.md §6: committed first). Waiting for the index: messages stored but not yet in the search index (MessageIndexer writes it after the commit, in a transaction of its own; search finds them with LIKE meanwhile) when the drain of the step ended.',
      ...(hot.length ? [`Server profile (node --cpu-prof over the whole run), top self time: ${hot.map((h) => `${h.name} ${h.selfPercent.toFixed(1)}%`).join('; ')}`] : []),
    ],
    detail: [
      '| offered msg/s | achieved msg/s | delivered/expected | lost | dup | reordered | p50 ms | p90 ms | p99 ms | max ms | server CPU | MariaDB CPU | driver CPU | driver event loop delay p99 ms | fsyncs/msg | row lock waits / ms | message transactions /s | messages per transaction | transaction ms: mean / p99 within | event loop delay p99 ms | waiting for the index | /app/read sent /s | read events received /s |',
      '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
      ...steps.map(row),
    ].join('\n'),
  };
  emitResult(result);
}

main().then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`[chat-e2e] failed: ${(err as Error).stack ?? err}\n`);
    process.exit(1);
  },
);
