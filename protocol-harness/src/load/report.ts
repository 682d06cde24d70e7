// The final report of a load run: its shape (also the --json and --report output), its checks
// and the verdict (exit status, JUnit), and the table printed on a terminal.
import { EXIT } from '../shared/outcome';
import type { JUnitSuite } from '../shared/junit';
import type { DeliveryCounts, LossDetail } from './accounting';
import type { LatencySummary } from './latency';
import type { Stage } from './schedule';
import { describeResult, type ThresholdResult } from './threshold';

/** What the generator managed and what it cost: the figures that say whether the load was real. */
export interface GeneratorFigures {
  /** Messages the schedule offered over the run. */
  offered: number;
  /** Messages per second asked, on average over the schedule. */
  askedRate: number;
  /** Messages per second sent, on average over the planned time (or the time taken, if longer). */
  achievedRate: number;
  /** From the first tick to the last send (or the deadline). */
  sendingSeconds: number;
  /** Messages sent in each second of the run. */
  sendsPerSecond: number[];
  /** The most messages due but not yet sent at any moment. */
  maxBacklog: number;
  /** It could not send what was offered by the end of --duration plus 5 %: exit 3. */
  fellBehind: boolean;
  /** The harness process's CPU while sending, in % of one core. */
  cpuPercent: number;
  /** How late the harness's timers fired while sending (event-loop delay). */
  eventLoopLagMs: { p50: number; p99: number; max: number };
}

/** One pass/fail line of the verdict: a JUnit testcase. */
export interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

export interface LoadReport {
  mode: 'chat' | 'broker';
  clients: number;
  /** Clients whose session opened and whose subscription was confirmed (they send and receive). */
  subscribed: number;
  /** Rooms (chat) or topics (broker) actually used. */
  groups: number;
  /** The asked rate (with --stages, the average over them). */
  offeredRate: number;
  /** The planned sending time (--duration, or the stages' sum); the time taken is generator.sendingSeconds. */
  durationSeconds: number;
  rampSeconds: number;
  stages?: Stage[];
  /** Stopped by SIGINT or SIGTERM: what ran is reported, the exit status is 130 or 143. */
  interrupted: boolean;
  /** The signal that stopped the run, when one did. */
  signal?: 'SIGINT' | 'SIGTERM';
  counts: DeliveryCounts;
  /** Deliveries not sent by this run (system messages, other users): not accounted. */
  ignoredDeliveries: number;
  /** Every first delivery, late ones included. */
  latency: LatencySummary;
  /** The late deliveries alone (after --drain, within --grace). */
  lateLatency: LatencySummary;
  throughput: { sendsPerSecond: number; deliveriesPerSecond: number };
  generator: GeneratorFigures;
  /** Since the sessions were opened (logins and handshakes included). */
  connectionErrors: number;
  /** Of those, the ones during this run's sending and draining. */
  connectionErrorsDuringRun: number;
  errorSamples: string[];
  /**
   * Sockets that closed under the handshake, before CONNECTED, and were opened again as the
   * browser client does (the session then connected, or counts in connectionErrors). Nothing is
   * sent before CONNECTED, so a reconnect loses nothing; it is reported, never hidden.
   */
  reconnects: { beforeConnected: number; samples: string[] };
  /**
   * Present when something was lost (never delivered by the end of the grace): who misses what
   * (each worst receiver with whether its session is still open); `late` repeats counts.late.
   */
  loss?: Omit<LossDetail, 'worst'> & { worst: Array<{ client: number; missing: number; open: boolean }>; late: number };
  /** /app/read frames sent by the receivers, and read events delivered on the room-events topics. */
  reads?: { sent: number; eventsReceived: number };
  /** --threshold results, in the order given. */
  thresholds?: ThresholdResult[];
  /** Every built-in check and threshold (see checksOf); set by withVerdict. */
  checks?: Check[];
  /**
   * Every check and threshold held, the generator kept up, and the run was not interrupted.
   */
  ok: boolean;
  /** The exit status the command ends with (see exitCode); set by withVerdict. */
  exitCode?: number;
}

