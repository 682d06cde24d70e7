// `harness load`: options, users, setup, the run, the report and its files, the exit status,
// SIGINT and SIGTERM (docs/operations.md, "Protocol harness").
import fs from 'node:fs';
import { Command, InvalidArgumentError, Option } from 'commander';
import { toJUnit } from '../shared/junit';
import { checkReachable, describeError, EXIT, EXIT_CODES_HELP, InfrastructureError, onInterrupt, UsageError, type StopSignal } from '../shared/outcome';
import type { Credentials } from './chat-rest';
import type { LoadOptions } from './options';
import { drive } from './driver';
import { createProgress } from './progress';
import { formatReport, junitSuite, withVerdict, type LoadReport } from './report';
import type { LatencyHistogram } from './latency';
import { MetricsServer } from './metrics';
import { JsonlWriter, type RunSample } from './samples';
import { loadFailureHtml, loadHtml } from './html';
import { LoadTimeline } from './timeline';
import { commandLine } from '../shared/html/command-line';
import { writeHtml } from '../shared/html/page';
import { prepareBroker, prepareChat, type Scenario } from './scenario';
import { averageRate, messagesOffered, parseStages, scheduleSeconds, type Schedule, type Stage } from './schedule';
import { runWorkers } from './workers';
import { evaluateThresholds, parseThreshold, THRESHOLD_METRICS, type Threshold } from './threshold';

export type { LoadOptions } from './options';

/** The browser's reconnect base (docs/spec.md §9, docs/operations.md "Reconnecting"). */
const BROWSER_RECONNECT_BASE_MS = 5000;

/** The seeded accounts' domain (admin CLI `seed`). */
const SEED_DOMAIN = 'example.test';

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 1) throw new InvalidArgumentError('a positive integer is required');
  return n;
}

function nonNegativeInt(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('a port number (0 to 65535) is required');
  return n;
}

function nonNegative(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) throw new InvalidArgumentError('a number of 0 or more is required');
  return n;
}

function positive(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError('a number above 0 is required');
  return n;
}

/** One user a line, `email,password` or `email password`; blank lines and # comments skipped. */
export function parseUsersFile(text: string): Credentials[] {
  const users: Credentials[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const lineText = raw.trim();
    if (!lineText || lineText.startsWith('#')) return;
    const m = /^([^\s,]+)[\s,]+(.+)$/.exec(lineText);
    if (!m) throw new Error(`users file line ${i + 1}: expected "email,password"`);
    users.push({ email: m[1], password: m[2] });
  });
  return users;
}

export function chatUsers(o: LoadOptions): Credentials[] {
  if (o.usersFile) {
    let text: string;
    try {
      text = fs.readFileSync(o.usersFile, 'utf8');
    } catch (err) {
      throw new UsageError(`--users-file: ${(err as Error).message}`);
    }
    const users = parseUsersFile(text);
    if (users.length < o.clients) throw new InfrastructureError(`only ${users.length} users in ${o.usersFile}; ${o.clients} asked`);
    return users.slice(0, o.clients);
  }
  if (!o.usersPrefix || o.password === undefined) throw new UsageError('chat mode needs --users-prefix and --password, or --users-file');
  return Array.from({ length: o.clients }, (_x, i) => ({ email: `${o.usersPrefix}${i + 1}@${SEED_DOMAIN}`.toLowerCase(), password: o.password! }));
}

/** The schedule the options ask for: --rate with --duration, or --stages alone. */
export function scheduleOf(o: LoadOptions): Schedule {
  if (o.stages) {
    if (o.rate !== undefined || o.duration !== undefined) throw new UsageError('--stages replaces --rate and --duration: give one or the other');
    return { ratePerSecond: 0, durationSeconds: 0, rampSeconds: 0, stages: o.stages };
  }
  if (o.rate === undefined || o.duration === undefined) throw new UsageError('give --rate and --duration, or --stages');
  return { ratePerSecond: o.rate, durationSeconds: o.duration, rampSeconds: o.ramp };
}

