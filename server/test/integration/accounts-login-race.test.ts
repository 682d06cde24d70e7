// The login failure limit (10 per address in 15 minutes) must hold when the guesses arrive
// together: each attempt is counted before its slow password check, not after it.
import { expect } from 'chai';
import { api } from '@common/api';
import type { RunningServer } from '../../src/main';
import { ApiClient } from '../support/api-client';
import { forEachDatabase } from '../support/databases';
import { startTestServer } from '../support/test-server';
import { createUser } from '../support/users';

const PARALLEL_GUESSES = 30;
const LIMIT = 10;

forEachDatabase('login failure limit under parallel requests', (db) => {
  let server: RunningServer;
  const now = Date.UTC(2026, 10, 21, 6, 0, 0);
  before(async () => {
    server = await startTestServer({ databaseUrl: db.url(), clock: () => now });
  });
  after(async () => {
    await server?.stop();
  });

  function login(email: string, password: string) {
    return new ApiClient(server.url).post(api.login, { email, password });
  }

  it('checks at most 10 of 30 parallel wrong passwords, refuses the rest with 429 and Retry-After, and then refuses the right one too', async () => {
    const user = await createUser(server);
    const answers = await Promise.all(Array.from({ length: PARALLEL_GUESSES }, (_, i) => login(user.email, `wrong ${i}`)));
    const statuses = answers.map((r) => r.status);
    expect(statuses.every((s) => s === 401 || s === 429), `statuses ${statuses.join(',')}`).to.equal(true);
    expect(statuses.filter((s) => s === 401).length).to.be.at.most(LIMIT);
    for (const refused of answers.filter((r) => r.status === 429)) {
      expect(Number(refused.headers.get('retry-after'))).to.be.greaterThan(0);
    }
    const right = await login(user.email, user.password);
    expect(right.status).to.equal(429);
    expect(Number(right.headers.get('retry-after'))).to.be.greaterThan(0);
  });

  it('holds the same limit for parallel guesses at an unknown address', async () => {
    const email = 'nobody-parallel@example.test';
    const answers = await Promise.all(Array.from({ length: PARALLEL_GUESSES }, (_, i) => login(email, `wrong ${i}`)));
    expect(answers.filter((r) => r.status === 401).length).to.be.at.most(LIMIT);
    expect(answers.filter((r) => r.status === 429).length).to.be.at.least(PARALLEL_GUESSES - LIMIT);
  });

  it('does not count a successful login as a failure: after one, 10 more wrong passwords are checked before the limit', async () => {
    const user = await createUser(server);
    for (let i = 0; i < LIMIT - 1; i++) expect((await login(user.email, `wrong ${i}`)).status).to.equal(401);
    expect((await login(user.email, user.password)).status).to.equal(200);
    expect(await server.db('login_failures').where({ email: user.email }).select('id')).to.deep.equal([]);
    for (let i = 0; i < LIMIT; i++) expect((await login(user.email, `wrong again ${i}`)).status).to.equal(401);
    expect((await login(user.email, user.password)).status).to.equal(429);
  });
});
