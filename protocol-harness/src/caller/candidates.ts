// Local ICE candidates leave the way the browser client sends them (SPEC.md §9): queued, and
// the queue flushed at once and then every 250 ms, 60 times (15 s). A candidate found after
// that window is sent on its own at once, so none is lost. The numbers are the client's (common/rules.ts).
import { LIMITS } from '../../../common/rules';

export const CANDIDATE_INTERVAL_MS = LIMITS.candidateIntervalMs;
export const CANDIDATE_ROUNDS = LIMITS.candidateRepeats;

export class CandidateBatcher<T> {
  private queue: T[] = [];
  private timer: NodeJS.Timeout | null = null;
  private rounds = 0;
  private windowOver = false;

  constructor(private readonly send: (candidate: T) => void) {}

  add(candidate: T): void {
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
        this.stop();
        this.windowOver = true;
      }
    }, CANDIDATE_INTERVAL_MS);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private flush(): void {
    const batch = this.queue;
    this.queue = [];
    for (const candidate of batch) this.send(candidate);
  }
}