/** The schedule for --html's stage table, or none when the options are inconsistent (runLoad says so). */
function safeSchedule(o: LoadOptions): Schedule {
  try {
    return scheduleOf(o);
  } catch {
    return { ratePerSecond: 0, durationSeconds: 0, rampSeconds: 0 };
  }
}

/** Thrown when a signal stops the run before any message was sent. */
class InterruptedDuringSetup extends Error {}

function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new InterruptedDuringSetup());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new InterruptedDuringSetup());
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** `timeline` (--html) keeps every per-second sample and each stage's latency. */
export async function runLoad(o: LoadOptions, interrupt: AbortSignal, timeline?: LoadTimeline): Promise<LoadReport> {
  const schedule = scheduleOf(o);
  const out = o.out ? openOut(o.out) : null;
  const metrics = o.metricsPort !== undefined ? new MetricsServer() : null;
  try {
    if (metrics) {
      const port = await metrics.listen(o.metricsPort!, o.metricsHost).catch((err: unknown) => {
        throw new UsageError(`--metrics-port ${o.metricsPort}: ${describeError(err)}`);
      });
      process.stderr.write(`metrics on http://${o.metricsHost.includes(':') ? `[${o.metricsHost}]` : o.metricsHost}:${port}/metrics\n`);
    }
    const onSample = out || metrics || timeline ? (s: RunSample, interval: LatencyHistogram) => (out?.write(s), metrics?.sample(s), timeline?.add(s, interval)) : undefined;
    if (o.workers > 1) {
      const users = o.broker ? [] : chatUsers(o);
      for (const url of new Set([o.url].flat())) await checkReachable(url);
      const merged = await runWorkers(o, schedule, users, o.workers, interrupt, onSample, metrics ? (k, counts) => metrics.workerLatency(k, counts) : undefined);
      return { ...merged, thresholds: evaluateThresholds(o.threshold, merged) };
    }
    return await runScenarioLoad(o, schedule, interrupt, onSample, metrics ? (us) => metrics.latencyUs(us) : undefined);
  } finally {
    out?.close();
    await metrics?.close();
  }
}

function openOut(file: string): JsonlWriter {
  try {
    return new JsonlWriter(file);
  } catch (err) {
    throw new UsageError(`--out: ${(err as Error).message}`);
  }
}

/** One worker's share of a --workers run (load/workers.ts): its users, rooms and topics. */
export interface WorkPart {
  /** Chat: the users this worker logs in (its rooms' members). */
  users?: Credentials[];
  /** Broker: its topics are numbered from here, so no two workers share one. */
  topicOffset?: number;
  /** Called once every session is set up, before the first send: all workers start together. */
  beforeDrive?: () => Promise<void>;
}

