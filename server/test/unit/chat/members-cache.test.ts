import { expect } from 'chai';
import { MembersCache } from '../../../src/features/messages/members-cache';
import type { ChatUser } from '../../../src/features/rooms/rooms-repository';

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

  it('answers from memory within its time limit and reloads after it', async () => {
    await cache.get(9);
    now = 2999;
    await cache.get(9);
    expect(loads).to.equal(1);
    now = 3000;
    await cache.get(9);
    expect(loads).to.equal(2);
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
});
