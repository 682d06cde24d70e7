// Writes the search index of stored messages after their commit (docs/architecture.md §6a). In
// the message transaction, one of which is in flight at a time, the index's ~30 rows a message
// were most of its time: at 3000 msg/s the transactions could not keep up. Here they go in a
// transaction of their own beside the next messages'. Until then a message waits (`indexed` 0)
// and search finds it with LIKE, so it is found from its commit on, as before.
//
// Ids gather for a while (a transaction at most every `everyMs`): nobody waits for the index, and
// each transaction costs the database a few round trips whatever its size, so fewer and larger is
// cheaper (at 3000 msg/s, ~100 transactions a second became ~10). A batch that fails,
// ids beyond the queue's bound, and messages whose node stopped or died before indexing them are
// all left waiting in the database: a sweep indexes every message that has waited longer than a
// while, whichever node stored it, at start and then periodically.
import { performance } from 'node:perf_hooks';
import type { Logger } from '../../log';
import type { Clock } from '../types';
import type { WaitingMessages } from './message-index-repository';

export interface IndexerOptions {
  /** A transaction starts at most this often. */
  everyMs: number;
  /** Messages indexed in one transaction at most. */
  maxBatch: number;
  /** Ids held in memory at most; beyond, they wait for the sweep. */
  maxQueued: number;
  /** How often the sweep looks for messages left waiting. */
  sweepEveryMs: number;
  /** How long a message waits before the sweep takes it (its own node's indexer comes first). */
  sweepAfterMs: number;
}

const DEFAULTS: IndexerOptions = { everyMs: 100, maxBatch: 2_000, maxQueued: 50_000, sweepEveryMs: 10_000, sweepAfterMs: 10_000 };

export class MessageIndexer {
  private readonly queue = new Set<number>();
  private running = false;
  private drained: Promise<void> = Promise.resolve();
  private sweeping: Promise<void> | null = null;
  private readonly timer: NodeJS.Timeout;
  private lastStartMs = -Infinity;
  /** Once stopped (shutdown), what is queued goes without waiting. */
  private stopped = false;
  private readonly options: IndexerOptions;

  constructor(
    private readonly waiting: Pick<WaitingMessages, 'index' | 'storedBefore'>,
    private readonly clock: Clock,
    private readonly log: Logger,
    /** Told how many messages each transaction indexed (metrics). */
    private readonly onIndexed: (count: number) => void = () => {},
    options: Partial<IndexerOptions> = {},
  ) {
    this.options = { ...DEFAULTS, ...options };
    this.timer = setInterval(() => void this.sweep(), this.options.sweepEveryMs);
    this.timer.unref();
    void this.sweep();
  }

  /** Messages just committed (people's: system messages are never indexed). */
  add(messageIds: readonly number[]): void {
    for (const id of messageIds) {
      if (this.queue.size >= this.options.maxQueued) break;
      this.queue.add(id);
    }
    if (this.queue.size > 0 && !this.running) {
      this.running = true;
      // Let the ids of this turn of the event loop join the first batch.
      this.drained = new Promise((done) => setImmediate(() => void this.drain().then(done, done)));
    }
  }

  /** Indexes the messages that have waited longer than `sweepAfterMs`; resolves once they are. */
  sweep(): Promise<void> {
    this.sweeping ??= (async () => {
      try {
        const ids = await this.waiting.storedBefore(this.clock() - this.options.sweepAfterMs, this.options.maxBatch * 10);
        if (ids.length === 0) return;
        this.log.info({ messages: ids.length }, 'indexing messages left waiting');
        this.add(ids);
        await this.drained;
      } catch (err) {
        this.log.warn({ err }, 'looking for messages waiting for the search index failed');
      } finally {
        this.sweeping = null;
      }
    })();
    return this.sweeping;
  }

  /** Resolves once every message added so far is indexed or left to the sweep. */
  idle(): Promise<void> {
    return this.drained;
  }

  /** No more sweeps; what is queued still goes (await idle() for it). */
  stop(): void {
    this.stopped = true;
    clearInterval(this.timer);
  }

  private async drain(): Promise<void> {
    while (this.queue.size > 0) {
      // Until the next transaction may start, the ids of other commits join this one's.
      const wait = this.lastStartMs + this.options.everyMs - performance.now();
      if (wait > 0 && !this.stopped) await new Promise((r) => setTimeout(r, wait));
      this.lastStartMs = performance.now();
      const batch = [...this.queue].slice(0, this.options.maxBatch);
      for (const id of batch) this.queue.delete(id);
      try {
        this.onIndexed(await this.waiting.index(batch));
      } catch (err) {
        // Still waiting in the database: searchable with LIKE, and the sweep tries again.
        this.log.warn({ err, messages: batch.length }, 'indexing messages failed; the sweep will retry');
      }
    }
    this.running = false;
  }
}
