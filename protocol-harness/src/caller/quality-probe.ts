// One connection's quality probe: getStats() once a second while the connection lives, each
// second turned into a sample (quality-stats.ts). Times are kept on performance.now()'s clock (in
// seconds) so a side's probes over several connections (a resume) join into one series.
import type { QualitySample } from './quality';
import { sampleBetween, snapshotFrom, type StatsSnapshot } from './quality-stats';

export const QUALITY_INTERVAL_MS = 1000;

export class QualityProbe {
  /** Samples with `t` on performance.now()'s clock in seconds; the report shifts them. */
  readonly series: QualitySample[] = [];
  first: StatsSnapshot | null = null;
  last: StatsSnapshot | null = null;
  private timer: NodeJS.Timeout | null = null;
  private reading = false;

  constructor(private readonly read: () => Promise<Iterable<Record<string, unknown>>>) {}

  start(): void {
    if (this.timer) return;
    void this.take();
    this.timer = setInterval(() => void this.take(), QUALITY_INTERVAL_MS);
    // A probe never keeps the process alive.
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private async take(): Promise<void> {
    // A slow getStats under load must not pile readings up.
    if (this.reading) return;
    this.reading = true;
    try {
      const snapshot = snapshotFrom(await this.read(), performance.now());
      if (this.timer === null && this.first !== null) return;
      if (this.last) this.series.push(sampleBetween(this.last, snapshot, 0));
      this.first ??= snapshot;
      this.last = snapshot;
    } catch {
      // The connection closed under the reading: the series ends with the previous second.
    } finally {
      this.reading = false;
    }
  }
}