export async function runScenarioLoad(
  o: LoadOptions,
  schedule: Schedule,
  interrupt: AbortSignal,
  onSample: ((s: RunSample, interval: LatencyHistogram) => void) | undefined,
  onLatency: ((us: number) => void) | undefined,
  part: WorkPart = {},
): Promise<LoadReport> {
  const progress = createProgress(o.progress);
  const urls = [o.url].flat();
  let scenario: Scenario | null = null;
  const users = o.broker ? [] : (part.users ?? chatUsers(o));
  for (const url of new Set(urls)) await checkReachable(url);
  const setup = o.broker
    ? prepareBroker({
        url: urls[0],
        urls,
        clients: o.clients,
        topics: o.rooms,
        topicOffset: part.topicOffset,
        login: o.login,
        passcode: o.passcode,
        vhost: o.vhost,
        messageBytes: o.messageBytes,
        connectConcurrency: o.concurrency,
        progress: progress.setup,
      })
    : prepareChat({
        url: urls[0],
        urls,
        users,
        usersPrefix: o.usersFile ? undefined : o.usersPrefix,
        rooms: o.rooms,
        messageBytes: o.messageBytes,
        loginConcurrency: Math.min(o.concurrency, 16),
        connectConcurrency: o.concurrency,
        ...(o.reconnect ? { reconnectBaseMs: BROWSER_RECONNECT_BASE_MS } : {}),
        progress: progress.setup,
      });
  // A session set up after a signal still has to be closed.
  setup.then((s) => (scenario ??= s)).catch(() => {});
  try {
    scenario = await untilAborted(setup, interrupt);
    const sessions = scenario.groups.flat().length;
    if (sessions === 0) {
      const swarm = scenario.swarm;
      throw new InfrastructureError(`no STOMP session could connect and subscribe (${swarm.connectionErrors} connection errors: ${swarm.errorSamples.join('; ') || 'none reported'})`);
    }
    if (part.beforeDrive) await untilAborted(part.beforeDrive(), interrupt);
    const report = await drive(scenario, {
      schedule,
      drainSeconds: o.drain,
      graceSeconds: o.grace,
      interrupt,
      onProgress: progress.update,
      onSample,
      onLatency,
    });
    return { ...report, thresholds: evaluateThresholds(o.threshold, report) };
  } finally {
    progress.stop();
    await scenario?.close();
  }
}

/** What was run when a signal came before the first message: nothing, said in the report's shape. */
function setupInterruptedReport(o: LoadOptions, signal: StopSignal): LoadReport {
  const schedule = scheduleOf(o);
  const none = { count: 0, p50Ms: 0, p90Ms: 0, p95Ms: 0, p99Ms: 0, maxMs: 0 };
  const asked = averageRate(schedule);
  return {
    mode: o.broker ? 'broker' : 'chat',
    clients: o.clients,
    subscribed: 0,
    groups: 0,
    offeredRate: schedule.stages ? asked : schedule.ratePerSecond,
    durationSeconds: scheduleSeconds(schedule),
    rampSeconds: schedule.rampSeconds,
    ...(schedule.stages ? { stages: schedule.stages } : {}),
    interrupted: true,
    signal,
    counts: { sent: 0, acknowledged: 0, rejected: 0, expectedDeliveries: 0, delivered: 0, late: 0, lost: 0, duplicated: 0, outOfOrder: 0, unexpected: 0 },
    ignoredDeliveries: 0,
    latency: none,
    lateLatency: none,
    throughput: { sendsPerSecond: 0, deliveriesPerSecond: 0 },
    generator: {
      offered: messagesOffered(schedule),
      askedRate: asked,
      achievedRate: 0,
      sendingSeconds: 0,
      sendsPerSecond: [],
      maxBacklog: 0,
      fellBehind: false,
      cpuPercent: 0,
      eventLoopLagMs: { p50: 0, p99: 0, max: 0 },
    },
    connectionErrors: 0,
    connectionErrorsDuringRun: 0,
    errorSamples: ['interrupted while setting up: no message was sent'],
    reconnects: { beforeConnected: 0, samples: [] },
    ok: false,
  };
}

function writeFile(file: string, text: string): void {
  try {
    fs.writeFileSync(file, text);
  } catch (err) {
    process.stderr.write(`load: cannot write ${file}: ${(err as Error).message}\n`);
  }
}

/** --report and --junit for a run that could not start: the error is the one failed testcase. */
function writeFailureFiles(o: LoadOptions, message: string, code: number, startedAt: Date): void {
  if (o.html) writeHtml(o.html, loadFailureHtml(o.broker ? 'broker' : 'chat', message, code, commandLine()), 'load');
  if (o.report) writeFile(o.report, JSON.stringify({ ok: false, error: message, exitCode: code }, null, 2) + '\n');
  if (o.junit) {
    const seconds = (Date.now() - startedAt.getTime()) / 1000;
    writeFile(o.junit, toJUnit({ name: `harness load (${o.broker ? 'broker' : 'chat'})`, timestamp: startedAt, seconds, cases: [{ name: 'set-up', classname: 'harness.load', failure: message, kind: code === EXIT.usage ? 'failure' : 'error' }] }));
  }
}

