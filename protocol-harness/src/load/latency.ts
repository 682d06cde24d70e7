// Send → deliver latency in an HDR histogram (hdr-histogram-js): microsecond values, three
// significant digits, reported in milliseconds.
import * as hdr from 'hdr-histogram-js';

export interface LatencySummary {
  count: number;
  p50Ms: number;
  p90Ms: number;
  p95Ms: number;
  p99Ms: number;
  maxMs: number;
}

export class LatencyHistogram {
  private readonly histogram = hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: 3, autoResize: true });

  /** Records one latency in microseconds (below 1 µs counts as 1 µs). */
  record(us: number): void {
    this.histogram.recordValue(Math.max(1, Math.round(us)));
  }

  /** Empties it (a per-interval histogram, e.g. --out's one sample a second). */
  reset(): void {
    this.histogram.reset();
  }

  get count(): number {
    return this.histogram.totalCount;
  }

  percentileMs(p: number): number {
    return this.count === 0 ? 0 : this.histogram.getValueAtPercentile(p) / 1000;
  }

  summary(): LatencySummary {
    return {
      count: this.count,
      p50Ms: this.percentileMs(50),
      p90Ms: this.percentileMs(90),
      p95Ms: this.percentileMs(95),
      p99Ms: this.percentileMs(99),
      maxMs: this.count === 0 ? 0 : this.histogram.maxValue / 1000,
    };
  }
}
