// The combined report of `harness call --pairs N` (harness-contract: `{ pairs: [{pair, scenario,
// ok, setupMs, quality?}], … }`): pass/fail per pair, set-up p50/p95, the process's memory, the
// call quality pooled over every pair that sampled it; its verdict (exit status), JUnit (a
// testcase per pair) and human-readable summary.
import type { JUnitSuite } from '../shared/junit';
import { EXIT, type StopSignal } from '../shared/outcome';
import type { CallRunReport } from './report';
import type { ScenarioName } from './scenarios';

/** Distribution of one measure; the shape of caller/quality.ts's Stat. */
export interface Stat {
  min: number;
  p50: number;
  p95: number;
  max: number;
  mean: number;
}

/**
 * What --pairs reads of a call's `quality` (caller/quality.ts, issue 28): per side, the series of
 * one-second getStats() samples. Only these measures are pooled; a report without `quality`
 * (or an older one) simply has no quality distribution.
 */
export interface QualityMeasures {
  rttMs: number | null;
  jitterMs: number | null;
  lossPct: number | null;
  bitrateKbps: number | null;
  mos: number | null;
}
export interface SideSeries {
  series: QualityMeasures[];
}
export interface PairQuality {
  caller: SideSeries;
  callee: SideSeries;
}

export const QUALITY_MEASURES = ['rttMs', 'jitterMs', 'lossPct', 'bitrateKbps', 'mos'] as const;
type Measure = (typeof QUALITY_MEASURES)[number];

export interface PairResult {
  /** 1-based, in start order. */
  pair: number;
  scenario: ScenarioName;
  ok: boolean;
  /** Initiate → both sides connected (the call set-up a user waits through); null when the scenario does not connect. */
  setupMs: number | null;
  /** Why it failed (null: passed), and whose the failure was. */
  reason: string | null;
  failure: CallRunReport['failure'];
  users: { caller: string; callee: string; third?: string };
  /** Seconds from the run's start to this pair's start, and how long it ran (null: still running when interrupted). */
  startedAtS: number;
  seconds: number | null;
  /** The pair's call quality, as its own report gives it, when it has one. */
  quality?: unknown;
}

export interface MemorySample {
  /** Seconds since the run started. */
  t: number;
  rssMB: number;
  heapUsedMB: number;
  externalMB: number;
}

export interface PairsMemory {
  /** The process's high-water mark (getrusage maxrss): every pair, the wrtc module and Node together. */
  peakRssMB: number;
  /** RSS when the first pair started: Node, the harness and the wrtc module, before any call. */
  baselineRssMB: number;
  /** (peak − baseline) / pairs: what one more pair costs. */
  perPairMB: number;
  /** One sample a second. */
  series: MemorySample[];
}

export interface PairsGenerator {
  /** The harness's CPU over the run, % of one core (all its pairs share one Node thread). */
  cpuPercent: number;
  /** How late its timers ran: tone frames, waits and set-up times are late by as much. */
  eventLoopLagMs: { p50: number; p99: number; max: number };
}

export type QualityDistribution = { samples: number; pairs: number } & Record<Measure, Stat | null>;

export interface PairsReport {
  command: 'call --pairs';
  ok: boolean;
  asked: { pairs: number; scenarios: ScenarioName[]; arrivalRate: number | null; relayOnly: boolean; holdSeconds: number };
  /** Pairs started (fewer than asked when interrupted), passed and failed. */
  started: number;
  passed: number;
  failed: number;
  byScenario: Record<string, { passed: number; failed: number }>;
  setupMs: { count: number; p50: number | null; p95: number | null; max: number | null };
  quality: QualityDistribution | null;
  memory: PairsMemory;
  generator: PairsGenerator | null;
  durationSeconds: number;
  pairs: PairResult[];
  /** Why the run could not start its pairs at all (server unreachable, users missing); null otherwise. */
  error: string | null;
  interrupted: boolean;
  signal?: StopSignal;
  failure: 'expectation' | 'infrastructure' | null;
  exitCode: number;
}

/** Nearest-rank percentile of sorted values. */
function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

const round = (n: number, digits = 1) => Number(n.toFixed(digits));