function threshold(value: string, previous: Threshold[]): Threshold[] {
  try {
    return [...previous, parseThreshold(value)];
  } catch (err) {
    throw new InvalidArgumentError((err as Error).message);
  }
}

function stages(value: string): Stage[] {
  try {
    return parseStages(value);
  } catch (err) {
    throw new InvalidArgumentError((err as Error).message);
  }
}

const LOAD_HELP = `
Schedules:
  --rate R --duration S [--ramp S]     R msg/s for S seconds (rising linearly from 0 over --ramp)
  --stages 30s:500,60s:2000,30s:0      arrival-rate stages: each rises or falls linearly from the
                                       previous rate (0 before the first) to its own over its time

Accounting: a delivery after --drain is late (counted, with its latency, never lost); one still
missing at the end of --grace is lost. The generator is behind when it cannot send what the
schedule offers by the end of the planned time plus 5 % (at least 1 s): it stops there, says
"generator fell behind: A of B msg/s" and exits 3.

Threshold metrics (--threshold, repeatable; operators < <= > >= == !=):
  p50 p90 p95 p99 max     latency, ms (or s): 'p99<50ms'
  lost late duplicated outOfOrder misdelivered rejected connectionErrors   counts: 'lost==0'
  rate                    delivered / expected deliveries, 0…1 or %: 'rate>=0.99'
  sendRate deliveryRate   achieved msg/s, deliveries/s: 'sendRate>=1900'
${EXIT_CODES_HELP}

Example (CI):
  npm run --silent harness -- load --url http://127.0.0.1:8080 --users-prefix load --password P \\
    --clients 100 --rooms 10 --rate 500 --duration 30 --threshold 'p99<50ms' --threshold 'lost==0' \\
    --report load.json --junit load.xml --no-progress`;

