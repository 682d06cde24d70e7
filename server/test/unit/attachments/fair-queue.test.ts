import { expect } from 'chai';
import { FairQueue } from '../../../src/features/attachments/fair-queue';

/** A job that runs until the test lets it finish, recording when it started. */
function jobs() {
  const started: string[] = [];
  const finish = new Map<string, () => void>();
  const job = (name: string) => () => new Promise<string>((resolve) => {
    started.push(name);
    finish.set(name, () => resolve(name));
  });
  /** Lets the running job finish and the queue start what comes next. */
  const end = async (name: string) => {
    finish.get(name)!();
    for (let i = 0; i < 5; i += 1) await Promise.resolve();
  };
  return { started, job, end };
}

describe('thumbnails: the fair queue', () => {
  it('serves users in turn with one slot: a user\'s small job waits for the running one only, not for another user\'s 12 queued', async () => {
    const q = new FairQueue({ slots: 1, perKey: 1 });
    const { started, job, end } = jobs();
    const flood = Array.from({ length: 12 }, (_, i) => q.run(1, job(`big${i}`)));
    const small = q.run(2, job('small'));
    expect(started).to.deep.equal(['big0']);
    await end('big0');
    expect(started).to.deep.equal(['big0', 'small']);
    await end('small');
    expect(await small).to.equal('small');
    expect(started).to.deep.equal(['big0', 'small', 'big1']);
    for (let i = 1; i < 12; i += 1) await end(`big${i}`);
    expect(await Promise.all(flood)).to.have.length(12);
    expect(q.pending).to.equal(0);
  });

  it('with two slots and one per user, a flooding user never holds both: another user\'s job starts at once', async () => {
    const q = new FairQueue({ slots: 2, perKey: 1 });
    const { started, job, end } = jobs();
    for (let i = 0; i < 12; i += 1) void q.run(1, job(`big${i}`));
    expect(started, 'the flood takes one slot only').to.deep.equal(['big0']);
    void q.run(2, job('small'));
    expect(started, 'the small job starts without waiting').to.deep.equal(['big0', 'small']);
    await end('small');
    expect(started).to.deep.equal(['big0', 'small']);
    await end('big0');
    expect(started).to.deep.equal(['big0', 'small', 'big1']);
  });

  it('rotates between three users one job each turn, and a failed job frees its slot', async () => {
    const q = new FairQueue({ slots: 1, perKey: 1 });
    const { started, job, end } = jobs();
    void q.run('a', job('a0'));
    void q.run('a', job('a1'));
    void q.run('b', job('b0'));
    void q.run('b', job('b1'));
    const failed = q.run('c', () => Promise.reject(new Error('broken image')));
    void q.run('c', job('c1'));
    await end('a0');
    await end('b0');
    expect(await failed.catch((err: Error) => err.message)).to.equal('broken image');
    for (let i = 0; i < 5; i += 1) await Promise.resolve();
    // a, b and c (whose job failed) had a turn each: a again, then b, then c.
    expect(started).to.deep.equal(['a0', 'b0', 'a1']);
    await end('a1');
    expect(started).to.deep.equal(['a0', 'b0', 'a1', 'b1']);
    await end('b1');
    expect(started).to.deep.equal(['a0', 'b0', 'a1', 'b1', 'c1']);
  });
});
