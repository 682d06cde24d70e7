// Checking a login cookie (features/accounts/sessions.ts) on a real SQLite database: many checks of
// one cookie the node has not cached share one lookup (a reconnect storm brings a user's 20
// sockets and catch-ups at once), unless a session ended since that lookup started.
import { expect } from 'chai';
import type { Knex } from '../../../src/db/knex';
import { createVerifiedUser } from '../../../src/features/accounts/create-user';
import { SessionCache } from '../../../src/features/accounts/session-cache';
import { Sessions } from '../../../src/features/accounts/sessions';
import { SessionsRepository } from '../../../src/features/accounts/sessions-repository';
import { UsersRepository } from '../../../src/features/accounts/users-repository';
import { memoryDatabase } from '../../support/memory-deps';

/** Counts the lookups that reach the database. */
class CountingRepository extends SessionsRepository {
  lookups = 0;
  override findByTokenHash(tokenHash: string) {
    this.lookups++;
    return super.findByTokenHash(tokenHash);
  }
}

describe('checking a login cookie', () => {
  let db: Knex;
  let repo: CountingRepository;
  let userId: number;
  beforeEach(async () => {
    db = await memoryDatabase();
    repo = new CountingRepository(db);
    userId = (await createVerifiedUser(new UsersRepository(db), { email: 'ann@example.test', name: 'Ann', password: 'secret words' })).id;
  });
  afterEach(() => db.destroy());

  it('shares one database lookup between the checks of a cookie made while it runs', async () => {
    const sessions = new Sessions(repo, () => Date.now(), new SessionCache());
    const { token, sessionId } = await sessions.create(userId);
    const principals = await Promise.all(Array.from({ length: 20 }, () => sessions.authenticate(token)));
    expect(principals.map((p) => p?.sessionId)).to.deep.equal(Array.from({ length: 20 }, () => sessionId));
    expect(repo.lookups).to.equal(1);
  });

  it('does not share a lookup that started before a session ended', async () => {
    const sessions = new Sessions(repo, () => Date.now(), new SessionCache());
    const { token } = await sessions.create(userId);
    const other = await sessions.create(userId);
    const first = sessions.authenticate(token);
    sessions.forgetCached(other.sessionId);
    const second = sessions.authenticate(token);
    await Promise.all([first, second]);
    expect(repo.lookups).to.equal(2);
  });

  it('shares nothing once the lookup is over: with no cache every check asks the database', async () => {
    const sessions = new Sessions(repo, () => Date.now(), new SessionCache(undefined, 0));
    const { token } = await sessions.create(userId);
    await sessions.authenticate(token);
    await sessions.authenticate(token);
    expect(repo.lookups).to.equal(2);
  });
});
