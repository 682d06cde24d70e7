import crypto from 'node:crypto';
import { expect } from 'chai';
import { api } from '@common/api';
import type { RunningServer } from '../../src/main';
import { ApiClient } from '../support/api-client';
import { forEachDatabase } from '../support/databases';
import { startTestServer } from '../support/test-server';
import { createUser, loginClient, newLoggedInUser } from '../support/users';

const DAY = 24 * 60 * 60 * 1000;

forEachDatabase('login, sessions and logout', (db) => {
  let server: RunningServer;
  let now = Date.UTC(2026, 10, 21, 6, 0, 0);
  before(async () => {
    server = await startTestServer({ databaseUrl: db.url(), clock: () => now });
  });
  after(async () => {
    await server?.stop();
  });

  it('logs a user in with the right password: 200 {name, userId} and an HttpOnly SameSite=Lax session cookie', async () => {
    const user = await createUser(server, { name: '김철수' });
    const client = new ApiClient(server.url);
    const res = await client.post(api.login, { email: user.email, password: user.password });
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ name: '김철수', userId: user.userId });
    const setCookie = res.headers.getSetCookie().find((c) => c.startsWith('sid='));
    expect(setCookie).to.match(/HttpOnly/i).and.match(/SameSite=Lax/i).and.match(/Path=\//);
    expect(setCookie).not.to.match(/Secure/i);
    // 256 random bits, base64url.
    expect(client.cookies.get('sid')).to.match(/^[A-Za-z0-9_-]{43}$/);
  });

  it('stores only the SHA-256 of the session token and an argon2id hash with OWASP parameters of the password', async () => {
    const { user, client } = await newLoggedInUser(server);
    const token = client.cookies.get('sid')!;
    const sessions = await server.db('sessions').where({ user_id: user.userId });
    expect(sessions).to.have.length(1);
    expect(sessions[0].token_hash).to.equal(crypto.createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(sessions)).not.to.contain(token);
    const row = await server.db('users').where({ id: user.userId }).first();
    expect(row.password_hash).to.match(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });

  it('accepts the address in any letter case', async () => {
    const user = await createUser(server);
    const res = await new ApiClient(server.url).post(api.login, { email: user.email.toUpperCase(), password: user.password });
    expect(res.status).to.equal(200);
  });

  it('answers the same 401 body for a wrong password and for an unknown address', async () => {
    const user = await createUser(server);
    const wrong = await new ApiClient(server.url).post(api.login, { email: user.email, password: 'not it' });
    const unknown = await new ApiClient(server.url).post(api.login, { email: 'nobody@example.test', password: 'not it' });
    expect(wrong.status).to.equal(401);
    expect(unknown.status).to.equal(401);
    expect(wrong.body).to.deep.equal(unknown.body);
    expect(wrong.body).to.have.keys('error', 'message');
    expect(wrong.headers.getSetCookie()).to.deep.equal([]);
  });

  it('refuses a login body without string fields with 400', async () => {
    const res = await new ApiClient(server.url).post(api.login, { email: 42 });
    expect(res.status).to.equal(400);
    expect(res.body.error).to.be.a('string');
  });

  it('tells a signed-in user their id, name and e-mail, and never a password hash', async () => {
    const { user, client } = await newLoggedInUser(server, { name: 'Alice' });
    const id = await client.get(api.userId);
    expect(id.status).to.equal(200);
    expect(id.body).to.deep.equal({ userId: user.userId });
    const profile = await client.get(api.nameAndEmail);
    expect(profile.status).to.equal(200);
    expect(profile.body).to.deep.equal({ name: 'Alice', email: user.email });
    expect(profile.text + id.text).not.to.match(/argon2/);
  });

  it('answers 401 without a session cookie and with a forged one', async () => {
    for (const path of [api.userId, api.nameAndEmail]) {
      expect((await new ApiClient(server.url).get(path)).status).to.equal(401);
      const forged = new ApiClient(server.url);
      forged.cookies.set('sid', 'A'.repeat(43));
      expect((await forged.get(path)).status).to.equal(401);
    }
    expect((await new ApiClient(server.url).post(api.logout)).status).to.equal(401);
  });

  it('issues a new token at every login and the previous one stops working', async () => {
    const user = await createUser(server);
    const client = await loginClient(server, user);
    const first = client.cookies.get('sid')!;
    const again = await client.post(api.login, { email: user.email, password: user.password });
    expect(again.status).to.equal(200);
    const second = client.cookies.get('sid')!;
    expect(second).not.to.equal(first);
    expect((await client.get(api.userId)).status).to.equal(200);
    const stale = new ApiClient(server.url);
    stale.cookies.set('sid', first);
    expect((await stale.get(api.userId)).status).to.equal(401);
  });

  it('keeps other browsers signed in when the same user logs in elsewhere', async () => {
    const user = await createUser(server);
    const phone = await loginClient(server, user);
    const laptop = await loginClient(server, user);
    expect((await phone.get(api.userId)).status).to.equal(200);
    expect((await laptop.get(api.userId)).status).to.equal(200);
  });

  it('ends the session at logout: the cookie is cleared and the old token answers 401', async () => {
    const { client } = await newLoggedInUser(server);
    const token = client.cookies.get('sid')!;
    const res = await client.post(api.logout);
    expect(res.status).to.equal(200);
    expect(client.cookies.has('sid')).to.equal(false);
    const replay = new ApiClient(server.url);
    replay.cookies.set('sid', token);
    expect((await replay.get(api.userId)).status).to.equal(401);
  });

  it('expires a session after 14 idle days but keeps a session in use alive', async () => {
    const idle = await newLoggedInUser(server);
    const busy = await newLoggedInUser(server);
    now += 10 * DAY;
    expect((await busy.client.get(api.userId)).status).to.equal(200);
    now += 4 * DAY;
    expect((await idle.client.get(api.userId)).status).to.equal(401);
    expect((await busy.client.get(api.userId)).status).to.equal(200);
    now += 14 * DAY - 1000;
    expect((await busy.client.get(api.nameAndEmail)).status).to.equal(200);
    now += 14 * DAY;
    expect((await busy.client.get(api.nameAndEmail)).status).to.equal(401);
  });
});
