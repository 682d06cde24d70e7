import { expect } from 'chai';
import { MembersCache } from '../../../src/features/chat/members-cache';
import type { ChatUser } from '../../../src/features/chat/rooms-repository';

describe('MembersCache', () => {
  let now: number;
  let loads: number;
  let members: ChatUser[];
  let cache: MembersCache;
  beforeEach(() => {
    now = 0;
    loads = 0;
    members = [{ id: 1, name: 'A', email: 'a@x.test' }];
    cache = new MembersCache(async () => {
      loads += 1;
      return members;
    }, () => now, 3000);
  });

  /** A cache whose loads wait until the test resolves them (pending, in order), counting them. */
  const controlledCache = () => {
    const pending: Array<(list: ChatUser[]) => void> = [];
    let count = 0;
    const controlled = new MembersCache(() => {
      count += 1;
      return new Promise<ChatUser[]>((resolve) => pending.push(resolve));
    }, () => now, 3000);
    return { controlled, pending, loads: () => count };
  };

  it('answers from memory within its time limit and reloads after it', async () => {
    await cache.get(9);
    now = 2999;
    await cache.get(9);
    expect(loads).to.equal(1);
    now = 6000;
    await cache.get(9);
    expect(loads).to.equal(2);
  });

  it('past its time limit but within twice it, answers the old list at once and reloads behind the caller', async () => {
    const { controlled, pending, loads } = controlledCache();
    const first = controlled.get(9);
    pending.shift()!([{ id: 1, name: 'A', email: 'a@x.test' }]);
    await first;
    now = 4000;
    // Answered without waiting for the reload it started (which the test has not resolved).
    expect((await controlled.get(9)).map((m) => m.name)).to.deep.equal(['A']);
    expect((await controlled.get(9)).map((m) => m.name)).to.deep.equal(['A']);
    expect(loads()).to.equal(2);
    pending.shift()!([{ id: 1, name: 'A renamed', email: 'a@x.test' }]);
    await new Promise((resolve) => setImmediate(resolve));
    expect((await controlled.get(9)).map((m) => m.name)).to.deep.equal(['A renamed']);
    expect(loads()).to.equal(2);
  });

  it('waits for the reload of an entry twice as old as its time limit, or one invalidated', async () => {
    const { controlled, pending, loads } = controlledCache();
    const first = controlled.get(9);
    pending.shift()!([{ id: 1, name: 'A', email: 'a@x.test' }]);
    await first;
    now = 6000;
    let settled = false;
    const late = controlled.get(9).then((list) => {
      settled = true;
      return list;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).to.equal(false);
    pending.shift()!([{ id: 1, name: 'A renamed', email: 'a@x.test' }]);
    expect((await late).map((m) => m.name)).to.deep.equal(['A renamed']);
    now = 7000;
    controlled.invalidate(9);
    const afterInvalidate = controlled.get(9);
    expect(loads()).to.equal(3);
    pending.shift()!([]);
    expect(await afterInvalidate).to.deep.equal([]);
  });

  it('reloads at once when the expected member is missing, or after invalidation', async () => {
    await cache.get(9);
    members = [...members, { id: 2, name: 'B', email: 'b@x.test' }];
    expect((await cache.get(9, 2)).map((m) => m.id)).to.deep.equal([1, 2]);
    expect(loads).to.equal(2);
    cache.invalidate(9);
    await cache.get(9);
    expect(loads).to.equal(3);
  });

  it('does not cache a list loaded before an invalidation that happened while it was loading', async () => {
    const { controlled, pending, loads } = controlledCache();
    const before = [{ id: 1, name: 'A', email: 'a@x.test' }, { id: 2, name: 'Leaver', email: 'l@x.test' }];
    const after = [{ id: 1, name: 'A', email: 'a@x.test' }];

    const staleGet = controlled.get(9);
    controlled.invalidate(9); // the leave commits while the load above is still running
    pending.shift()!(before);
    expect(await staleGet).to.deep.equal(before);

    const nextGet = controlled.get(9);
    expect(loads()).to.equal(2);
    pending.shift()!(after);
    expect(await nextGet).to.deep.equal(after);
    expect(await controlled.get(9)).to.deep.equal(after);
    expect(loads()).to.equal(2);
  });

  it('shares one load among the callers that ask while it runs, but not with callers after an invalidation', async () => {
    const { controlled, pending, loads } = controlledCache();
    const withLeaver = [{ id: 1, name: 'A', email: 'a@x.test' }, { id: 2, name: 'Leaver', email: 'l@x.test' }];
    const after = [{ id: 1, name: 'A', email: 'a@x.test' }];

    const first = controlled.get(9);
    const second = controlled.get(9);
    const third = controlled.get(9, 1);
    expect(loads()).to.equal(1);
    controlled.invalidate(9);
    const afterLeave = controlled.get(9);
    expect(loads()).to.equal(2);
    pending.shift()!(withLeaver);
    pending.shift()!(after);
    expect(await first).to.deep.equal(withLeaver);
    expect(await second).to.deep.equal(withLeaver);
    expect(await third).to.deep.equal(withLeaver);
    expect(await afterLeave).to.deep.equal(after);
    expect(await controlled.get(9)).to.deep.equal(after);
    expect(loads()).to.equal(2);
  });

  it('loads again when the member a caller expects is missing from the shared load', async () => {
    const { controlled, pending } = controlledCache();
    const before = [{ id: 1, name: 'A', email: 'a@x.test' }];
    const joined = [...before, { id: 3, name: 'Joiner', email: 'j@x.test' }];
    const plain = controlled.get(9);
    const expecting = controlled.get(9, 3);
    pending.shift()!(before);
    expect(await plain).to.deep.equal(before);
    await new Promise((resolve) => setImmediate(resolve));
    expect(pending).to.have.length(1);
    pending.shift()!(joined);
    expect(await expecting).to.deep.equal(joined);
  });
});
