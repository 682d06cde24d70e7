import crypto from 'node:crypto';
import { expect } from 'chai';
import { OAuth2Server } from 'oauth2-mock-server';
import { api, type OAuthProvider } from '@common/api';
import type { RunningServer } from '../../src/main';
import { ApiClient, type ApiResponse } from '../support/api-client';
import { forEachDatabase } from '../support/databases';
import { PENDING_LIMITS } from '../../src/features/oauth/oauth-service';
import { startTestServer } from '../support/test-server';
import { createUser } from '../support/users';

/** A local OAuth 2.0 server standing in for one provider; its user-info body is set per test. */
class FakeProvider {
  readonly server = new OAuth2Server();
  userInfo: Record<string, unknown> = {};
  tokenRequests: Record<string, string>[] = [];

  async start(): Promise<this> {
    await this.server.issuer.keys.generate('RS256');
    await this.server.start(0, '127.0.0.1');
    this.server.service.on('beforeUserinfo', (response: { body: unknown }) => {
      response.body = this.userInfo;
    });
    this.server.service.on('beforeResponse', (_response: unknown, req: { body: Record<string, string> }) => {
      this.tokenRequests.push({ ...req.body });
    });
    return this;
  }

  get base(): string {
    return `http://127.0.0.1:${this.server.address().port}`;
  }

  env(prefix: 'GOOGLE' | 'KAKAO'): Record<string, string> {
    return {
      [`${prefix}_CLIENT_ID`]: `${prefix.toLowerCase()}-client`,
      [`${prefix}_CLIENT_SECRET`]: `${prefix.toLowerCase()}-secret`,
      [`${prefix}_AUTH_URL`]: `${this.base}/authorize`,
      [`${prefix}_TOKEN_URL`]: `${this.base}/token`,
      [`${prefix}_USERINFO_URL`]: `${this.base}/userinfo`,
    };
  }

  async stop(): Promise<void> {
    await this.server.stop();
  }
}

const unique = () => crypto.randomBytes(5).toString('hex');

