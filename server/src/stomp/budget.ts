// How much one connection may make the server parse and handle: a token bucket of frames and
// one of bytes, each refilled at a steady rate up to a burst. A session that empties either is
// closed with an ERROR, so one socket cannot monopolise the event loop or memory of a process
// that serves everyone (one WebSocket message may carry tens of thousands of tiny frames).
// Chat traffic is a few frames a second; the defaults leave real clients far inside.

export interface BudgetLimits {
  framesPerSecond: number;
  frameBurst: number;
  bytesPerSecond: number;
  byteBurst: number;
}

export const DEFAULT_BUDGET: BudgetLimits = {
  framesPerSecond: 200,
  frameBurst: 2000,
  bytesPerSecond: 1024 * 1024,
  byteBurst: 8 * 1024 * 1024,
};

/**
 * Frames a session parses, and frames it handles, in one turn before the next socket's turn
 * (turns.ts): a burst within budget still cannot stall its neighbours.
 */
export const FRAMES_PER_TURN = 64;

export class FrameBudget {
  private frames: number;
  private bytes: number;
  private refilledAt: number;

  constructor(
    private readonly limits: BudgetLimits,
    now: number,
  ) {
    this.frames = limits.frameBurst;
    this.bytes = limits.byteBurst;
    this.refilledAt = now;
  }

  /** Takes bytes and frames out of the buckets; false once either is overdrawn. */
  spend(frames: number, bytes: number, now: number): boolean {
    this.refill(now);
    this.frames -= frames;
    this.bytes -= bytes;
    return this.frames >= 0 && this.bytes >= 0;
  }

  /** Whole frames that may still be spent now: parsing one more than this overdraws the budget. */
  framesLeft(now: number): number {
    this.refill(now);
    return Math.max(0, Math.floor(this.frames));
  }

  private refill(now: number): void {
    const elapsed = Math.max(0, (now - this.refilledAt) | 0);
    if (elapsed > 0) {
      const { framesPerSecond, frameBurst, bytesPerSecond, byteBurst } = this.limits;
      this.frames = Math.min(frameBurst, this.frames + (elapsed * framesPerSecond) / 1000);
      this.bytes = Math.min(byteBurst, this.bytes + (elapsed * bytesPerSecond) / 1000);
      this.refilledAt = now;
    }
  }
}