const int = (n: number) => Math.round(n).toLocaleString('en-US');

/** "generator fell behind: 12,087 of 20,000 msg/s", or null when it kept up. */
export function behindMessage(r: LoadReport): string | null {
  const g = r.generator;
  if (!g.fellBehind) return null;
  return `generator fell behind: ${int(g.achievedRate)} of ${int(g.askedRate)} msg/s (sent ${int(r.counts.sent)} of ${int(g.offered)} in ${g.sendingSeconds.toFixed(1)} s, planned ${r.durationSeconds} s; harness CPU ${Math.round(g.cpuPercent)} %, event-loop lag p99 ${g.eventLoopLagMs.p99.toFixed(1)} ms)`;
}

/** The built-in checks a clean run passes, then the thresholds. */
export function checksOf(r: LoadReport): Check[] {
  const c = r.counts;
  const count = (name: string, n: number, what: string): Check => ({ name, ok: n === 0, detail: n === 0 ? `no ${what}` : `${int(n)} ${what}` });
  const checks: Check[] = [
    { name: 'the generator offered the asked load', ok: !r.generator.fellBehind, detail: behindMessage(r) ?? `${int(r.generator.achievedRate)} of ${int(r.generator.askedRate)} msg/s` },
    { name: 'messages were sent', ok: c.sent > 0, detail: `${int(c.sent)} sent by ${r.subscribed}/${r.clients} clients` },
    count('nothing lost', c.lost, `deliveries lost of ${int(c.expectedDeliveries)} expected${c.late ? ` (${int(c.late)} more arrived late)` : ''}`),
    count('nothing duplicated', c.duplicated, 'duplicate deliveries'),
    count('per-sender order kept', c.outOfOrder, 'deliveries out of order'),
    count('nothing misdelivered', c.unexpected, 'misdelivered'),
    count('no SEND refused', c.rejected, 'SENDs refused'),
    {
      name: 'no connection failed',
      ok: r.connectionErrors === 0,
      detail: r.connectionErrors === 0 ? 'no connection errors' : `${int(r.connectionErrors)} connection errors: ${r.errorSamples.join('; ')}`,
    },
  ];
  for (const t of r.thresholds ?? []) checks.push({ name: `threshold ${t.expression}`, ok: t.ok, detail: describeResult(t) });
  return checks;
}

/**
 * Exit status of `harness load`: 130/143 interrupted, 2 when no session could even connect
 * (infrastructure), 3 when the generator fell behind, 1 when a check or threshold failed, else 0.
 */
export function exitCode(report: LoadReport): number {
  if (report.interrupted) return report.signal === 'SIGTERM' ? EXIT.sigterm : EXIT.sigint;
  if (report.subscribed === 0 && report.connectionErrors > 0) return EXIT.infrastructure;
  if (report.generator.fellBehind) return EXIT.generatorBehind;
  return (report.checks ?? checksOf(report)).every((c) => c.ok) ? EXIT.passed : EXIT.failed;
}

/** The report with its checks, verdict and exit status filled in. */
export function withVerdict(report: LoadReport): LoadReport {
  const checks = checksOf(report);
  const r = { ...report, checks };
  return { ...r, ok: checks.every((c) => c.ok) && !report.interrupted, exitCode: exitCode(r) };
}

/** A testcase per check and threshold, as JUnit XML wants them. */
export function junitSuite(r: LoadReport, startedAt: Date, seconds: number): JUnitSuite {
  const cases = (r.checks ?? checksOf(r)).map((c) => ({
    name: c.name,
    classname: c.name.startsWith('threshold ') ? `harness.load.${r.mode}.thresholds` : `harness.load.${r.mode}`,
    failure: c.ok ? null : c.detail,
  }));
  if (r.interrupted) cases.push({ name: 'the run completed', classname: `harness.load.${r.mode}`, failure: `interrupted by ${r.signal ?? 'a signal'}` });
  return {
    name: `harness load (${r.mode})`,
    timestamp: startedAt,
    seconds,
    cases,
    properties: { clients: r.clients, groups: r.groups, offeredRate: r.offeredRate, durationSeconds: r.durationSeconds, exitCode: r.exitCode ?? exitCode(r) },
  };
}