export function loadCommand(): Command {
  return new Command('load')
    .description(
      'Drive STOMP load and account for every message: sent, acknowledged (receipts), expected and actual deliveries, ' +
        'late, lost, duplicated, out of order, send→deliver latency (HDR histogram), throughput, connection errors, and ' +
        "the generator's own achieved rate, CPU and event-loop lag. Chat mode logs users in over REST, puts them into " +
        'rooms and sends on /app/private-message; --broker mode drives pure publish/subscribe on /topic/bench.{n}.',
    )
    .requiredOption(
      '--url <url...>',
      'server base URL (http://host:port; the WebSocket is {url}/websocket) or, with --broker, a ws:// URL; ' +
        'several URLs (nodes of one cluster): the clients are spread over them in turn',
    )
    .option('--users-prefix <prefix>', 'seeded users {prefix}1@example.test … {prefix}N@example.test (admin CLI `seed`)')
    .option('--password <password>', 'password of the seeded users')
    .option('--users-file <file>', 'users to log in, one "email,password" a line (instead of --users-prefix)')
    .requiredOption('--clients <n>', 'STOMP sessions, one per user', positiveInt)
    .option('--rooms <n>', 'rooms (chat) or topics (broker); clients are split into equal contiguous blocks', positiveInt, 1)
    .option('--rate <msgs_per_s>', 'offered rate, messages per second over all clients (open loop); with --duration', positive)
    .option('--duration <s>', 'seconds of sending; with --rate', positive)
    .option('--stages <list>', 'arrival-rate stages instead of --rate/--duration, e.g. 30s:500,60s:2000,30s:0', stages)
    .option('--ramp <s>', 'seconds to rise linearly from 0 to the full rate (within --duration)', nonNegative, 0)
    .option('--drain <s>', 'seconds to wait after the last send for receipts and deliveries', nonNegative, 10)
    .option('--grace <s>', 'seconds after the drain during which a missing delivery is late, not yet lost', nonNegative, 10)
    .option('--threshold <expr>', `pass/fail criterion, repeatable: ${THRESHOLD_METRICS.join(', ')} (see below)`, threshold, [] as Threshold[])
    .option('--workers <n>', 'sender/receiver processes on this machine, each owning whole rooms (needs --rooms ≥ N); reports merged exactly', positiveInt, 1)
    .option('--message-bytes <n>', 'approximate size of each message body', positiveInt, 64)
    .option('--concurrency <n>', 'logins and WebSocket handshakes in flight at once', positiveInt, 50)
    .option('--json', 'print the report as one JSON object on stdout', false)
    .option('--report <file>', 'also write the JSON report to this file (written on failure and interruption too)')
    .option('--junit <file>', 'write JUnit XML: a testcase per check and threshold, a <failure> for each failed one')
    .option('--html <file>', 'write one self-contained HTML page (opens offline): verdict, totals, checks, latency and throughput over time, per-stage tables (written on failure and interruption too)')
    .option('--out <file>', 'write one JSON sample a second (JSON Lines): counts so far, that second\'s latency percentiles, generator CPU')
    .option('--metrics-port <port>', 'serve Prometheus text on http://HOST:PORT/metrics while running (0: a free port, said on stderr)', nonNegativeInt)
    .option('--metrics-host <host>', 'address for --metrics-port', '127.0.0.1')
    .option('--no-progress', 'no live progress on stderr')
    .option('--broker', 'pure publish/subscribe on /topic/bench.{n}: no REST, no rooms', false)
    .option('--reconnect', 'chat: a dropped session reopens as the browser does (jittered backoff from 5 s), subscribes again and catches up from history by seq; so does a session told to resync', false)
    .addOption(new Option('--login <login>', 'STOMP CONNECT login (--broker; RabbitMQ: guest)'))
    .addOption(new Option('--passcode <passcode>', 'STOMP CONNECT passcode (--broker; RabbitMQ: guest)'))
    .addOption(new Option('--vhost <host>', 'STOMP CONNECT host header (--broker; RabbitMQ: /)'))
    .addHelpText('after', LOAD_HELP)
    .action(async (o: LoadOptions) => {
      const startedAt = new Date();
      const interruption = onInterrupt((sig) =>
        process.stderr.write(`\ninterrupted (${sig}): stopping, then reporting${sig === 'SIGINT' ? ' (Ctrl-C again to quit now)' : ''}\n`),
      );
      try {
        let report: LoadReport;
        // scheduleOf only throws for a usage error, which runLoad reports below.
        const timeline = o.html ? new LoadTimeline(safeSchedule(o)) : undefined;
        try {
          report = await runLoad(o, interruption.signal, timeline);
        } catch (err) {
          // A signal during set-up (here, or in a --workers process that then fails for it).
          if (!(err instanceof InterruptedDuringSetup) && !interruption.received) throw err;
          report = setupInterruptedReport(o, interruption.received ?? 'SIGINT');
        }
        if (report.interrupted && interruption.received) report = { ...report, signal: interruption.received };
        report = withVerdict(report);
        const seconds = (Date.now() - startedAt.getTime()) / 1000;
        // The files first: a CI job that kills us right after stdout still has them.
        if (o.report) writeFile(o.report, JSON.stringify(report, null, 2) + '\n');
        if (o.junit) writeFile(o.junit, toJUnit(junitSuite(report, startedAt, seconds)));
        if (o.html) writeHtml(o.html, loadHtml(report, timeline ?? null, commandLine()), 'load');
        await new Promise((resolve) => process.stdout.write((o.json ? JSON.stringify(report) : formatReport(report)) + '\n', resolve));
        process.exitCode = report.exitCode ?? EXIT.failed;
      } catch (err) {
        const code = err instanceof UsageError ? EXIT.usage : EXIT.infrastructure;
        const message = describeError(err);
        writeFailureFiles(o, message, code, startedAt);
        process.stderr.write(`load: ${message}\n`);
        process.exitCode = code;
      } finally {
        interruption.dispose();
      }
    });
}
