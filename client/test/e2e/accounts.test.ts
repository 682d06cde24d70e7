// The account side in a real browser: sign-up with the mailed code, login, settings, logout,
// the login failure line and the 404 page, against the real server and the built client.
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { ko } from '../../src/i18n/ko';
import { createUser } from '../../../server/test/support/users';
import { useE2eApp } from './support/app';

const UI_TIMEOUT = 20_000;

async function expectStatus(page: Page, testId: string, text: string): Promise<void> {
  await page.getByTestId(testId).filter({ hasText: text }).waitFor({ timeout: UI_TIMEOUT });
}

async function expectPath(page: Page, pathname: string): Promise<void> {
  await page.waitForURL((url) => url.pathname === pathname, { timeout: UI_TIMEOUT });
}

const storedUid = (page: Page) => page.evaluate(() => window.localStorage.getItem('uid'));

describe('accounts in the browser', function () {
  const app = useE2eApp();

  it('lets a new user sign up with the mailed code, log in, rename themself in settings and log out', async () => {
    const { page, context } = await app.openUser();
    const email = `e2e-${Date.now()}@example.test`;
    const password = 'a long and good password';

    // Sign-up: code by mail, verification, then the form.
    await page.goto('/sign-up');
    await page.getByLabel(ko.signUp.email).fill(email);
    await page.getByRole('button', { name: ko.signUp.sendCode }).click();
    await expectStatus(page, 'sign-up-status', ko.signUp.messages.codeSent);
    expect(await page.getByLabel(ko.signUp.email).getAttribute('readonly')).to.not.equal(null);
    const code = await app.smtp.codeFor(email);
    await page.getByLabel(ko.signUp.code).fill(code);
    await page.getByRole('button', { name: ko.signUp.verify }).click();
    await expectStatus(page, 'sign-up-status', ko.signUp.messages.verified);
    await page.getByLabel(ko.signUp.name, { exact: true }).fill('김하늘');
    await page.getByLabel(ko.signUp.password, { exact: true }).fill(password);
    await page.getByLabel(ko.signUp.confirmPassword).fill(password);
    await page.getByRole('button', { name: ko.signUp.submit, exact: true }).click();
    await expectStatus(page, 'sign-up-status', ko.signUp.completed('김하늘'));
    await expectPath(page, '/login');

    // Login with Enter in the password field.
    await page.getByLabel(ko.login.email).fill(email);
    await page.getByLabel(ko.login.password).fill(password);
    await page.getByLabel(ko.login.password).press('Enter');
    await expectStatus(page, 'login-status', ko.login.welcomeUser('김하늘'));
    await expectPath(page, '/chat-list');
    expect(Number(await storedUid(page))).to.be.greaterThan(0);

    // Settings, reached from the chat list with the name and e-mail as router state.
    await page.locator('a, button', { hasText: ko.chatList.settings }).first().click();
    await expectPath(page, '/user-settings');
    expect(await page.getByLabel(ko.settings.email).inputValue()).to.equal(email);
    expect(await page.getByLabel(ko.settings.name).inputValue()).to.equal('김하늘');
    await page.getByLabel(ko.settings.name).fill('김바다');
    await page.getByLabel(ko.settings.password).fill(password);
    await page.getByLabel(ko.settings.confirmPassword).fill(password);
    await page.getByRole('button', { name: ko.settings.submit }).click();
    await expectStatus(page, 'settings-status', ko.settings.messages.updated);
    await expectPath(page, '/chat-list');
    const profile = await context.request.get('/api/chat-list/name-and-email');
    expect(await profile.json()).to.deep.equal({ name: '김바다', email });

    // Logout ends the server session and forgets the uid.
    await page.locator('a, button', { hasText: ko.chatList.logout }).first().click();
    await expectPath(page, '/login');
    expect(await storedUid(page)).to.equal(null);
    expect((await context.request.get('/api/user/id')).status()).to.equal(401);
  });

  it('shows the mismatch line and stays on /login for a wrong password', async () => {
    const user = await createUser(app.server, { name: 'Wrong Password' });
    const { page } = await app.openUser();
    await page.goto('/login');
    await page.getByLabel(ko.login.email).fill(user.email);
    await page.getByLabel(ko.login.password).fill('not the password');
    await page.getByRole('button', { name: ko.login.submit, exact: true }).click();
    await expectStatus(page, 'login-status', '이메일 또는 비밀번호가 일치하지 않습니다');
    expect(new URL(page.url()).pathname).to.equal('/login');
    expect(await storedUid(page)).to.equal(null);
  });

  it('asks to check the fields, without a request, when the password is empty', async () => {
    const { page } = await app.openUser();
    await page.goto('/login');
    let loginRequests = 0;
    page.on('request', (request) => {
      if (request.url().endsWith('/api/user/login')) loginRequests += 1;
    });
    await page.getByLabel(ko.login.email).fill('someone@example.test');
    await page.getByLabel(ko.login.email).press('Enter');
    await expectStatus(page, 'login-status', ko.login.incomplete);
    expect(loginRequests).to.equal(0);
  });

  it('shows the 404 page with a link back to the chat list for an unknown path', async () => {
    const { page } = await app.openUser();
    await page.goto('/no/such/page');
    await page.getByRole('heading', { name: ko.notFound.title }).waitFor({ timeout: UI_TIMEOUT });
    const link = page.getByRole('link', { name: ko.notFound.back });
    expect(await link.getAttribute('href')).to.equal('/chat-list');
  });

  it('sends a visitor without a stored uid from / to /login', async () => {
    const { page } = await app.openUser();
    await page.goto('/');
    await expectPath(page, '/login');
    await page.getByRole('heading', { name: ko.login.title }).waitFor({ timeout: UI_TIMEOUT });
  });

  it('shows the Kakao error when a failed OAuth callback sends the browser back to /login', async () => {
    const { page } = await app.openUser();
    await page.goto('/login?oauthError=kakao');
    await expectStatus(page, 'login-status', ko.login.kakaoError);
  });
});
