// The offered load: how many messages should have been sent after t seconds. Open loop (the
// schedule never waits for the server), with an optional linear ramp from 0 to the full rate.

export interface Schedule {
  ratePerSecond: number;
  durationSeconds: number;
  rampSeconds: number;
}

/** Messages due by `t` seconds into the run (a whole number, never decreasing). */
export function messagesDue(s: Schedule, t: number): number {
  const time = Math.min(Math.max(t, 0), s.durationSeconds);
  const ramp = Math.min(s.rampSeconds, s.durationSeconds);
  if (ramp <= 0) return Math.floor(s.ratePerSecond * time);
  // Area under the rate curve: a triangle while ramping, then a rectangle.
  if (time <= ramp) return Math.floor((s.ratePerSecond * time * time) / (2 * ramp));
  return Math.floor(s.ratePerSecond * (ramp / 2 + (time - ramp)));
}

/** Messages the whole run offers. */
export function messagesOffered(s: Schedule): number {
  return messagesDue(s, s.durationSeconds);
}
