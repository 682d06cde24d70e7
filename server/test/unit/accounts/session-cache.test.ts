import { expect } from 'chai';
import { SessionCache } from '../../../src/features/accounts/session-cache';
import { Sessions } from '../../../src/features/accounts/sessions';
import type { SessionsRepository } from '../../../src/features/accounts/sessions-repository';
import { sha256Hex } from '../../../src/features/accounts/tokens';

/** The sessions table in memory, counting lookups. */
class CountingRepo {
  rows = new Map<number, { id: number; tokenHash: string; userId: number; lastSeenAtMs: number }>();
  lookups = 0;
  private next = 1;
  async insert(tokenHash: string, userId: number, nowMs: number): Promise<number> {
    const id = this.next++;
    this.rows.set(id, { id, tokenHash, userId, lastSeenAtMs: nowMs });
    return id;
  }
  async findByTokenHash(tokenHash: string) {
    this.lookups += 1;
    return [...this.rows.values()].find((r) => r.tokenHash === tokenHash) ?? null;
  }
  async touch(id: number, nowMs: number): Promise<void> {
    const row = this.rows.get(id);
    if (row) row.lastSeenAtMs = nowMs;
  }
  async delete(id: number): Promise<void> {
    this.rows.delete(id);
  }
  async deleteIdleOf(): Promise<void> {}
  async idsOfUserExcept(): Promise<number[]> {
    return [];
  }
}

describe('the session cache', () => {
  it('answers a checked cookie without a lookup for 5 s, and a logout at once', async () => {
    const repo = new CountingRepo();
    const now = 1_000_000;
    let real = 0;
    const sessions = new Sessions(repo as unknown as SessionsRepository, () => now, new SessionCache(() => real));
    const { token, sessionId } = await sessions.create(7);
    expect(await sessions.authenticate(token)).to.deep.equal({ userId: 7, sessionId });
    expect(await sessions.authenticate(token)).to.deep.equal({ userId: 7, sessionId });
    expect(repo.lookups).to.equal(1);
    real += 5000;
    expect(await sessions.authenticate(token)).to.deep.equal({ userId: 7, sessionId });
    expect(repo.lookups).to.equal(2);

    await sessions.destroy(sessionId);
    expect(await sessions.authenticate(token)).to.equal(null);
  });

  it('goes to the database when the session is due a touch, so idle expiry and last use stay exact', async () => {
    const repo = new CountingRepo();
    let now = 1_000_000;
    const sessions = new Sessions(repo as unknown as SessionsRepository, () => now, new SessionCache(() => 0));
    const { token } = await sessions.create(7);
    await sessions.authenticate(token);
    now += 60_000;
    await sessions.authenticate(token);
    expect(repo.lookups).to.equal(2);
    expect([...repo.rows.values()][0].lastSeenAtMs).to.equal(now);
    now += 14 * 24 * 60 * 60 * 1000;
    expect(await sessions.authenticate(token)).to.equal(null);
  });

  it('does not remember a lookup that overlapped the end of a session', () => {
    const cache = new SessionCache(() => 0);
    const generation = cache.generation();
    cache.forget('3');
    cache.put(sha256Hex('t'), { userId: 1, sessionId: '3' }, 0, generation);
    expect(cache.get(sha256Hex('t'))).to.equal(null);
    cache.put(sha256Hex('t'), { userId: 1, sessionId: '3' }, 0, cache.generation());
    expect(cache.get(sha256Hex('t'))?.principal).to.deep.equal({ userId: 1, sessionId: '3' });
  });
});
