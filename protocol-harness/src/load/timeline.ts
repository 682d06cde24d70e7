// What --html draws of a load run over time: every per-second sample, and per --stages stage the
// sends, deliveries and latency of the seconds that fell in it (latency from the seconds' merged
// histograms, so a stage's p99 is exact, not an average of per-second p99s).
import { LatencyHistogram, type LatencySummary } from './latency';
import type { RunSample } from './samples';
import { messagesDue, scheduleSeconds, type Schedule } from './schedule';

export interface StageResult {
  /** "stage 2", or "after sending" for the drain and the grace. */
  label: string;
  fromSeconds: number;
  toSeconds: number;
  /** The asked rate at the stage's start and end (linear in between). */
  fromRate: number;
  toRate: number;
  /** Messages the schedule offered within the stage (exact). */
  offered: number;
  /** Counted over the whole seconds sampled within the stage. */
  sent: number;
  delivered: number;
  sampledSeconds: number;
  latency: Omit<LatencySummary, 'hdr'>;
}

interface Window {
  label: string;
  from: number;
  to: number;
  fromRate: number;
  toRate: number;
  sent: number;
  delivered: number;
  sampledSeconds: number;
  latency: LatencyHistogram;
}

export class LoadTimeline {
  readonly samples: RunSample[] = [];
  private readonly windows: Window[] = [];
  private previousElapsed = 0;

  constructor(private readonly schedule: Schedule) {
    let from = 0;
    let rate = 0;
    (schedule.stages ?? []).forEach((st, i) => {
      this.windows.push({ label: `stage ${i + 1}`, from, to: from + st.seconds, fromRate: rate, toRate: st.target, sent: 0, delivered: 0, sampledSeconds: 0, latency: new LatencyHistogram() });
      from += st.seconds;
      rate = st.target;
    });
    if (this.windows.length > 0) this.windows.push({ label: 'after sending (drain, grace)', from, to: Infinity, fromRate: 0, toRate: 0, sent: 0, delivered: 0, sampledSeconds: 0, latency: new LatencyHistogram() });
  }

  /** One sample, with its second's latency histogram when the run has it. */
  add(sample: RunSample, interval?: LatencyHistogram): void {
    this.samples.push(sample);
    // A sample covers the time since the one before: it belongs to the stage its middle is in.
    const middle = (this.previousElapsed + sample.elapsedSeconds) / 2;
    this.previousElapsed = sample.elapsedSeconds;
    const w = this.windowOf(sample.phase, middle);
    if (!w) return;
    w.sent += sample.sentInInterval;
    w.delivered += sample.deliveredInInterval;
    w.sampledSeconds++;
    if (interval) w.latency.add(interval);
  }

  /**
   * The stage the moment is in; past the schedule's end, the last stage while still sending (the
   * generator overran), else the drain and grace. The second in which sending ended is sampled
   * after it did, so the time decides, not the sample's phase.
   */
  private windowOf(phase: RunSample['phase'], middle: number): Window | undefined {
    if (this.windows.length === 0) return undefined;
    const stages = this.windows.slice(0, -1);
    const inStage = stages.find((x) => middle < x.to);
    if (inStage) return inStage;
    return phase === 'sending' ? stages[stages.length - 1] : this.windows[this.windows.length - 1];
  }

  /** Per stage (and the time after sending), or an empty list when the run had no --stages. */
  stages(): StageResult[] {
    const end = scheduleSeconds(this.schedule);
    return this.windows.map((w) => {
      const to = Math.min(w.to, end);
      const { count, p50Ms, p90Ms, p95Ms, p99Ms, maxMs } = w.latency.summary();
      return {
        label: w.label,
        fromSeconds: w.from,
        toSeconds: Number.isFinite(w.to) ? w.to : this.previousElapsed,
        fromRate: w.fromRate,
        toRate: w.toRate,
        offered: w.from < end ? messagesDue(this.schedule, to) - messagesDue(this.schedule, w.from) : 0,
        sent: w.sent,
        delivered: w.delivered,
        sampledSeconds: w.sampledSeconds,
        latency: { count, p50Ms, p90Ms, p95Ms, p99Ms, maxMs },
      };
    });
  }
}
