// Catching up (history with afterSeq or changedSince) is bulk work that comes all at once: when a
// node dies or the bus comes back, every client of it asks in the same few seconds
// (docs/architecture.md §9, *A reconnect storm*). Each catch-up takes a slot; with all slots taken
// the rest wait their turn here, in order, instead of in the database pool's queue, where they
// would stand in front of everyone's sends and page loads.

/** Catch-ups in flight per node: a few of the main pool's 10 connections, never all of them. */
export const CATCH_UP_SLOTS = 4;

export class CatchUpSlots {
  private inFlight = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly slots = CATCH_UP_SLOTS) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.inFlight >= this.slots) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.inFlight++;
    try {
      return await work();
    } finally {
      // The slot passes straight to the next in line (inFlight unchanged), or is freed.
      const next = this.waiting.shift();
      if (next) next();
      else this.inFlight--;
    }
  }
}