forEachDatabase('sign-in with Google and Kakao', (db) => {
  let server: RunningServer;
  let google: FakeProvider;
  let kakao: FakeProvider;

  before(async () => {
    google = await new FakeProvider().start();
    kakao = await new FakeProvider().start();
    server = await startTestServer({ databaseUrl: db.url(), env: { ...google.env('GOOGLE'), ...kakao.env('KAKAO') } });
  });
  after(async () => {
    await server?.stop();
    await google?.stop();
    await kakao?.stop();
  });

  /** What a browser does: ask for the start URL, visit the provider, follow its redirect back. */
  async function signIn(provider: OAuthProvider, browser = new ApiClient(server.url)): Promise<{ browser: ApiClient; callback: ApiResponse; back: URL }> {
    const start = await browser.get(api.oauthLogin(provider));
    expect(start.status, start.text).to.equal(200);
    const atProvider = await fetch(start.body.url, { redirect: 'manual' });
    expect(atProvider.status).to.equal(302);
    const back = new URL(atProvider.headers.get('location')!);
    const callback = await browser.get(back.pathname + back.search);
    return { browser, callback, back };
  }

  function googleUser(overrides: Record<string, unknown> = {}) {
    google.userInfo = { sub: `g-${unique()}`, email: `g-${unique()}@gmail.test`, email_verified: true, name: 'Google Person', ...overrides };
    return google.userInfo;
  }

  function kakaoUser(account: Record<string, unknown> = {}) {
    kakao.userInfo = {
      id: Number.parseInt(unique(), 16),
      kakao_account: { email: `k-${unique()}@kakao.test`, is_email_verified: true, is_email_valid: true, profile: { nickname: '카카오친구' }, ...account },
    };
    return kakao.userInfo as { id: number; kakao_account: Record<string, unknown> };
  }

  it('starts with the provider URL: client id, exact redirect_uri, one-time state, PKCE S256, and a state cookie', async () => {
    const browser = new ApiClient(server.url);
    const res = await browser.get(api.oauthLogin('google'));
    expect(res.status).to.equal(200);
    expect(res.body).to.have.keys('url');
    const url = new URL(res.body.url);
    expect(url.origin + url.pathname).to.equal(`${google.base}/authorize`);
    expect(url.searchParams.get('client_id')).to.equal('google-client');
    expect(url.searchParams.get('response_type')).to.equal('code');
    expect(url.searchParams.get('redirect_uri')).to.equal(`${server.config.publicUrl}/api/oauth/google/callback`);
    expect(url.searchParams.get('code_challenge_method')).to.equal('S256');
    expect(url.searchParams.get('code_challenge')).to.match(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get('state')).to.equal(browser.cookies.get('oauth_state'));
    const setCookie = res.headers.getSetCookie().find((c) => c.startsWith('oauth_state='))!;
    expect(setCookie).to.match(/HttpOnly/i).and.match(/SameSite=Lax/i).and.match(/Max-Age=\d+/);
    const again = await new ApiClient(server.url).get(api.oauthLogin('google'));
    expect(new URL(again.body.url).searchParams.get('state')).not.to.equal(url.searchParams.get('state'));
  });

  it('signs a new Google user in: redirect to /chat-list with a session, an account with their name and address', async () => {
    const profile = googleUser({ name: 'Grace Hopper' });
    const { browser, callback } = await signIn('google');
    expect(callback.status).to.equal(302);
    expect(callback.headers.get('location')).to.equal('/chat-list');
    expect(browser.cookies.has('sid')).to.equal(true);
    expect(browser.cookies.has('oauth_state')).to.equal(false);
    const me = await browser.get(api.nameAndEmail);
    expect(me.status).to.equal(200);
    expect(me.body).to.deep.equal({ name: 'Grace Hopper', email: profile.email });
    // The code was exchanged with the PKCE verifier and the same redirect_uri.
    const token = google.tokenRequests.at(-1)!;
    expect(token.grant_type).to.equal('authorization_code');
    expect(token.redirect_uri).to.equal(`${server.config.publicUrl}/api/oauth/google/callback`);
    expect(token.client_secret).to.equal('google-secret');
    expect(token.code_verifier).to.match(/^[A-Za-z0-9_-]{43,128}$/);
  });

  it('signs the same Google identity into the same account the next time', async () => {
    googleUser();
    const first = await signIn('google');
    const firstId = (await first.browser.get(api.userId)).body.userId;
    // The address changed at Google: the identity, not the address, decides.
    google.userInfo = { ...google.userInfo, email: `changed-${unique()}@gmail.test` };
    const second = await signIn('google');
    expect(second.callback.headers.get('location')).to.equal('/chat-list');
    expect((await second.browser.get(api.userId)).body.userId).to.equal(firstId);
  });

  it('joins an existing account when Google says the address is verified', async () => {
    const user = await createUser(server, { name: 'Existing' });
    googleUser({ email: user.email, email_verified: true });
    const { browser, callback } = await signIn('google');
    expect(callback.headers.get('location')).to.equal('/chat-list');
    expect((await browser.get(api.userId)).body).to.deep.equal({ userId: user.userId });
    expect((await browser.get(api.nameAndEmail)).body.name).to.equal('Existing');
  });

  it('refuses to join an existing account on an address Google has not verified', async () => {
    const user = await createUser(server);
    googleUser({ email: user.email, email_verified: false });
    const { browser, callback } = await signIn('google');
    expect(callback.status).to.equal(302);
    expect(callback.headers.get('location')).to.equal('/login?oauthError=google');
    expect(browser.cookies.has('sid')).to.equal(false);
  });

  it('creates no account on an address Google has not verified, so nobody can squat it', async () => {
    const profile = googleUser({ email_verified: false });
    const { browser, callback } = await signIn('google');
    expect(callback.headers.get('location')).to.equal('/login?oauthError=google');
    expect(browser.cookies.has('sid')).to.equal(false);
    expect(await server.db('users').where({ email: profile.email }).first()).to.equal(undefined);
  });

  it('signs a Kakao user in from Kakao’s own profile shape', async () => {
    const profile = kakaoUser();
    const { browser, callback } = await signIn('kakao');
    expect(callback.headers.get('location')).to.equal('/chat-list');
    expect((await browser.get(api.nameAndEmail)).body).to.deep.equal({ name: '카카오친구', email: profile.kakao_account.email });
    expect(kakao.tokenRequests.at(-1)!.redirect_uri).to.equal(`${server.config.publicUrl}/api/oauth/kakao/callback`);
  });

  it('refuses a Kakao account that shares no e-mail address', async () => {
    kakaoUser({ email: undefined, is_email_verified: false, is_email_valid: false });
    const { browser, callback } = await signIn('kakao');
    expect(callback.headers.get('location')).to.equal('/login?oauthError=kakao');
    expect(browser.cookies.has('sid')).to.equal(false);
  });

  it('refuses a verified address over 100 characters like any invalid one, with no account made', async () => {
    const email = `${'a'.repeat(95)}@example.test`;
    googleUser({ email });
    const { browser, callback } = await signIn('google');
    expect(callback.headers.get('location')).to.equal('/login?oauthError=google');
    expect(browser.cookies.has('sid')).to.equal(false);
    expect(await server.db('users').where({ email }).first()).to.equal(undefined);
  });

  it('makes a valid display name from a provider name our name rule would refuse', async () => {
    googleUser({ name: 'R2-D2 🤖' });
    const { browser } = await signIn('google');
    expect((await browser.get(api.nameAndEmail)).body.name).to.equal('R-D');
  });

  it('refuses a forged state, a missing state and a state from another browser', async () => {
    googleUser();
    const browser = new ApiClient(server.url);
    const start = await browser.get(api.oauthLogin('google'));
    const atProvider = await fetch(start.body.url, { redirect: 'manual' });
    const back = new URL(atProvider.headers.get('location')!);
    const code = back.searchParams.get('code')!;

    const forged = await browser.get(`${back.pathname}?code=${code}&state=${'x'.repeat(43)}`);
    expect(forged.headers.get('location')).to.equal('/login?oauthError=google');
    const missing = await new ApiClient(server.url).get(`${back.pathname}?code=${code}`);
    expect(missing.headers.get('location')).to.equal('/login?oauthError=google');
    const otherBrowser = await new ApiClient(server.url).get(back.pathname + back.search);
    expect(otherBrowser.headers.get('location')).to.equal('/login?oauthError=google');
    expect(google.tokenRequests.filter((t) => t.code === code)).to.have.length(0);
  });

  it('accepts a state only once', async () => {
    googleUser();
    const { browser, back } = await signIn('google');
    const attacker = new ApiClient(server.url);
    attacker.cookies.set('oauth_state', back.searchParams.get('state')!);
    const replay = await attacker.get(back.pathname + back.search);
    expect(replay.headers.get('location')).to.equal('/login?oauthError=google');
    expect(attacker.cookies.has('sid')).to.equal(false);
    expect((await browser.get(api.userId)).status).to.equal(200);
  });

  it('sends the browser back to the login page when the user declines at the provider', async () => {
    const browser = new ApiClient(server.url);
    const start = await browser.get(api.oauthLogin('kakao'));
    const state = new URL(start.body.url).searchParams.get('state')!;
    const res = await browser.get(`${api.oauthCallback('kakao')}?error=access_denied&state=${state}`);
    expect(res.headers.get('location')).to.equal('/login?oauthError=kakao');
  });

  it('bounds the sign-ins one client address may have in progress: and the next start answers 429 with Retry-After', async () => {
    // Earlier tests of this suite left some starts unfinished from this address too.
    const pending = async () => Number((await server.db('oauth_pending_logins').where({ client_address: '127.0.0.1' }).count({ n: '*' }).first())?.n ?? 0);
    while ((await pending()) < PENDING_LIMITS.perAddress) {
      expect((await new ApiClient(server.url).get(api.oauthLogin('kakao'))).status).to.equal(200);
    }
    const refused = await new ApiClient(server.url).get(api.oauthLogin('google'));
    expect(refused.status).to.equal(429);
    expect(refused.headers.get('retry-after')).to.equal('60');
    expect(await pending()).to.equal(PENDING_LIMITS.perAddress);
    await server.db('oauth_pending_logins').where({ client_address: '127.0.0.1' }).delete();
  });

  it('answers 503 for a provider that is not configured', async () => {
    const bare = await startTestServer({ databaseUrl: db.url() });
    try {
      for (const provider of ['google', 'kakao'] as const) {
        const res = await new ApiClient(bare.url).get(api.oauthLogin(provider));
        expect(res.status).to.equal(503);
        expect(res.body.error).to.equal('oauth_not_configured');
        const callback = await new ApiClient(bare.url).get(`${api.oauthCallback(provider)}?code=x&state=y`);
        expect(callback.headers.get('location')).to.equal(`/login?oauthError=${provider}`);
      }
    } finally {
      await bare.stop();
    }
  });
});
