// Local ICE candidates leave the way the browser client sends them (docs/spec.md §9): queued, and
// the queue flushed at once and then every 250 ms, 60 times (15 s). A candidate found after
// that window is sent on its own at once, so none is lost. The numbers are the client's (common/rules.ts).
import { LIMITS } from '@common/rules';

export const CANDIDATE_INTERVAL_MS = LIMITS.candidateIntervalMs;
export const CANDIDATE_ROUNDS = LIMITS.candidateRepeats;

export class CandidateBatcher<T> {
  private queue: T[] = [];
  private timer: NodeJS.Timeout | null = null;
  private rounds = 0;
  private windowOver = false;
  private closed = false;

  constructor(private readonly send: (candidate: T) => void) {}

  add(candidate: T): void {
    // A candidate gathered after the call ended (ICE still winding down) goes nowhere: the
    // connection it would be sent on may be gone, and no timer may outlive the call.
    if (this.closed) return;
    if (this.windowOver) {
      this.send(candidate);
      return;
    }
    this.queue.push(candidate);
    if (this.timer) return;
    this.flush();
    this.timer = setInterval(() => {
      this.flush();
      if (++this.rounds >= CANDIDATE_ROUNDS) {
        if (this.timer) clearInterval(this.timer);
        this.timer = null;
        this.windowOver = true;
      }
    }, CANDIDATE_INTERVAL_MS);
  }

  /** Stops the cadence; queued candidates are dropped and later ones ignored. */
  stop(): void {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.queue = [];
  }

  private flush(): void {
    const batch = this.queue;
    this.queue = [];
    for (const candidate of batch) this.send(candidate);
  }
}
