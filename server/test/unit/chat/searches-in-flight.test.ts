import { expect } from 'chai';
import { RateLimitedError } from '../../../src/features/errors';
import { SearchesInFlight } from '../../../src/features/chat/message-search';

describe('SearchesInFlight', () => {
  it('runs as many searches of a user at once as allowed, refuses one more with 429 until one ends, and never limits another user', async () => {
    const limit = new SearchesInFlight(2);
    const ends: Array<() => void> = [];
    const search = () => new Promise<string>((resolve) => ends.push(() => resolve('done')));
    const first = limit.run(1, search);
    const second = limit.run(1, search);
    const refused = await limit.run(1, search).then(() => null, (err: unknown) => err);
    expect(refused).to.be.instanceOf(RateLimitedError);
    expect((refused as RateLimitedError).retryAfterSeconds).to.equal(1);
    const other = limit.run(2, search);
    expect(ends).to.have.length(3);

    ends[0]();
    expect(await first).to.equal('done');
    const third = limit.run(1, search);
    expect(ends).to.have.length(4);
    ends.slice(1).forEach((end) => end());
    expect(await Promise.all([second, other, third])).to.deep.equal(['done', 'done', 'done']);
  });

  it('frees the place of a search that failed', async () => {
    const limit = new SearchesInFlight(1);
    await limit.run(1, () => Promise.reject(new Error('database gone'))).catch(() => {});
    expect(await limit.run(1, async () => 'again')).to.equal('again');
  });
});
