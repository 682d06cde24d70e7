// The accounts rules through the real repositories on SQLite :memory:: logging in, the failure
// limit, sessions and their sockets, the profile.
import { expect } from 'chai';
import { createAccounts, type AccountsFeature } from '../../../src/features/accounts';
import { createVerifiedUser } from '../../../src/features/accounts/create-user';
import { ForbiddenError, InvalidError, RateLimitedError, UnauthenticatedError } from '../../../src/features/errors';
import { memoryDeps, type MemoryDeps } from '../../support/memory-deps';

describe('account rules on a real database', () => {
  let deps: MemoryDeps;
  let accounts: AccountsFeature;
  let userId: number;

  beforeEach(async () => {
    deps = await memoryDeps();
    accounts = createAccounts(deps);
    userId = (await createVerifiedUser(accounts.users, { email: 'ann@example.test', name: 'Ann', password: 'secret words' })).id;
  });

  afterEach(() => deps.db.destroy());

  async function refusal(promise: Promise<unknown>): Promise<unknown> {
    try {
      await promise;
    } catch (err) {
      return err;
    }
    return expect.fail('not refused');
  }

  it('logs in with the right password, case-insensitively by e-mail, and opens a session that authenticates', async () => {
    const { user, session } = await accounts.accounts.login(' ANN@example.test ', 'secret words', '203.0.113.1');
    expect(user.id).to.equal(userId);
    expect(await accounts.sessions.authenticate(session.token)).to.deep.equal({ userId, sessionId: session.sessionId });
  });

  it('refuses a wrong password or unknown address alike', async () => {
    expect(await refusal(accounts.accounts.login('ann@example.test', 'wrong', '203.0.113.1'))).to.be.instanceOf(UnauthenticatedError);
    expect(await refusal(accounts.accounts.login('nobody@example.test', 'secret words', '203.0.113.1'))).to.be.instanceOf(UnauthenticatedError);
  });

  it('refuses the 11th attempt within 15 minutes after 10 failures, even with the right password, then forgives', async () => {
    for (let i = 0; i < 10; i++) await refusal(accounts.accounts.login('ann@example.test', `wrong ${i}`, '203.0.113.1'));
    const limited = await refusal(accounts.accounts.login('ann@example.test', 'secret words', '203.0.113.1'));
    expect(limited).to.be.instanceOf(RateLimitedError);
    expect((limited as RateLimitedError).retryAfterSeconds).to.be.within(1, 15 * 60);
    deps.advance(15 * 60 * 1000 + 1);
    expect((await accounts.accounts.login('ann@example.test', 'secret words', '203.0.113.1')).user.id).to.equal(userId);
  });

  it('lets the owner in from a clean address while the guesser\'s address waits (a slow-down, not a lockout)', async () => {
    const attacker = '198.51.100.66';
    for (let i = 0; i < 10; i++) await refusal(accounts.accounts.login('ann@example.test', `guess ${i}`, attacker));
    expect(await refusal(accounts.accounts.login('ann@example.test', 'secret words', attacker))).to.be.instanceOf(RateLimitedError);
    const owner = await accounts.accounts.login('ann@example.test', 'secret words', '203.0.113.7');
    expect(owner.user.id).to.equal(userId);
  });

  it('holds back an address that fails on many accounts (credential stuffing), whatever the accounts', async () => {
    const stuffer = '198.51.100.99';
    for (let i = 0; i < 30; i++) {
      expect(await refusal(accounts.accounts.login(`victim${i}@example.test`, 'password1', stuffer))).to.be.instanceOf(UnauthenticatedError);
    }
    expect(await refusal(accounts.accounts.login('ann@example.test', 'secret words', stuffer))).to.be.instanceOf(RateLimitedError);
    // Another address is not held back by it.
    expect((await accounts.accounts.login('ann@example.test', 'secret words', '203.0.113.8')).user.id).to.equal(userId);
  });

  it('limits password checks of a profile update per address with logins: failed logins there count, and wrong passwords count for logins', async () => {
    const { session } = await accounts.accounts.login('ann@example.test', 'secret words', '203.0.113.1');
    const guesser = '198.51.100.42';
    for (let i = 0; i < 25; i++) await refusal(accounts.accounts.login(`victim${i}@example.test`, 'password1', guesser));
    for (let i = 0; i < 5; i++) {
      expect(await refusal(accounts.accounts.updateInfo(userId, session.sessionId, 'Ann', `guess ${i}`, null, guesser))).to.be.instanceOf(ForbiddenError);
    }
    expect(await refusal(accounts.accounts.updateInfo(userId, session.sessionId, 'Ann', 'secret words', null, guesser))).to.be.instanceOf(RateLimitedError);
    expect(await refusal(accounts.accounts.login('ann@example.test', 'secret words', guesser))).to.be.instanceOf(RateLimitedError);
    // The user from another address is checked: the guesses were the address's, not yet the user's limit.
    expect(await accounts.accounts.updateInfo(userId, session.sessionId, 'Ann', 'secret words', null, '203.0.113.1')).to.equal('name');
  });

  it('ends a session and closes its sockets in one step', async () => {
    const { session } = await accounts.accounts.login('ann@example.test', 'secret words', '203.0.113.1');
    await accounts.accounts.endSession(session.sessionId);
    expect(await accounts.sessions.authenticate(session.token)).to.equal(null);
    expect(deps.publisher.closedAuthSessions).to.deep.equal([session.sessionId]);
  });

  it('refuses an empty cookie token without a lookup', async () => {
    expect(await accounts.sessions.authenticate('')).to.equal(null);
  });

  it('updates name and password, says "name" for no change, and refuses an invalid name or empty password', async () => {
    const { session } = await accounts.accounts.login('ann@example.test', 'secret words', '203.0.113.1');
    expect(await accounts.accounts.updateInfo(userId, session.sessionId, 'Ann', 'secret words', null, '127.0.0.1')).to.equal('name');
    expect(await accounts.accounts.updateInfo(userId, session.sessionId, '안나', 'new secret', 'secret words', '127.0.0.1')).to.equal('success');
    expect((await accounts.accounts.login('ann@example.test', 'new secret', '203.0.113.1')).user.name).to.equal('안나');
    expect(await refusal(accounts.accounts.updateInfo(userId, session.sessionId, '1nvalid', 'x', null, '127.0.0.1'))).to.be.instanceOf(InvalidError);
    expect(await refusal(accounts.accounts.updateInfo(userId, session.sessionId, 'Ann', '', null, '127.0.0.1'))).to.be.instanceOf(InvalidError);
  });

  it('needs the current password to set a new one, then ends the other sessions and closes their sockets', async () => {
    const here = (await accounts.accounts.login('ann@example.test', 'secret words', '203.0.113.1')).session;
    const there = (await accounts.accounts.login('ann@example.test', 'secret words', '203.0.113.2')).session;
    expect(await refusal(accounts.accounts.updateInfo(userId, here.sessionId, 'Ann', 'hijacked', null, '127.0.0.1'))).to.be.instanceOf(ForbiddenError);
    expect(await refusal(accounts.accounts.updateInfo(userId, here.sessionId, 'Ann', 'hijacked', 'wrong', '127.0.0.1'))).to.be.instanceOf(ForbiddenError);
    expect(deps.publisher.closedAuthSessions).to.deep.equal([]);
    expect(await accounts.accounts.updateInfo(userId, here.sessionId, 'Ann', 'renewed', 'secret words', '127.0.0.1')).to.equal('success');
    expect(await accounts.sessions.authenticate(there.token)).to.equal(null);
    expect(await accounts.sessions.authenticate(here.token)).to.deep.include({ userId });
    expect(deps.publisher.closedAuthSessions).to.deep.equal([there.sessionId]);
  });
});
