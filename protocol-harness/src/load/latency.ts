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
  /**
   * The whole histogram, HDR's compressed base64 encoding: what `harness merge` and --workers add
   * up exactly (percentiles of several runs cannot be averaged).
   */
  hdr?: string;
}

export class LatencyHistogram {
  private readonly histogram = hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: 3, autoResize: true });

  /** The histogram a summary's `hdr` encodes (an empty one when it has none). */
  static decode(summary: Pick<LatencySummary, 'hdr'>): LatencyHistogram {
    const h = new LatencyHistogram();
    if (summary.hdr) h.histogram.add(hdr.decodeFromCompressedBase64(summary.hdr));
    return h;
  }

  /** Adds every value of another histogram (an exact merge). */
  add(other: LatencyHistogram): void {
    this.histogram.add(other.histogram);
  }

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

  /** The summary with the histogram itself, for a report that may be merged. */
  fullSummary(): LatencySummary {
    return { ...this.summary(), hdr: hdr.encodeIntoCompressedBase64(this.histogram) };
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
