// Sliding-window arithmetic for the rate limits (logins, verification codes). Pure: the
// events come from the database, so every node counts the same ones.

export interface RateWindow {
  /** How many events the window allows. */
  limit: number;
  windowMs: number;
}

/**
 * Milliseconds until one more event is allowed, or 0 when it is allowed now. `eventTimes` are
 * the event times (any order); only those inside the window count.
 */
export function retryAfterMs(eventTimes: readonly number[], window: RateWindow, now: number): number {
  const inWindow = eventTimes.filter((t) => t > now - window.windowMs && t <= now).sort((a, b) => b - a);
  if (inWindow.length < window.limit) return 0;
  // The oldest event that keeps the window full must leave it first.
  const blocking = inWindow[window.limit - 1];
  return blocking + window.windowMs - now;
}

/** Retry-After in whole seconds, never 0 for a refusal. */
export function retryAfterSeconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}
