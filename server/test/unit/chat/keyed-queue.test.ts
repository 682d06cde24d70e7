import { expect } from 'chai';
import { KeyedQueue } from '../../../src/features/messages/keyed-queue';

const tick = () => new Promise((r) => setImmediate(r));

/** A task that finishes when the test says so, recording when it started. */
function gate(log: string[], name: string) {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { open, task: async () => { log.push(`start ${name}`); await opened; log.push(`end ${name}`); return name; } };
}

describe('KeyedQueue', () => {
  it('runs the tasks of one key one at a time, in the order they were queued', async () => {
    const queue = new KeyedQueue<number>();
    const log: string[] = [];
    const first = gate(log, '1');
    const second = gate(log, '2');
    const results = [queue.run(7, first.task), queue.run(7, second.task)];
    await tick();
    expect(log).to.deep.equal(['start 1']);
    second.open();
    await tick();
    expect(log).to.deep.equal(['start 1']);
    first.open();
    expect(await Promise.all(results)).to.deep.equal(['1', '2']);
    expect(log).to.deep.equal(['start 1', 'end 1', 'start 2', 'end 2']);
  });

  it('runs tasks of different keys concurrently', async () => {
    const queue = new KeyedQueue<number>();
    const log: string[] = [];
    const a = gate(log, 'a');
    const b = gate(log, 'b');
    const done = [queue.run(1, a.task), queue.run(2, b.task)];
    await tick();
    expect(log).to.deep.equal(['start a', 'start b']);
    a.open();
    b.open();
    await Promise.all(done);
  });

  it('keeps going after a failed task, which rejects only its own caller', async () => {
    const queue = new KeyedQueue<string>();
    const failed = queue.run('room', async () => {
      throw new Error('boom');
    });
    const next = queue.run('room', async () => 'fine');
    expect(await failed.catch((e: Error) => e.message)).to.equal('boom');
    expect(await next).to.equal('fine');
  });

  it('forgets a key once its work is done', async () => {
    const queue = new KeyedQueue<number>();
    await queue.run(1, async () => undefined);
    await tick();
    expect(queue.size).to.equal(0);
  });
});
