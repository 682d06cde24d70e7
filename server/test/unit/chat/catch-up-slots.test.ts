import { expect } from 'chai';
import { CatchUpSlots } from '../../../src/features/chat/catch-up-slots';

/** A piece of work that ends when the test says so. */
function pending() {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return { done, finish };
}

describe('catch-up slots', () => {
  it('runs at most `slots` catch-ups at once and the rest in the order they came, each as soon as a slot frees', async () => {
    const slots = new CatchUpSlots(2);
    const started: number[] = [];
    const works = Array.from({ length: 5 }, () => pending());
    const runs = works.map((w, i) => slots.run(async () => {
      started.push(i);
      await w.done;
      return i;
    }));
    await Promise.resolve();
    expect(started).to.deep.equal([0, 1]);
    works[1].finish();
    expect(await runs[1]).to.equal(1);
    await new Promise((r) => setImmediate(r));
    expect(started).to.deep.equal([0, 1, 2]);
    works[0].finish();
    works[2].finish();
    await Promise.all([runs[0], runs[2]]);
    await new Promise((r) => setImmediate(r));
    expect(started).to.deep.equal([0, 1, 2, 3, 4]);
    works[3].finish();
    works[4].finish();
    expect(await Promise.all(runs)).to.deep.equal([0, 1, 2, 3, 4]);
  });

  it('frees the slot of a catch-up that failed', async () => {
    const slots = new CatchUpSlots(1);
    await slots.run(() => Promise.reject(new Error('database'))).catch(() => {});
    expect(await slots.run(() => Promise.resolve('next'))).to.equal('next');
  });
});
