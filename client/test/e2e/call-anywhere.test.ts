// Calls that reach the user wherever they are in the app, through the real UI: two Chromium users
// with fake microphones, the real server and WebRTC. The callee reads a chat room when the call
// comes, hears the ring, answers, moves to another room and chats during the call, and hangs up
// from the call bar; a callee with no open tab and no push subscription is unavailable at once;
// Escape rejects.
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { api } from '@common/api';
import { createUser, loginClient, type TestUser } from '../../../server/test/support/users';
import { ko } from '../../src/i18n/ko';
import { koCall } from '../../src/i18n/koCall';
import { useE2eApp } from './support/app';
import { answerDialog } from './support/dialogs';

const WAIT = { timeout: 30_000 };

describe('calls on every screen in the browser', function () {
  // The browser plays the ring without a prior tap, so the test can see it start.
  const app = useE2eApp({ fakeMedia: true, extraArgs: ['--autoplay-policy=no-user-gesture-required'] });

  /** Signs in through /login and lands on /chat-list; keeps the text of any browser-native dialog (there should be none). */
  async function signedIn(user: TestUser): Promise<{ page: Page; alerts: string[] }> {
    const { page } = await app.openUser();
    await page.setViewportSize({ width: 390, height: 844 });
    const alerts: string[] = [];
    page.on('dialog', (dialog) => {
      alerts.push(dialog.message());
      void dialog.accept();
    });
    await page.goto(app.url('/login'));
    await page.getByLabel(ko.login.email).fill(user.email);
    await page.getByLabel(ko.login.password, { exact: true }).fill(user.password);
    await page.getByLabel(ko.login.password, { exact: true }).press('Enter');
    await page.waitForURL('**/chat-list', WAIT);
    return { page, alerts };
  }

  async function roomOf(owner: TestUser, other: TestUser): Promise<number> {
    const client = await loginClient(app.server, owner);
    const res = await client.post(api.roomCreate, { targetUserId: other.userId, targetUserName: other.name });
    expect(res.status).to.equal(200);
    return (res.body as { chatRoomId: number }).chatRoomId;
  }

  /** From /call: search the callee by name and press their call icon. */
  async function dial(page: Page, callee: TestUser): Promise<void> {
    await page.goto(app.url('/call'));
    await page.getByRole('searchbox').fill(callee.name);
    await page.getByRole('searchbox').press('Enter');
    await page.getByRole('button', { name: koCall.callUser(callee.name) }).click(WAIT);
  }

  it('rings a user reading a chat room, and the call goes on while they move to another room and chat, until they hang up from the call bar', async () => {
    const reader = await createUser(app.server, { name: '한지민' });
    const caller = await createUser(app.server, { name: '오세훈' });
    const friend = await createUser(app.server, { name: '유재석' });
    const firstRoom = await roomOf(reader, friend);
    const secondRoom = await roomOf(friend, reader);
    const a = await signedIn(reader);
    const b = await signedIn(caller);
    await a.page.goto(app.url(`/chat-room?cri=${firstRoom}`));
    await a.page.getByTestId('messages').waitFor(WAIT);

    await dial(b.page, reader);
    await b.page.locator('[data-testid="in-call"][data-ring="ringback"]').waitFor(WAIT);
    const incoming = a.page.getByTestId('incoming-call');
    await incoming.getByText(koCall.incomingFrom('오세훈')).waitFor(WAIT);
    // The ringing tone sounds (Web Audio running, not held back by the autoplay rules).
    expect(await incoming.getAttribute('data-ring')).to.equal('ringing');
    await incoming.getByRole('button', { name: koCall.accept }).click();
    await a.page.getByTestId('call-timer').filter({ hasNotText: '00:00' }).waitFor(WAIT);

    // Collapse to the call bar, back to the list, into the other room: the call goes on.
    await a.page.getByRole('button', { name: koCall.collapse }).click();
    await a.page.getByRole('link', { name: ko.room.back }).click();
    await a.page.waitForURL('**/chat-list', WAIT);
    await a.page.locator(`a[href$="cri=${secondRoom}"]`).first().click();
    await a.page.waitForURL(`**/chat-room?cri=${secondRoom}`, WAIT);
    const box = a.page.getByRole('textbox', { name: ko.room.messagePlaceholder });
    await box.fill('통화하면서 보내요');
    await box.press('Enter');
    await a.page.locator('.bubble', { hasText: '통화하면서 보내요' }).waitFor(WAIT);

    const bar = a.page.getByTestId('call-bar');
    const timer = bar.getByTestId('call-bar-timer');
    const shown = await timer.innerText();
    expect(shown).to.match(/^\d\d:\d\d$/);
    await timer.filter({ hasNotText: shown }).waitFor(WAIT); // it keeps running
    await b.page.getByTestId('call-status').filter({ hasText: koCall.inCall }).waitFor(WAIT);

    await bar.getByRole('button', { name: koCall.hangUp }).click();
    await bar.waitFor({ state: 'detached', ...WAIT });
    await b.page.getByTestId('in-call').waitFor({ state: 'detached', ...WAIT });
    expect(new URL(a.page.url()).pathname + new URL(a.page.url()).search).to.equal(`/chat-room?cri=${secondRoom}`);
    expect(a.alerts).to.deep.equal([]);
    expect(b.alerts).to.deep.equal([]);
  });

  it('tells the caller at once that a user with no open tab and no push subscription cannot be reached', async () => {
    const caller = await createUser(app.server, { name: '정우성' });
    const away = await createUser(app.server, { name: '이정재' });
    const a = await signedIn(caller);
    await dial(a.page, away);
    // Well within the 60 s ring timeout: the server answered unavailable at once.
    expect(await answerDialog(a.page, ko.dialog.ok, 20_000)).to.equal(koCall.unavailable);
    await a.page.getByTestId('in-call').waitFor({ state: 'detached', ...WAIT });
    expect(new URL(a.page.url()).pathname).to.equal('/call');
  });

  it('rejects an incoming call on Escape', async () => {
    const caller = await createUser(app.server, { name: '김태리' });
    const callee = await createUser(app.server, { name: '남주혁' });
    const a = await signedIn(caller);
    const b = await signedIn(callee);
    await dial(a.page, callee);
    const incoming = b.page.getByTestId('incoming-call');
    await incoming.waitFor(WAIT);
    // Focus is inside the dialog, on accept.
    expect(await b.page.evaluate(() => document.activeElement?.textContent ?? '')).to.contain(koCall.accept);
    await b.page.keyboard.press('Escape');
    await incoming.waitFor({ state: 'detached', ...WAIT });
    expect(await answerDialog(a.page)).to.equal(koCall.peerRejected);
  });
});
