// `harness call --pairs N`: N call pairs in this one process, started --arrival-rate pairs a
// second, scenarios round-robin, each pair its own users (so one STOMP connection a user) and its
// own runScenario; the wrtc module, its threads and the tone frames are shared by all of them.
// The process's memory is sampled once a second; a SIGINT/SIGTERM stops the starting at once and
// the report says what ran (pairs still running are failed as interrupted).
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { describeError } from '../shared/outcome';
import { qualityOf, type MemorySample, type PairQuality, type PairResult, type PairsGenerator, type PairsMemory } from './pairs-report';
import { scenarioOf, type PairUsers } from './pair-users';
import { withCallVerdict } from './report';
import { runScenario, type ScenarioName, type ScenarioOptions, type ScenarioReport } from './scenarios';

export interface PairsOptions {
  scenarios: readonly ScenarioName[];
  /** One entry a pair: its users. */
  users: readonly PairUsers[];
  /** Pairs started a second; null: all at once. */
  arrivalRate: number | null;
  /** Everything of a scenario but its users. */
  scenario: Omit<ScenarioOptions, 'caller' | 'callee' | 'third'>;
  /** Aborted by SIGINT/SIGTERM: no new pair starts, and the run returns at once. */
  interrupt: AbortSignal;
  /** Told as each pair starts and ends, for progress on stderr. */
  onPairStart?(result: PairResult): void;
  onPairEnd?(result: PairResult): void;
}

export interface PairsOutcome {
  pairs: PairResult[];
  qualities: PairQuality[];
  memory: PairsMemory;
  generator: PairsGenerator;
  durationSeconds: number;
}

const MB = 1024 * 1024;
const mb = (bytes: number) => Math.round(bytes / MB);

/** RSS, heap and external memory once a second, and the kernel's high-water mark at the end. */
class MemoryWatch {
  readonly series: MemorySample[] = [];
  private readonly timer: NodeJS.Timeout;
  private peakSampled = 0;

  constructor(private readonly started: number) {
    this.sample();
    this.timer = setInterval(() => this.sample(), 1000);
    // The watch never keeps the process alive on its own.
    this.timer.unref();
  }

  sample(): MemorySample {
    const m = process.memoryUsage();
    this.peakSampled = Math.max(this.peakSampled, m.rss);
    const s = { t: Number(((performance.now() - this.started) / 1000).toFixed(1)), rssMB: mb(m.rss), heapUsedMB: mb(m.heapUsed), externalMB: mb(m.external) };
    this.series.push(s);
    return s;
  }

  stop(baselineRssMB: number, pairs: number): PairsMemory {
    clearInterval(this.timer);
    this.sample();
    // maxRSS (KiB) also catches a peak between two samples.
    const peak = Math.max(this.peakSampled, process.resourceUsage().maxRSS * 1024);
    const peakRssMB = mb(peak);
    return { peakRssMB, baselineRssMB, perPairMB: pairs > 0 ? Number(((peakRssMB - baselineRssMB) / pairs).toFixed(1)) : 0, series: this.series };
  }
}

/** Resolves after ms, or at once when the signal aborts; true if the wait ran its course. */
function pause(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  if (ms <= 0) return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (ran: boolean) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      resolve(ran);
    };
    const onAbort = () => done(false);
    const timer = setTimeout(() => done(true), ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

function failedReport(scenario: ScenarioName, relayOnly: boolean, reason: string): ScenarioReport {
  return { scenario, ok: false, reason, checks: [], timings: {}, relayOnly, lastReason: { caller: null, callee: null }, reconnects: [] };
}

/** The harness's own CPU and event-loop lag over the run: high values mean its set-up times include its own queueing. */
function watchGenerator(): () => PairsGenerator {
  const cpu = process.cpuUsage();
  const wall = performance.now();
  const lag = monitorEventLoopDelay({ resolution: 20 });
  lag.enable();
  return () => {
    lag.disable();
    const used = process.cpuUsage(cpu);
    const ms = (ns: number) => (Number.isFinite(ns) ? Math.round(ns / 1e6) : 0);
    return {
      cpuPercent: Math.round(((used.user + used.system) / 1000 / Math.max(1, performance.now() - wall)) * 100),
      eventLoopLagMs: { p50: ms(lag.percentile(50)), p99: ms(lag.percentile(99)), max: ms(lag.max) },
    };
  };
}

export async function runPairs(o: PairsOptions): Promise<PairsOutcome> {
  const started = performance.now();
  const generator = watchGenerator();
  const elapsed = () => (performance.now() - started) / 1000;
  const memory = new MemoryWatch(started);
  const baselineRssMB = memory.series[0].rssMB;
  const pairs: PairResult[] = [];
  const qualities: PairQuality[] = [];
  const running: Promise<void>[] = [];
  const relayOnly = o.scenario.relayOnly ?? false;

  const runPair = async (result: PairResult, users: PairUsers) => {
    const report = await runScenario(result.scenario, { ...o.scenario, ...users }).catch((err: unknown) => failedReport(result.scenario, relayOnly, `could not run: ${describeError(err)}`));
    // A pair that ended after the interruption was already reported as interrupted.
    if (o.interrupt.aborted) return;
    const verdict = withCallVerdict(report, null);
    const quality = qualityOf(report);
    if (quality) qualities.push(quality);
    Object.assign(result, {
      ok: verdict.ok,
      setupMs: report.timings.initiateToConnectedMs ?? null,
      reason: verdict.reason,
      failure: verdict.failure,
      seconds: Number((elapsed() - result.startedAtS).toFixed(2)),
      ...('quality' in report ? { quality: report.quality } : {}),
    });
    o.onPairEnd?.(result);
  };

  for (let i = 0; i < o.users.length; i++) {
    // Pair i starts i / rate seconds after the first, measured from the run's start so that a
    // slow start of one pair does not push the others back.
    const due = o.arrivalRate === null ? 0 : (i / o.arrivalRate) * 1000 - (performance.now() - started);
    if (!(await pause(due, o.interrupt))) break;
    const users = o.users[i];
    const result: PairResult = {
      pair: i + 1,
      scenario: scenarioOf(o.scenarios, i),
      ok: false,
      setupMs: null,
      reason: null,
      failure: null,
      users: { caller: users.caller.email, callee: users.callee.email, ...(users.third ? { third: users.third.email } : {}) },
      startedAtS: Number(elapsed().toFixed(2)),
      seconds: null,
    };
    pairs.push(result);
    o.onPairStart?.(result);
    running.push(runPair(result, users));
  }

  const interrupted = new Promise<void>((resolve) => {
    if (o.interrupt.aborted) resolve();
    o.interrupt.addEventListener('abort', () => resolve(), { once: true });
  });
  await Promise.race([Promise.all(running), interrupted]);
  if (o.interrupt.aborted) {
    for (const p of pairs.filter((x) => x.seconds === null)) {
      // Neither the system's failure nor the infrastructure's: the run was stopped.
      p.reason = `interrupted after ${(elapsed() - p.startedAtS).toFixed(1)} s, before the scenario ended`;
    }
  }
  return { pairs, qualities, memory: memory.stop(baselineRssMB, pairs.length), generator: generator(), durationSeconds: elapsed() };
}
