import { expect } from 'chai';
import { api } from '@common/api';
import type { RunningServer } from '../../src/main';
import { ApiClient } from '../support/api-client';
import { forEachDatabase } from '../support/databases';
import { connectStomp } from '../support/stomp-client';
import { startTestServer } from '../support/test-server';
import { createUser, loginClient, newLoggedInUser } from '../support/users';

const MINUTE = 60 * 1000;

forEachDatabase('profile updates, login limit and request refusals', (db) => {
  let server: RunningServer;
  let now = Date.UTC(2026, 10, 21, 6, 0, 0);
  before(async () => {
    server = await startTestServer({ databaseUrl: db.url(), clock: () => now });
  });
  after(async () => {
    await server?.stop();
  });

  describe('PATCH /api/user/info', () => {
    it('sets a new name and password: {status:"success"}, the new password logs in and the old one no longer does', async () => {
      const { user, client } = await newLoggedInUser(server, { name: 'Before' });
      const res = await client.patch(api.userInfo, { name: '새 이름', password: 'new secret', currentPassword: user.password });
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({ status: 'success' });
      expect((await client.get(api.nameAndEmail)).body.name).to.equal('새 이름');
      expect((await new ApiClient(server.url).post(api.login, { email: user.email, password: user.password })).status).to.equal(401);
      expect((await new ApiClient(server.url).post(api.login, { email: user.email, password: 'new secret' })).status).to.equal(200);
    });

    it('answers {status:"name"} and changes nothing when the name is unchanged and the password is the current one', async () => {
      const { user, client } = await newLoggedInUser(server, { name: 'Same' });
      const res = await client.patch(api.userInfo, { name: 'Same', password: user.password });
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({ status: 'name' });
      expect((await new ApiClient(server.url).post(api.login, { email: user.email, password: user.password })).status).to.equal(200);
    });

    it('changes the password alone when the name is unchanged', async () => {
      const { user, client } = await newLoggedInUser(server, { name: 'Same' });
      expect((await client.patch(api.userInfo, { name: 'Same', password: 'other', currentPassword: user.password })).body).to.deep.equal({ status: 'success' });
      expect((await new ApiClient(server.url).post(api.login, { email: user.email, password: 'other' })).status).to.equal(200);
    });

    it('refuses an invalid name or an empty password with 400 and changes nothing', async () => {
      const { user, client } = await newLoggedInUser(server, { name: 'Keep' });
      for (const body of [{ name: 'B0b', password: 'x' }, { name: '', password: 'x' }, { name: 'a'.repeat(101), password: 'x' }, { name: 'Valid', password: '' }, { name: 'Valid' }, { name: '\u3164', password: 'x' }, { name: 'alice\u3164', password: 'x' }, { name: 'ali\uFFA0ce', password: 'x' }]) {
        const res = await client.patch(api.userInfo, body);
        expect(res.status, JSON.stringify(body)).to.equal(400);
        expect(res.body).to.have.keys('error', 'message');
      }
      expect((await client.get(api.nameAndEmail)).body.name).to.equal('Keep');
      expect((await new ApiClient(server.url).post(api.login, { email: user.email, password: user.password })).status).to.equal(200);
    });

    it('changes the name alone with the current password in the one field, needing nothing more', async () => {
      const { user, client } = await newLoggedInUser(server, { name: 'Old Name' });
      expect((await client.patch(api.userInfo, { name: 'New Name', password: user.password })).body).to.deep.equal({ status: 'success' });
      expect((await new ApiClient(server.url).post(api.login, { email: user.email, password: user.password })).status).to.equal(200);
    });

    it('refuses a new password without the current one, or with a wrong one, with 403 and changes nothing', async () => {
      const { user, client } = await newLoggedInUser(server, { name: 'Guarded' });
      const without = await client.patch(api.userInfo, { name: 'Guarded', password: 'stolen session' });
      expect([without.status, without.body.error]).to.deep.equal([403, 'current_password_required']);
      const wrong = await client.patch(api.userInfo, { name: 'Guarded', password: 'stolen session', currentPassword: 'a guess' });
      expect([wrong.status, wrong.body.error]).to.deep.equal([403, 'wrong_current_password']);
      expect((await new ApiClient(server.url).post(api.login, { email: user.email, password: user.password })).status).to.equal(200);
    });

    it('ends every other session of the user when the password changes, and keeps this one', async () => {
      const { user, client } = await newLoggedInUser(server, { name: 'Many Devices' });
      const otherDevice = await loginClient(server, user);
      const otherSocket = await connectStomp(server, otherDevice.cookieHeader());
      expect((await client.patch(api.userInfo, { name: 'Many Devices', password: 'fresh secret', currentPassword: user.password })).status).to.equal(200);
      expect((await otherDevice.get(api.userId)).status).to.equal(401);
      await otherSocket.closed;
      expect((await client.get(api.userId)).status).to.equal(200);
    });

    it('limits password checks like logins: 10 wrong guesses, then 429 with Retry-After even for the right password, until the window passes', async () => {
      const { user, client } = await newLoggedInUser(server, { name: 'Guessed' });
      for (let i = 0; i < 10; i++) {
        const wrong = await client.patch(api.userInfo, { name: 'Guessed', password: 'taken over', currentPassword: `guess ${i}` });
        expect([wrong.status, wrong.body.error], `guess ${i}`).to.deep.equal([403, 'wrong_current_password']);
      }
      const limited = await client.patch(api.userInfo, { name: 'Guessed', password: 'taken over', currentPassword: user.password });
      expect(limited.status).to.equal(429);
      expect(limited.body.message).to.equal('too many failed logins; try again later');
      expect(limited.headers.get('retry-after')).to.equal('900');
      // The one password field is a guess too (200 "name" for the right one, 403 otherwise).
      expect((await client.patch(api.userInfo, { name: 'Guessed', password: user.password })).status).to.equal(429);
      now += 15 * MINUTE;
      expect((await client.patch(api.userInfo, { name: 'Guessed', password: user.password })).body).to.deep.equal({ status: 'name' });
      // The right password forgave the wrong ones: ten more are checked before the limit.
      for (let i = 0; i < 10; i++) expect((await client.patch(api.userInfo, { name: 'Guessed', password: `again ${i}` })).status).to.equal(403);
      expect((await client.patch(api.userInfo, { name: 'Guessed', password: user.password })).status).to.equal(429);
      // Out of the window for the tests after this one (they share the client address).
      now += 15 * MINUTE;
    });

    it('answers 401 without a session', async () => {
      expect((await new ApiClient(server.url).patch(api.userInfo, { name: 'X', password: 'y' })).status).to.equal(401);
    });
  });

  describe('login limit', () => {
    it('answers 429 with Retry-After after 10 failures for one address within 15 minutes, even for the right password, until the window passes', async () => {
      const user = await createUser(server);
      const browser = new ApiClient(server.url);
      for (let i = 0; i < 10; i++) {
        expect((await browser.post(api.login, { email: user.email, password: `wrong ${i}` })).status).to.equal(401);
        now += MINUTE;
      }
      const limited = await browser.post(api.login, { email: user.email, password: user.password });
      expect(limited.status).to.equal(429);
      // The first failure was 10 minutes ago: it leaves the window in 5.
      expect(limited.headers.get('retry-after')).to.equal('300');
      expect(limited.headers.getSetCookie()).to.deep.equal([]);
      // Another address is not affected.
      const other = await createUser(server);
      expect((await browser.post(api.login, { email: other.email, password: other.password })).status).to.equal(200);
      now += 5 * MINUTE;
      expect((await browser.post(api.login, { email: user.email, password: user.password })).status).to.equal(200);
    });

    it('limits unknown addresses the same way', async () => {
      const email = `nobody-${Date.now()}@example.test`;
      for (let i = 0; i < 10; i++) expect((await new ApiClient(server.url).post(api.login, { email, password: 'x' })).status).to.equal(401);
      expect((await new ApiClient(server.url).post(api.login, { email, password: 'x' })).status).to.equal(429);
    });
  });

  describe('request refusals', () => {
    it('refuses a state-changing request from a foreign Origin with 403 and accepts its own origin', async () => {
      const user = await createUser(server);
      const foreign = await new ApiClient(server.url).post(api.login, user, { headers: { origin: 'https://evil.example' } });
      expect(foreign.status).to.equal(403);
      expect(foreign.body).to.have.keys('error', 'message');
      const own = await new ApiClient(server.url).post(api.login, user, { headers: { origin: server.config.publicOrigin } });
      expect(own.status).to.equal(200);
      const { client } = await newLoggedInUser(server);
      expect((await client.patch(api.userInfo, { name: 'Evil', password: 'x' }, { headers: { origin: 'http://evil.example' } })).status).to.equal(403);
      expect((await client.post(api.logout, undefined, { headers: { origin: 'null' } })).status).to.equal(403);
      expect((await client.get(api.userId)).status).to.equal(200);
    });

    it('answers 415 for a body that is not application/json', async () => {
      const user = await createUser(server);
      const res = await new ApiClient(server.url).request('POST', api.login, {
        body: `email=${encodeURIComponent(user.email)}&password=${encodeURIComponent(user.password)}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(res.status).to.equal(415);
    });

    it('answers 413 for a body over 64 KiB', async () => {
      const res = await new ApiClient(server.url).post(api.verificationSend, { email: 'a@example.test', padding: 'x'.repeat(65 * 1024) });
      expect(res.status).to.equal(413);
    });

    it('answers 400 for malformed JSON and for JSON that is not an object, and keeps serving', async () => {
      const bad = await new ApiClient(server.url).request('POST', api.login, { body: '{"email": ', headers: { 'content-type': 'application/json' } });
      expect(bad.status).to.equal(400);
      expect(bad.body.error).to.equal('malformed_json');
      for (const body of ['[]', 'null', '"text"', '42']) {
        const res = await new ApiClient(server.url).request('POST', api.signUp, { body, headers: { 'content-type': 'application/json' } });
        expect(res.status, body).to.equal(400);
      }
      const user = await createUser(server);
      expect((await loginClient(server, user)).cookies.has('sid')).to.equal(true);
    });
  });
});
