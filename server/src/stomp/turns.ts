// Turns shared fairly between sockets with work waiting (docs/architecture.md §3a). A session
// with more input than one turn's worth (FRAMES_PER_TURN frames parsed and handled) waits here
// instead of working through it at once: rounds go through the waiting sessions one turn each,
// in the order they came, each round in a setImmediate of its own, so sockets' messages, timers
// and database replies run between rounds. A round that takes longer than `maxRoundMs` stops
// and the next one goes on from where it stopped, so 100 sockets flooding at once still leave
// the event loop free every few milliseconds.
// Sessions that just woke (new input, a handler settled) go first in a round, before those that
// come back for another turn of the same backlog: a chat client's single frame then waits for a
// few turns, not for a turn of every flooder (the "new flows first" of fair queueing), and a
// client whose frames are handled one after another (each SEND waits for its commit) is not
// sent to the back of the queue at every frame.
import { performance } from 'node:perf_hooks';

/** Something that works in bounded turns. */
export interface TakesTurns {
  /** Does one turn's work; true when more is waiting (it is then queued for the next round). */
  takeTurn(): boolean;
}

/** A round stops after this long and the rest wait for the next one (the event loop runs between). */
export const MAX_ROUND_MS = 2;

export class Turns {
  /** Woken since the last round: they go first. */
  private fresh: TakesTurns[] = [];
  /** Back for another turn of their backlog. */
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
    return !this.inRound && this.fresh.length === 0 && this.waiting.length === 0;
  }

  /** Queues a turn for the next round (once, however often asked); `fresh` ones go first. */
  add(t: TakesTurns, fresh = true): void {
    if (this.queued.has(t)) return;
    this.queued.add(t);
    (fresh ? this.fresh : this.waiting).push(t);
    this.schedule();
  }

  /** Takes a turn now when nobody waits, else queues it; either way the rest waits its turn. */
  turnNowOrQueue(t: TakesTurns): void {
    if (this.queued.has(t)) return;
    if (!this.idle) {
      this.add(t);
      return;
    }
    if (this.take(t)) this.add(t, false);
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.round());
  }

  private round(): void {
    this.scheduled = false;
    const freshCount = this.fresh.length;
    const batch = this.fresh.concat(this.waiting);
    this.fresh = [];
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
      if (i < freshCount) this.fresh = batch.slice(i, freshCount).concat(this.fresh);
      if (i < batch.length) this.waiting = batch.slice(Math.max(i, freshCount)).concat(this.waiting);
      if (this.fresh.length > 0 || this.waiting.length > 0) this.schedule();
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
