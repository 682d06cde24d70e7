// A small pool of slots shared fairly between users (docs/architecture.md §3a, thumbnails):
// work waits in one queue per user and the queues are served round-robin, so a user who asks
// for many jobs at once waits behind their own jobs, never in front of another user's. A user
// holds at most `perKey` slots at once, so with more slots than that one slot is always free for
// somebody else: a small picture never waits for another user's giant one to be decoded.

interface Job {
  start(): void;
}

export interface FairQueueOptions {
  /** Jobs running at once in all. */
  slots: number;
  /** Jobs one key (user) runs at once; at most `slots`. */
  perKey: number;
}

export class FairQueue {
  private readonly waiting = new Map<string | number, Job[]>();
  /** Keys with waiting jobs, in the order they first asked (a Map keeps insertion order). */
  private readonly turns = new Map<string | number, true>();
  private readonly runningOf = new Map<string | number, number>();
  /** When each key last had a job started (a counter): the key served longest ago goes next. */
  private readonly lastServed = new Map<string | number, number>();
  private served = 0;
  private running = 0;
  private readonly perKey: number;

  constructor(private readonly options: FairQueueOptions) {
    this.perKey = Math.max(1, Math.min(options.perKey, options.slots));
  }

  /** Runs `work` once a slot is free and it is this key's turn; answers what the work answers. */
  run<T>(key: string | number, work: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const job: Job = {
        start: () => {
          this.running += 1;
          this.runningOf.set(key, (this.runningOf.get(key) ?? 0) + 1);
          const done = () => {
            this.running -= 1;
            const left = (this.runningOf.get(key) ?? 1) - 1;
            if (left === 0) this.runningOf.delete(key);
            else this.runningOf.set(key, left);
            // Nothing left of this key: forget it, so that keys come and go without growing the maps.
            if (left === 0 && !this.waiting.has(key)) this.lastServed.delete(key);
            this.pump();
          };
          let promise: Promise<T>;
          try {
            promise = work();
          } catch (err) {
            promise = Promise.reject(err instanceof Error ? err : new Error(String(err)));
          }
          void promise.then(resolve, reject).finally(done);
        },
      };
      const queue = this.waiting.get(key);
      if (queue) queue.push(job);
      else this.waiting.set(key, [job]);
      this.turns.set(key, true);
      this.pump();
    });
  }

  /** Jobs waiting (not running), all keys together. */
  get pending(): number {
    let n = 0;
    for (const q of this.waiting.values()) n += q.length;
    return n;
  }

  /**
   * Starts jobs while slots are free: each time the key served longest ago (never served first,
   * then in the order they asked) among those with work waiting and below their own cap.
   */
  private pump(): void {
    while (this.running < this.options.slots) {
      let next: string | number | undefined;
      let nextServed = Infinity;
      for (const key of this.turns.keys()) {
        if ((this.runningOf.get(key) ?? 0) >= this.perKey) continue;
        const served = this.lastServed.get(key) ?? -1;
        if (served < nextServed) {
          next = key;
          nextServed = served;
        }
      }
      if (next === undefined) return;
      const queue = this.waiting.get(next)!;
      const job = queue.shift()!;
      this.served += 1;
      this.lastServed.set(next, this.served);
      if (queue.length === 0) {
        this.waiting.delete(next);
        this.turns.delete(next);
      }
      job.start();
    }
  }
}
