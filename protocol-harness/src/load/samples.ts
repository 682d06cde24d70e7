// One sample a second of a load run (--out FILE.jsonl, --metrics-port): the counts so far, the
// latency of the deliveries within that second, and what the generator cost in it.
import fs from 'node:fs';

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