export function stat(values: readonly number[]): Stat | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mean = sorted.reduce((s, v) => s + v, 0) / sorted.length;
  return { min: round(sorted[0], 2), p50: round(percentile(sorted, 50), 2), p95: round(percentile(sorted, 95), 2), max: round(sorted.at(-1)!, 2), mean: round(mean, 2) };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/** The pair's quality when its report carries one in the contract's shape (both sides' series). */
export function qualityOf(report: object): PairQuality | null {
  const q: unknown = 'quality' in report ? report.quality : undefined;
  if (!isRecord(q)) return null;
  const side = (s: unknown): SideSeries | null => (isRecord(s) && Array.isArray(s.series) ? { series: s.series.filter(isRecord).map(measures) } : null);
  const caller = side(q.caller);
  const callee = side(q.callee);
  return caller && callee ? { caller, callee } : null;
}

function measures(sample: Record<string, unknown>): QualityMeasures {
  const n = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
  return { rttMs: n(sample.rttMs), jitterMs: n(sample.jitterMs), lossPct: n(sample.lossPct), bitrateKbps: n(sample.bitrateKbps), mos: n(sample.mos) };
}

/** Every one-second sample of both sides of every pair, pooled per measure. */
export function qualityDistribution(qualities: readonly PairQuality[]): QualityDistribution | null {
  if (qualities.length === 0) return null;
  const all = qualities.flatMap((q) => [...q.caller.series, ...q.callee.series]);
  const pick = (m: Measure) => stat(all.map((s) => s[m]).filter((v): v is number => v !== null));
  return {
    samples: all.length,
    pairs: qualities.length,
    rttMs: pick('rttMs'),
    jitterMs: pick('jitterMs'),
    lossPct: pick('lossPct'),
    bitrateKbps: pick('bitrateKbps'),
    mos: pick('mos'),
  };
}

export interface PairsRun {
  asked: PairsReport['asked'];
  pairs: PairResult[];
  qualities: PairQuality[];
  memory: PairsMemory;
  /** Null when no pair started. */
  generator: PairsGenerator | null;
  durationSeconds: number;
  error: { message: string; kind: 'infrastructure' | 'usage' } | null;
  signal: StopSignal | null;
}

/**
 * The verdict: 130/143 when interrupted; 2 when the pairs could not start (server unreachable,
 * users missing) or every failed pair failed for want of infrastructure (a login refused, no
 * TURN); 1 when any pair's call misbehaved; 0 when every pair asked passed.
 */
export function pairsReport(run: PairsRun): PairsReport {
  const passed = run.pairs.filter((p) => p.ok).length;
  const failedPairs = run.pairs.filter((p) => !p.ok);
  const byScenario: PairsReport['byScenario'] = {};
  for (const p of run.pairs) {
    const s = (byScenario[p.scenario] ??= { passed: 0, failed: 0 });
    if (p.ok) s.passed++;
    else s.failed++;
  }
  const setups = run.pairs.map((p) => p.setupMs).filter((v): v is number => v !== null).sort((a, b) => a - b);
  let failure: PairsReport['failure'] = null;
  if (!run.signal) {
    if (run.error || (failedPairs.length > 0 && failedPairs.every((p) => p.failure === 'infrastructure'))) failure = 'infrastructure';
    else if (failedPairs.length > 0 || passed < run.asked.pairs) failure = 'expectation';
  }
  const exitCode = run.signal
    ? run.signal === 'SIGTERM'
      ? EXIT.sigterm
      : EXIT.sigint
    : run.error?.kind === 'usage'
      ? EXIT.usage
      : failure === 'infrastructure'
        ? EXIT.infrastructure
        : failure === 'expectation'
          ? EXIT.failed
          : EXIT.passed;
  return {
    command: 'call --pairs',
    ok: exitCode === EXIT.passed,
    asked: run.asked,
    started: run.pairs.length,
    passed,
    failed: failedPairs.length,
    byScenario,
    setupMs: {
      count: setups.length,
      p50: setups.length ? percentile(setups, 50) : null,
      p95: setups.length ? percentile(setups, 95) : null,
      max: setups.length ? setups.at(-1)! : null,
    },
    quality: qualityDistribution(run.qualities),
    memory: run.memory,
    generator: run.generator,
    durationSeconds: round(run.durationSeconds, 2),
    pairs: run.pairs,
    error: run.error?.message ?? null,
    interrupted: run.signal !== null,
    ...(run.signal ? { signal: run.signal } : {}),
    failure,
    exitCode,
  };
}

