// The offered load: how many messages should have been sent after t seconds. Open loop (the
// schedule never waits for the server): a fixed rate with an optional linear ramp from 0, or
// arrival-rate stages (--stages 30s:500,60s:2000,30s:0), each rising or falling linearly from the
// previous stage's rate (0 before the first) to its own over its duration.

export interface Stage {
  seconds: number;
  /** The rate reached at the end of the stage, messages per second. */
  target: number;
}

export interface Schedule {
  ratePerSecond: number;
  durationSeconds: number;
  rampSeconds: number;
  /** When given, the whole schedule; ratePerSecond and rampSeconds are then ignored. */
  stages?: Stage[];
}

interface Segment {
  seconds: number;
  from: number;
  to: number;
}

function segments(s: Schedule): Segment[] {
  if (s.stages?.length) {
    let rate = 0;
    return s.stages.map((st) => {
      const seg = { seconds: st.seconds, from: rate, to: st.target };
      rate = st.target;
      return seg;
    });
  }
  const ramp = Math.min(Math.max(s.rampSeconds, 0), s.durationSeconds);
  return [
    { seconds: ramp, from: 0, to: s.ratePerSecond },
    { seconds: s.durationSeconds - ramp, from: s.ratePerSecond, to: s.ratePerSecond },
  ];
}

/** Seconds the schedule sends for. */
export function scheduleSeconds(s: Schedule): number {
  return s.stages?.length ? s.stages.reduce((sum, st) => sum + st.seconds, 0) : s.durationSeconds;
}

/** Messages due by `t` seconds into the run (a whole number, never decreasing). */
export function messagesDue(s: Schedule, t: number): number {
  let left = Math.max(t, 0);
  let area = 0;
  for (const seg of segments(s)) {
    if (left <= 0 || seg.seconds <= 0) continue;
    const dt = Math.min(left, seg.seconds);
    // A trapezoid: the rate rises (or falls) linearly over the segment.
    const rateAtDt = seg.from + ((seg.to - seg.from) * dt) / seg.seconds;
    area += ((seg.from + rateAtDt) / 2) * dt;
    left -= dt;
  }
  // Float sums of whole areas must not lose the last message to 1e-12 below an integer.
  return Math.floor(area + 1e-9);
}

/** Messages the whole run offers. */
export function messagesOffered(s: Schedule): number {
  return messagesDue(s, scheduleSeconds(s));
}

/** The rate asked over the whole run, messages per second. */
export function averageRate(s: Schedule): number {
  const seconds = scheduleSeconds(s);
  return seconds > 0 ? messagesOffered(s) / seconds : 0;
}

/** "30s:500,60s:2000,30s:0" (durations in ms, s, m or h; a bare number is seconds). */
export function parseStages(text: string): Stage[] {
  const scale: Record<string, number> = { ms: 0.001, s: 1, m: 60, h: 3600 };
  const stages = text.split(',').map((part) => {
    const m = /^\s*(\d+(?:\.\d+)?)(ms|s|m|h)?\s*:\s*(\d+(?:\.\d+)?)\s*$/.exec(part);
    if (!m) throw new Error(`stage "${part}": expected DURATION:RATE, e.g. 30s:500`);
    return { seconds: Number(m[1]) * scale[m[2] ?? 's'], target: Number(m[3]) };
  });
  if (stages.every((st) => st.seconds <= 0)) throw new Error('stages: the total duration must be above 0');
  return stages;
}
