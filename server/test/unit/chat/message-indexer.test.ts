import { expect } from 'chai';
import pino from 'pino';
import sinon from 'sinon';
import { MessageIndexer } from '../../../src/features/chat/message-indexer';
import { waitFor, yieldToEventLoop } from '../../support/wait';

/**
 * Messages waiting in a stand-in database: each index() is one transaction, answered a turn of
 * the event loop later, or, while `hold` is set, when the test calls release().
 */
class FakeWaiting {
  waiting = new Map<number, number>(); // id → stored at (ms)
  transactions: number[][] = [];
  failNext = false;
  sweeps: number[] = [];
  hold = false;
  private readonly held: Array<() => void> = [];

  async index(ids: number[]): Promise<number> {
    this.transactions.push([...ids]);
    if (this.hold) await new Promise<void>((resolve) => this.held.push(resolve));
    else await yieldToEventLoop();
    if (this.failNext) {
      this.failNext = false;
      throw new Error('lock wait timeout');
    }
    const taken = ids.filter((id) => this.waiting.delete(id));
    return taken.length;
  }

  async storedBefore(beforeMs: number, limit: number): Promise<number[]> {
    this.sweeps.push(beforeMs);
    return [...this.waiting].filter(([, at]) => at < beforeMs).map(([id]) => id).slice(0, limit);
  }

  /** Answers the transactions held so far; the next ones go at once. */
  release(): void {
    this.hold = false;
    this.held.splice(0).forEach((answer) => answer());
  }
}

describe('MessageIndexer', () => {
  const log = pino({ level: 'silent' });
  const idle = { everyMs: 0, sweepEveryMs: 3_600_000, sweepAfterMs: 10_000 };
  const started: MessageIndexer[] = [];
  const indexer = (db: FakeWaiting, options = {}, onIndexed?: (n: number) => void): MessageIndexer => {
    const i = new MessageIndexer(db, () => 100_000, log, onIndexed, { ...idle, ...options });
    started.push(i);
    return i;
  };
  afterEach(() => started.splice(0).forEach((i) => i.stop()));

  it('indexes the ids of one turn together, and those that arrive while a transaction is in flight in the next', async () => {
    const db = new FakeWaiting();
    for (let id = 1; id <= 5; id++) db.waiting.set(id, 99_999);
    const counted: number[] = [];
    const i = indexer(db, {}, (n) => counted.push(n));
    await i.idle(); // the sweep at start found nothing old enough
    db.hold = true;
    i.add([1, 2]);
    i.add([3]);
    await waitFor(() => db.transactions.length === 1, 'the first transaction in flight');
    i.add([4, 5]);
    db.release();
    await i.idle();
    expect(db.transactions).to.deep.equal([[1, 2, 3], [4, 5]]);
    expect(counted).to.deep.equal([3, 2]);
    expect(db.waiting.size).to.equal(0);
  });

  it('starts a transaction at most every everyMs: the ids of the commits between gather into the next', async () => {
    const db = new FakeWaiting();
    for (let id = 1; id <= 6; id++) db.waiting.set(id, 99_999);
    const i = indexer(db, { everyMs: 1000 });
    await i.idle();
    i.add([1]);
    await i.idle(); // the first transaction is done; the next waits for everyMs
    // Each in a turn of the event loop of its own, as commits come: without everyMs, each would
    // start a transaction. (These turns take microseconds; everyMs is a second.)
    for (const id of [2, 3, 4]) {
      i.add([id]);
      await yieldToEventLoop();
    }
    i.add([5, 6]);
    await i.idle();
    expect(db.transactions).to.deep.equal([[1], [2, 3, 4, 5, 6]]);
  });

  it('leaves a failed batch waiting for the sweep and goes on with the next', async () => {
    const db = new FakeWaiting();
    for (let id = 1; id <= 3; id++) db.waiting.set(id, 0);
    const i = indexer(db);
    await i.sweep(); // the ids at start: stored long ago
    db.waiting.set(4, 99_999);
    db.waiting.set(5, 99_999);
    db.failNext = true;
    db.hold = true;
    i.add([4]);
    await waitFor(() => db.transactions.at(-1)?.[0] === 4, 'the transaction of 4 in flight');
    i.add([5]);
    db.release();
    await i.idle();
    expect(db.transactions.slice(-2)).to.deep.equal([[4], [5]]);
    expect([...db.waiting.keys()]).to.deep.equal([4]);
  });

  it('holds at most maxQueued ids, a transaction at most maxBatch; the rest wait in the database for the sweep', async () => {
    const db = new FakeWaiting();
    const i = indexer(db, { maxQueued: 3, maxBatch: 2 });
    await i.idle();
    i.add([1, 2, 3, 4, 5]);
    await i.idle();
    expect(db.transactions).to.deep.equal([[1, 2], [3]]);
  });

  it('sweeps at start and then every sweepEveryMs for messages older than sweepAfterMs, until stopped', async () => {
    // The sweep's interval on a fake clock: its periods are ticked, not waited for.
    const clock = sinon.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const db = new FakeWaiting();
      db.waiting.set(7, 80_000);
      db.waiting.set(8, 95_000);
      const i = indexer(db, { sweepEveryMs: 20 });
      // A sweep asks the database at once; sweep() joins the one in flight.
      await i.sweep(); // the one at start
      for (let period = 1; period <= 2; period++) {
        clock.tick(19);
        expect(db.sweeps).to.have.length(period);
        clock.tick(1);
        await i.sweep();
      }
      await i.idle();
      expect(db.sweeps).to.deep.equal([90_000, 90_000, 90_000]);
      expect([...db.waiting.keys()]).to.deep.equal([8]);
      i.stop();
      clock.tick(1000);
      expect(db.sweeps).to.have.length(3);
    } finally {
      clock.restore();
    }
  });
});
