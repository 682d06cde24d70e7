import { expect } from 'chai';
import pino from 'pino';
import { MessageIndexer } from '../../../src/features/chat/message-indexer';

/** Messages waiting in a stand-in database: each index() is one transaction, answered after a tick. */
class FakeWaiting {
  waiting = new Map<number, number>(); // id → stored at (ms)
  transactions: number[][] = [];
  failNext = false;
  sweeps: number[] = [];

  async index(ids: number[]): Promise<number> {
    this.transactions.push([...ids]);
    await new Promise((r) => setTimeout(r, 5));
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
    i.add([1, 2]);
    i.add([3]);
    await new Promise((r) => setTimeout(r, 1));
    i.add([4, 5]);
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
    await new Promise((r) => setTimeout(r, 20)); // the first transaction is done; the next waits
    for (const id of [2, 3, 4]) {
      i.add([id]);
      await new Promise((r) => setTimeout(r, 10));
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
    i.add([4]);
    await new Promise((r) => setTimeout(r, 1));
    i.add([5]);
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
    const db = new FakeWaiting();
    db.waiting.set(7, 80_000);
    db.waiting.set(8, 95_000);
    const i = indexer(db, { sweepEveryMs: 20 });
    while (db.sweeps.length < 3) await new Promise((r) => setTimeout(r, 5));
    await i.idle();
    expect(db.sweeps.every((at) => at === 90_000)).to.equal(true);
    expect([...db.waiting.keys()]).to.deep.equal([8]);
    i.stop();
    const seen = db.sweeps.length;
    await new Promise((r) => setTimeout(r, 60));
    expect(db.sweeps.length).to.equal(seen);
  });
});
