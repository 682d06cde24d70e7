// Turns shared fairly between sockets with work waiting (docs/architecture.md §3a). A session
// with more input than one turn's worth (FRAMES_PER_TURN frames parsed and handled) waits here
// instead of working through it at once: rounds go through the waiting sessions one turn each,
// in the order they came, each round in a setImmediate of its own, so sockets' messages, timers
// and database replies run between rounds. A round that takes longer than `maxRoundMs` stops
// and the next one goes on from where it stopped, so 100 sockets flooding at once still leave
// the event loop free every few milliseconds.
import { performance } from 'node:perf_hooks';

/** Something that works in bounded turns. */
export interface TakesTurns {
  /** Does one turn's work; true when more is waiting (it is then queued for the next round). */
  takeTurn(): boolean;
}

/** A round stops after this long and the rest wait for the next one (the event loop runs between). */
export const MAX_ROUND_MS = 5;

export class Turns {
  private waiting: TakesTurns[] = [];
  private readonly queued = new Set<TakesTurns>();
  private scheduled = false;
  private inRound = false;

  constructor(
    private readonly onError: (err: unknown) => void,
    private readonly maxRoundMs = MAX_ROUND_MS,
  ) {}

  /** Nobody is waiting and no round runs: a turn may be taken at once without jumping a queue. */
  get idle(): boolean {
    return !this.inRound && this.waiting.length === 0;
  }

  /** Queues a turn for the next round (once, however often asked). */
  add(t: TakesTurns): void {
    if (this.queued.has(t)) return;
    this.queued.add(t);
    this.waiting.push(t);
    this.schedule();
  }

  /** Takes a turn now when nobody waits, else queues it; either way the rest waits its turn. */
  turnNowOrQueue(t: TakesTurns): void {
    if (this.queued.has(t)) return;
    if (!this.idle) {
      this.add(t);
      return;
    }
    if (this.take(t)) this.add(t);
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.round());
  }

  private round(): void {
    this.scheduled = false;
    const batch = this.waiting;
    this.waiting = [];
    this.inRound = true;
    const started = performance.now();
    let i = 0;
    try {
      while (i < batch.length) {
        const t = batch[i++];
        this.queued.delete(t);
        if (this.take(t)) {
          this.queued.add(t);
          this.waiting.push(t);
        }
        if (performance.now() - started >= this.maxRoundMs) break;
      }
    } finally {
      this.inRound = false;
      // Those not reached keep their place ahead of anyone queued during the round.
      if (i < batch.length) this.waiting = batch.slice(i).concat(this.waiting);
      if (this.waiting.length > 0) this.schedule();
    }
  }

  private take(t: TakesTurns): boolean {
    try {
      return t.takeTurn();
    } catch (err) {
      this.onError(err);
      return false;
    }
  }
}