/** A testcase per pair (an <error> when its failure was the infrastructure's), one for a run that could not start, one for an interruption. */
export function pairsJUnit(r: PairsReport, startedAt: Date): JUnitSuite {
  const cases: JUnitSuite['cases'] = r.pairs.map((p) => ({
    name: `pair ${p.pair}: ${p.scenario} (${p.users.caller} → ${p.users.callee})`,
    classname: `harness.call.pairs.${p.scenario}`,
    failure: p.ok ? null : (p.reason ?? 'failed'),
    ...(p.failure === 'infrastructure' ? { kind: 'error' as const } : {}),
    ...(p.seconds !== null ? { seconds: p.seconds } : {}),
  }));
  if (r.error) cases.push({ name: 'the pairs could start', classname: 'harness.call.pairs', failure: r.error, kind: 'error' });
  if (r.interrupted) cases.push({ name: 'every pair ran to its end', classname: 'harness.call.pairs', failure: `interrupted by ${r.signal ?? 'a signal'} with ${r.started} of ${r.asked.pairs} pairs started` });
  return {
    name: `harness call --pairs ${r.asked.pairs}`,
    timestamp: startedAt,
    seconds: r.durationSeconds,
    cases,
    properties: { pairs: r.asked.pairs, passed: r.passed, failed: r.failed, peakRssMB: r.memory.peakRssMB, exitCode: r.exitCode },
  };
}

const statLine = (name: string, s: Stat | null, unit: string) =>
  s ? `  ${name.padEnd(9)} p50 ${s.p50}${unit}, p95 ${s.p95}${unit}, min ${s.min}${unit}, max ${s.max}${unit}` : `  ${name.padEnd(9)} n/a`;

export function formatPairsReport(r: PairsReport): string {
  const verdict = r.interrupted ? `INTERRUPTED (${r.signal})` : r.ok ? 'PASS' : `FAIL (${r.failure === 'infrastructure' ? 'infrastructure' : 'expectation'})`;
  const lines = [`pairs: ${verdict}: ${r.passed}/${r.asked.pairs} passed${r.started < r.asked.pairs ? `, ${r.started} started` : ''} in ${r.durationSeconds} s`];
  if (r.error) lines.push(`  ${r.error}`);
  for (const [scenario, n] of Object.entries(r.byScenario)) lines.push(`  ${scenario.padEnd(22)} ${n.passed} passed, ${n.failed} failed`);
  const s = r.setupMs;
  lines.push(s.count ? `  set-up    p50 ${s.p50} ms, p95 ${s.p95} ms, max ${s.max} ms (initiate → both connected, ${s.count} calls)` : '  set-up    n/a (no call connected)');
  lines.push(`  memory    peak RSS ${r.memory.peakRssMB} MB (before the first pair ${r.memory.baselineRssMB} MB, ${r.memory.perPairMB} MB a pair)`);
  if (r.generator) lines.push(`  harness   CPU ${r.generator.cpuPercent} % of a core, event-loop lag p99 ${r.generator.eventLoopLagMs.p99} ms (max ${r.generator.eventLoopLagMs.max} ms)`);
  if (r.quality) {
    lines.push(`quality over ${r.quality.samples} one-second samples of ${r.quality.pairs} pairs:`);
    lines.push(statLine('MOS', r.quality.mos, ''), statLine('RTT', r.quality.rttMs, ' ms'), statLine('jitter', r.quality.jitterMs, ' ms'), statLine('loss', r.quality.lossPct, ' %'), statLine('bitrate', r.quality.bitrateKbps, ' kbps'));
  }
  for (const p of r.pairs.filter((x) => !x.ok)) lines.push(`  ✘ pair ${p.pair} (${p.scenario}): ${p.reason ?? 'failed'}`);
  return lines.join('\n');
}