const ms = (n: number) => `${n.toFixed(2)} ms`;

export function formatReport(r: LoadReport): string {
  const c = r.counts;
  const rows: [string, string][] = [
    ['mode', `${r.mode}: ${r.subscribed}/${r.clients} clients in ${r.groups} ${r.mode === 'chat' ? 'rooms' : 'topics'}`],
    [
      'offered',
      `${int(r.offeredRate)} msg/s for ${r.durationSeconds} s${r.stages ? ` (stages ${r.stages.map((st) => `${st.seconds}s:${st.target}`).join(',')})` : ''}${r.rampSeconds > 0 ? ` (ramp ${r.rampSeconds} s)` : ''}${r.interrupted ? `, interrupted${r.signal ? ` by ${r.signal}` : ''}` : ''}`,
    ],
    ['sent', int(c.sent)],
    ['acknowledged', `${int(c.acknowledged)}${c.rejected ? ` (refused ${int(c.rejected)})` : ''}`],
    ['expected deliveries', int(c.expectedDeliveries)],
    ['delivered', int(c.delivered)],
    ['late', `${int(c.late)}${c.late ? ` (after the drain; p99 ${ms(r.lateLatency.p99Ms)}, max ${ms(r.lateLatency.maxMs)})` : ''}`],
    ['lost', int(c.lost)],
    ['duplicated', int(c.duplicated)],
    ['out of order', int(c.outOfOrder)],
    ['misdelivered', int(c.unexpected)],
    ['latency p50', ms(r.latency.p50Ms)],
    ['latency p90', ms(r.latency.p90Ms)],
    ['latency p99', ms(r.latency.p99Ms)],
    ['latency max', ms(r.latency.maxMs)],
    ['achieved send rate', `${int(r.generator.achievedRate)} of ${int(r.generator.askedRate)} msg/s asked, in ${r.generator.sendingSeconds.toFixed(1)} s`],
    ['generator', `CPU ${Math.round(r.generator.cpuPercent)} % of a core, event-loop lag p99 ${ms(r.generator.eventLoopLagMs.p99)}`],
    ['delivery rate', `${int(r.throughput.deliveriesPerSecond)} deliveries/s`],
    ['connection errors', int(r.connectionErrors)],
    ['reconnects before CONNECTED', int(r.reconnects.beforeConnected)],
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  const lines = rows.map(([k, v]) => `  ${k.padEnd(width)}  ${v}`);
  for (const e of r.errorSamples) lines.push(`  ! ${e}`);
  for (const e of r.reconnects.samples) lines.push(`  ~ reconnected: ${e}`);
  if (r.loss) {
    const l = r.loss;
    lines.push(`  ! loss: ${l.receiversMissing} receivers miss deliveries; ${l.messagesNobodyGot} messages reached nobody; ${l.unacknowledgedMissing} unacknowledged`);
    lines.push(`  ! most missing: ${l.worst.map((w) => `client ${w.client} ${w.missing}${w.open ? '' : ' (closed)'}`).join(', ')}`);
  }
  const behind = behindMessage(r);
  if (behind) lines.push(`  ! ${behind}`);
  for (const t of r.thresholds ?? []) lines.push(`  ${t.ok ? '✔' : '✘'} ${describeResult(t)}`);
  lines.push(r.interrupted ? `  result: INTERRUPTED (${r.signal ?? 'signal'})` : behind ? '  result: GENERATOR BEHIND' : r.ok ? '  result: OK' : '  result: FAILED');
  return lines.join('\n');
}
