// Voice calls through the real UI: two Chromium users with fake microphones call each other
// over the real server (STOMP signalling, WebRTC media), and a Chromium caller reaches the
// protocol harness's headless callee.
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { HeadlessCaller } from '../../../protocol-harness/src/caller/caller';
import { createUser, type TestUser } from '../../../server/test/support/users';
import { useE2eApp } from './support/app';
import { answerDialog } from './support/dialogs';

const SCREENSHOT_DIR = process.env.E2E_SCREENSHOTS;
const WAIT = { timeout: 30_000 };

describe('voice calls in the browser', function () {
  const app = useE2eApp({ fakeMedia: true });

  /** Signs in through /login and lands on /chat-list; collects the page's alert texts. */
  async function signedIn(user: TestUser): Promise<{ page: Page; alerts: string[] }> {
    const { page } = await app.openUser();
    await page.setViewportSize({ width: 390, height: 844 });
    const alerts: string[] = [];
    page.on('dialog', (dialog) => {
      alerts.push(dialog.message());
      void dialog.accept();
    });
    await page.goto(app.url('/login'));
    await page.getByLabel('이메일').fill(user.email);
    await page.getByLabel('비밀번호', { exact: true }).fill(user.password);
    await page.getByLabel('비밀번호', { exact: true }).press('Enter');
    await page.waitForURL('**/chat-list', WAIT);
    return { page, alerts };
  }

  /** From /call: search the callee by name and press their call icon. */
  async function dial(page: Page, callee: TestUser): Promise<void> {
    await page.goto(app.url('/call'));
    await page.getByRole('searchbox').fill(callee.name);
    await page.getByRole('searchbox').press('Enter');
    await page.getByRole('button', { name: `${callee.name}님에게 전화 걸기` }).click(WAIT);
  }

  async function screenshot(page: Page, name: string): Promise<void> {
    if (!SCREENSHOT_DIR) return;
    fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`) });
  }

  it('lists search results on /call with the user\'s own entry marked and no call icon for it', async () => {
    const kim = await createUser(app.server, { name: 'Kim Caller' });
    await createUser(app.server, { name: 'Kim Callee' });
    const { page } = await signedIn(kim);
    await page.goto(app.url('/call'));
    await page.getByText('전화를 받거나 걸 수 있는 곳입니다.').waitFor(WAIT);
    await screenshot(page, 'call-empty');
    await page.getByRole('searchbox').fill('Kim');
    await page.getByRole('button', { name: '검색' }).click();
    const rows = page.getByTestId('call-result');
    await rows.nth(1).waitFor(WAIT);
    const own = rows.filter({ hasText: kim.email });
    await own.getByText('본인입니다').waitFor(WAIT);
    expect(await own.getByRole('button').count()).to.equal(0);
    expect(await page.getByRole('button', { name: 'Kim Callee님에게 전화 걸기' }).count()).to.equal(1);
    expect(await page.locator('audio[data-testid="remote-audio"]').getAttribute('autoplay')).to.not.equal(null);
    expect(await page.locator('audio[data-testid="local-audio"]').evaluate((el) => (el as HTMLAudioElement).muted)).to.equal(true);
    await screenshot(page, 'call-results');
  });

  it('connects two users through the overlays, runs the timer on both sides and ends on hang-up', async () => {
    const caller = await createUser(app.server, { name: 'Park' });
    const callee = await createUser(app.server, { name: 'Choi' });
    const a = await signedIn(caller);
    const b = await signedIn(callee);

    await dial(a.page, callee);
    await a.page.getByTestId('in-call').getByText('전화 거는 중…').waitFor(WAIT);
    expect(await a.page.getByRole('button', { name: '채팅 목록으로' }).isDisabled()).to.equal(true);
    await screenshot(a.page, 'call-connecting');

    const incoming = b.page.getByTestId('incoming-call');
    await incoming.getByText('Park님의 전화').waitFor(WAIT);
    await screenshot(b.page, 'call-incoming');
    await incoming.getByRole('button', { name: '수락' }).click();

    for (const page of [a.page, b.page]) {
      await page.getByTestId('call-status').filter({ hasText: '통화 중' }).waitFor(WAIT);
      // The timer runs: it moves past 00:00 by itself.
      await page.getByTestId('call-timer').filter({ hasNotText: '00:00' }).waitFor(WAIT);
    }
    await screenshot(b.page, 'call-in-call');

    await b.page.getByRole('button', { name: '통화 종료' }).click();
    for (const page of [a.page, b.page]) {
      await page.getByTestId('in-call').waitFor({ state: 'detached', ...WAIT });
      await page.waitForURL('**/chat-list', WAIT);
    }
    expect(a.alerts).to.deep.equal([]);
  });

  it('tells the caller 상대방이 통화를 거절했습니다. when the callee rejects', async () => {
    const caller = await createUser(app.server, { name: 'Jung' });
    const callee = await createUser(app.server, { name: 'Kang' });
    const a = await signedIn(caller);
    const b = await signedIn(callee);

    await dial(a.page, callee);
    await b.page.getByTestId('incoming-call').getByRole('button', { name: '거절' }).click(WAIT);
    await b.page.getByTestId('incoming-call').waitFor({ state: 'detached', ...WAIT });
    await a.page.getByTestId('in-call').waitFor({ state: 'detached', ...WAIT });
    expect(await answerDialog(a.page)).to.equal('상대방이 통화를 거절했습니다.');
    expect(a.alerts).to.deep.equal([]);
    expect(new URL(a.page.url()).pathname).to.equal('/call');
  });

  it('reaches a protocol-harness callee from a Chromium caller', async () => {
    const caller = await createUser(app.server, { name: 'Yoon' });
    const callee = await createUser(app.server, { name: 'Harness' });
    const headless = await HeadlessCaller.connect({
      baseUrl: app.baseUrl,
      email: callee.email,
      password: callee.password,
      label: 'callee',
      toneHz: 660,
      expectHz: 440,
      relayOnly: false,
      origin: new URL(app.baseUrl).origin,
    });
    try {
      const a = await signedIn(caller);
      await dial(a.page, callee);
      const incoming = await headless.waitFor('incoming', caller.userId, 30_000);
      expect(incoming.event.name).to.equal('Yoon');
      headless.accept(caller.userId);
      await a.page.getByTestId('call-status').filter({ hasText: '통화 중' }).waitFor(WAIT);
      const peer = headless.peer;
      if (!peer) throw new Error('the headless callee holds no peer connection after accepting');
      await peer.until(() => peer.connectionState === 'connected' && peer.meter.report().frames > 0);
      await a.page.getByRole('button', { name: '통화 종료' }).click();
      await headless.waitFor('hangup', caller.userId, 30_000);
      await a.page.waitForURL('**/chat-list', WAIT);
      expect(headless.problems).to.deep.equal([]);
    } finally {
      await headless.close();
    }
  });
});
