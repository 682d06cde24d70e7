// One sample a second of a load run (--out FILE.jsonl, --metrics-port): the counts so far, the
// latency of the deliveries within that second, and what the generator cost in it.
import fs from 'node:fs';
import { LatencyHistogram } from './latency';

export interface RunSample {
  /** Wall-clock time of the sample, ISO 8601. */
  at: string;
  elapsedSeconds: number;
  phase: 'sending' | 'draining' | 'grace';
  /** Messages the schedule offered by now. */
  offered: number;
  sent: number;
  acknowledged: number;
  delivered: number;
  late: number;
  /** Expected deliveries not received yet: in flight while sending and draining, lost at the end of the grace. */
  missing: number;
  duplicated: number;
  outOfOrder: number;
  /** Sends and first deliveries within this second. */
  sentInInterval: number;
  deliveredInInterval: number;
  /** Latency of this second's first deliveries (0 when there were none). */
  latencyMs: { count: number; p50: number; p90: number; p99: number; max: number };
  /** The harness's CPU over this second, % of one core, and its event-loop delay p99. */
  generatorCpuPercent: number;
  eventLoopLagP99Ms: number;
}

/** --out FILE.jsonl: one JSON object a line, written as each sample is taken. */
export class JsonlWriter {
  private readonly fd: number;

  constructor(file: string) {
    this.fd = fs.openSync(file, 'w');
  }

  write(sample: RunSample): void {
    // Synchronous and small: a sample a second must be on disk if the run is killed.
    fs.writeSync(this.fd, JSON.stringify(sample) + '\n');
  }

  close(): void {
    fs.closeSync(this.fd);
  }
}

/** A worker's sample with its second's latency histogram (HDR encoding), as --workers pass them. */
export interface EncodedSample {
  sample: RunSample;
  hdr: string | undefined;
}

const PHASES: RunSample['phase'][] = ['sending', 'draining', 'grace'];

/**
 * The same second of several workers as one sample: counts added, the second's latency from the
 * merged histograms, CPU added (several processes), the worst event-loop lag.
 */
export function mergeSamples(parts: EncodedSample[]): RunSample {
  return mergeSamplesWithLatency(parts).sample;
}

/** mergeSamples, with the second's merged latency histogram (the HTML report's per-stage latency). */
export function mergeSamplesWithLatency(parts: EncodedSample[]): { sample: RunSample; latency: LatencyHistogram } {
  const s = parts.map((p) => p.sample);
  const sum = (pick: (x: RunSample) => number) => s.reduce((n, x) => n + pick(x), 0);
  const h = new LatencyHistogram();
  for (const p of parts) h.add(LatencyHistogram.decode({ hdr: p.hdr }));
  const l = h.summary();
  const sample: RunSample = {
    at: s.map((x) => x.at).sort().at(-1)!,
    elapsedSeconds: Math.max(...s.map((x) => x.elapsedSeconds)),
    phase: PHASES[Math.min(...s.map((x) => PHASES.indexOf(x.phase)))],
    offered: sum((x) => x.offered),
    sent: sum((x) => x.sent),
    acknowledged: sum((x) => x.acknowledged),
    delivered: sum((x) => x.delivered),
    late: sum((x) => x.late),
    missing: sum((x) => x.missing),
    duplicated: sum((x) => x.duplicated),
    outOfOrder: sum((x) => x.outOfOrder),
    sentInInterval: sum((x) => x.sentInInterval),
    deliveredInInterval: sum((x) => x.deliveredInInterval),
    latencyMs: { count: l.count, p50: l.p50Ms, p90: l.p90Ms, p99: l.p99Ms, max: Math.max(0, ...s.map((x) => x.latencyMs.max)) },
    generatorCpuPercent: sum((x) => x.generatorCpuPercent),
    eventLoopLagP99Ms: Math.max(...s.map((x) => x.eventLoopLagP99Ms)),
  };
  return { sample, latency: h };
}

/** A worker that has finished still counts in later seconds with its final counts and nothing new. */
export function carried(last: RunSample): EncodedSample {
  return {
    sample: { ...last, sentInInterval: 0, deliveredInInterval: 0, latencyMs: { count: 0, p50: 0, p90: 0, p99: 0, max: 0 }, generatorCpuPercent: 0, eventLoopLagP99Ms: 0 },
    hdr: undefined,
  };
}

/**
 * Lines the workers' samples up by second and hands on each second once every worker has given
 * it (or, at the end, carried forward from a worker that stopped sampling earlier).
 */
export class SampleAligner {
  private readonly byWorker: EncodedSample[][];
  private emitted = 0;

  constructor(
    workers: number,
    private readonly emit: (sample: RunSample, interval: LatencyHistogram) => void,
  ) {
    this.byWorker = Array.from({ length: workers }, () => []);
  }

  add(worker: number, part: EncodedSample): void {
    this.byWorker[worker].push(part);
    while (this.byWorker.every((list) => list.length > this.emitted)) {
      const second = this.emitted++;
      this.hand(this.byWorker.map((list) => list[second]));
    }
  }

  /** Every worker is done: the seconds some of them did not reach, with their final counts. */
  flush(): void {
    const longest = Math.max(0, ...this.byWorker.map((list) => list.length));
    for (; this.emitted < longest; this.emitted++) {
      this.hand(this.byWorker.flatMap((list) => (list[this.emitted] ? [list[this.emitted]] : list.length ? [carried(list[list.length - 1].sample)] : [])));
    }
  }

  private hand(parts: EncodedSample[]): void {
    const { sample, latency } = mergeSamplesWithLatency(parts);
    this.emit(sample, latency);
  }
}
