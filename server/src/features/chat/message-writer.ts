// Stores messages in batches and announces each one, in seq order, right after its commit.
// While one batch's transaction is in flight the next messages wait and then go together, so
// under load a round trip stores many messages. Only one batch is in flight at a time and each
// stored message's callback runs synchronously after the commit in the order given: a room's
// messages are therefore published in seq order, and nothing is published unstored.
// A retried clientMsgId is recognised inside the batch's transaction and fails only itself
// (docs/architecture.md §6): resends after a failover cost what a send costs.
import { performance } from 'node:perf_hooks';
import { isDuplicateKey } from '../../db/errors';
import type { Logger } from '../../log';
import type { BatchOutcome, MessagesRepository, NewMessage, StoredMessage } from './messages-repository';

export type WriteOutcome = { kind: 'stored'; id: number; seq: number } | { kind: 'duplicate'; id: number };

/** A message as given and as stored. */
export interface Committed { message: NewMessage; stored: StoredMessage }

interface Pending {
  message: NewMessage;
  onStored: (stored: StoredMessage) => void;
  resolve: (outcome: WriteOutcome) => void;
  reject: (err: unknown) => void;
}

export class MessageWriter {
  private queue: Pending[] = [];
  private running = false;
  private drained: Promise<void> = Promise.resolve();

  constructor(
    private readonly repo: Pick<MessagesRepository, 'storeBatch' | 'findByClientMsgId'>,
    private readonly log: Logger,
    /** Told of the messages each commit stored and how long its transaction took (metrics, the search index). */
    private readonly onCommitted: (committed: Committed[], seconds: number) => void = () => {},
    // 200 rows of 3 000 four-byte characters stay far below MariaDB's 16 MiB max_allowed_packet.
    private readonly maxBatch = 200,
  ) {}

  /**
   * Stores the message; `onStored` runs with its id and seq after the commit and before any
   * later message is announced. A clientMsgId the sender already used in the room answers
   * 'duplicate' with the stored message's id once that message is committed (a unique-key
   * conflict is only reported against a committed row), and `onStored` does not run.
   */
  write(message: NewMessage, onStored: (stored: StoredMessage) => void): Promise<WriteOutcome> {
    return new Promise((resolve, reject) => {
      this.queue.push({ message, onStored, resolve, reject });
      if (!this.running) {
        this.running = true;
        // Let the messages that arrive in this turn of the event loop join the first batch.
        this.drained = new Promise((done) => setImmediate(() => void this.drain().then(done, done)));
      }
    });
  }

  /** Resolves once every message written so far is stored or refused (for shutdown). */
  idle(): Promise<void> {
    return this.drained;
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, this.maxBatch);
      try {
        const started = performance.now();
        const outcomes = await this.repo.storeBatch(batch.map((p) => p.message));
        this.settle(batch, outcomes, started);
      } catch (err) {
        // One bad row (a room deleted meanwhile) fails the transaction: store the rest one by
        // one, in order, so only that row is refused. (Repeated clientMsgIds never come here.)
        if (batch.length === 1) await this.failed(batch[0], err);
        else for (const p of batch) await this.one(p);
      }
    }
    this.running = false;
  }

  private async one(p: Pending): Promise<void> {
    try {
      const started = performance.now();
      this.settle([p], await this.repo.storeBatch([p.message]), started);
    } catch (err) {
      await this.failed(p, err);
    }
  }

  /** After a commit: the stored messages told and announced in order, each repeat answered with its original's id. */
  private settle(batch: Pending[], outcomes: BatchOutcome[], startedMs: number): void {
    const committed: Committed[] = [];
    batch.forEach((p, i) => {
      const o = outcomes[i];
      if (!('duplicateOf' in o)) committed.push({ message: p.message, stored: o });
    });
    if (committed.length > 0) this.committed(committed, startedMs);
    batch.forEach((p, i) => {
      const o = outcomes[i];
      if ('duplicateOf' in o) p.resolve({ kind: 'duplicate', id: o.duplicateOf });
      else this.stored(p, o);
    });
  }

  /** Tells of a commit; a failure there must not look like a failed insert (it would be stored again). */
  private committed(committed: Committed[], startedMs: number): void {
    try {
      this.onCommitted(committed, (performance.now() - startedMs) / 1000);
    } catch (err) {
      this.log.error({ err }, 'telling of stored messages failed');
    }
  }

  private stored(p: Pending, stored: StoredMessage): void {
    try {
      p.onStored(stored);
    } catch (err) {
      this.log.error({ err, messageId: stored.id }, 'announcing a stored message failed');
    }
    p.resolve({ kind: 'stored', id: stored.id, seq: stored.seq });
  }

  private async failed(p: Pending, err: unknown): Promise<void> {
    const { senderId, roomId, clientMsgId } = p.message;
    if (isDuplicateKey(err) && senderId !== null && clientMsgId !== null) {
      try {
        const id = await this.repo.findByClientMsgId(senderId, roomId, clientMsgId);
        if (id !== null) {
          p.resolve({ kind: 'duplicate', id });
          return;
        }
      } catch (lookupErr) {
        p.reject(lookupErr);
        return;
      }
    }
    p.reject(err);
  }
}
