// The chat screens' layout in Chromium, at a desktop (1280×800) and a phone (390×844) size: two
// panes or one, deep links, per-screen tab titles, one h1, where focus goes, and the dialogs by
// keyboard alone.
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { api } from '@common/api';
import { createUser, loginClient, type TestUser } from '../../../server/test/support/users';
import { ko } from '../../src/i18n/ko';
import { useE2eApp } from './support/app';

const WAIT = { timeout: 30_000 };
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

describe('the layout in the browser', function () {
  const app = useE2eApp();

  async function signedIn(user: TestUser, viewport: { width: number; height: number }): Promise<Page> {
    const { page } = await app.openUser();
    await page.setViewportSize(viewport);
    await page.goto(app.url('/login'));
    await page.getByLabel(ko.login.email).fill(user.email);
    await page.getByLabel(ko.login.password, { exact: true }).fill(user.password);
    await page.getByLabel(ko.login.password, { exact: true }).press('Enter');
    await page.waitForURL('**/chat-list', WAIT);
    return page;
  }

  async function roomOf(owner: TestUser, other: TestUser): Promise<number> {
    const client = await loginClient(app.server, owner);
    const res = await client.post(api.roomCreate, { targetUserId: other.userId, targetUserName: other.name });
    return (res.body as { chatRoomId: number }).chatRoomId;
  }

  const h1Texts = (page: Page) => page.locator('h1').allInnerTexts();
  const focusedLabel = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.getAttribute('name') ?? '');

  it('puts focus in the e-mail field of /login and names the tab', async () => {
    const { page } = await app.openUser();
    await page.goto(app.url('/login'));
    await page.getByLabel(ko.login.email).waitFor(WAIT);
    expect(await focusedLabel(page)).to.equal('email');
    expect(await page.title()).to.equal("로그인 - Let's Chat");
    expect(await h1Texts(page)).to.deep.equal([ko.login.title]);
  });

  it('sends a visitor without a stored uid from /find-user to /login at once', async () => {
    const { page } = await app.openUser();
    const searches: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/user/search')) searches.push(request.url());
    });
    await page.goto(app.url('/find-user'));
    await page.waitForURL('**/login', WAIT);
    expect(searches).to.deep.equal([]);
  });

  it('ends the server session when /login opens, so /chat-list no longer brings the previous user back', async () => {
    const a = await createUser(app.server, { name: '로그아웃' });
    const page = await signedIn(a, DESKTOP);
    await page.getByTestId('my-name').filter({ hasText: a.name }).waitFor(WAIT);
    await Promise.all([page.waitForResponse((r) => r.url().endsWith(api.logout), WAIT), page.goto(app.url('/login'))]);
    const status = await page.evaluate(async (path) => (await fetch(path)).status, api.chats);
    expect(status).to.equal(401);
    await page.goto(app.url('/chat-list'));
    await page.waitForURL('**/login', WAIT);
  });

  it('on a desktop shows the list beside an empty pane on /chat-list, and the room beside the list on a deep link', async () => {
    const a = await createUser(app.server, { name: '배수지' });
    const b = await createUser(app.server, { name: '남도현' });
    const chatRoomId = await roomOf(a, b);
    const page = await signedIn(a, DESKTOP);

    await page.getByText(ko.chatList.pickChat).waitFor(WAIT);
    await page.getByTestId('chat-row').waitFor(WAIT);
    expect(await page.getByTestId('chat-row').count()).to.equal(1);
    expect(await page.title()).to.equal("채팅 - Let's Chat");
    expect(await h1Texts(page)).to.deep.equal([ko.chatList.title]);

    await page.goto(app.url(`/chat-room?cri=${chatRoomId}`));
    await page.getByTestId('messages').waitFor(WAIT);
    const list = page.getByRole('navigation', { name: ko.chatList.title });
    expect(await list.getByTestId('chat-row').count()).to.equal(1);
    await page.waitForFunction(() => document.title.endsWith(" - Let's Chat") && !document.title.startsWith('Let'), null, WAIT);
    const roomName = await page.getByTestId('room-name').innerText();
    expect(await page.title()).to.equal(`${roomName} - Let's Chat`);
    expect(await h1Texts(page)).to.deep.equal([roomName]);
    // The message box has the focus once the room is ready.
    await page.waitForFunction(() => document.activeElement?.getAttribute('name') === 'message', null, WAIT);

    // The list stays beside the room; its rows open rooms in the right pane.
    await list.getByTestId('chat-row').click();
    await page.getByTestId('messages').waitFor(WAIT);
    expect(await list.isVisible()).to.equal(true);
  });

  it('on a phone shows one screen at a time', async () => {
    const a = await createUser(app.server, { name: '문가영' });
    const b = await createUser(app.server, { name: '차은우' });
    const chatRoomId = await roomOf(a, b);
    const page = await signedIn(a, PHONE);
    await page.getByTestId('chat-row').waitFor(WAIT);
    expect(await page.getByText(ko.chatList.pickChat).count()).to.equal(0);

    await page.goto(app.url(`/chat-room?cri=${chatRoomId}`));
    await page.getByTestId('messages').waitFor(WAIT);
    expect(await page.getByTestId('chat-row').count()).to.equal(0);
    expect(await page.getByRole('navigation').count()).to.equal(0);
  });

  it('answers leave with the keyboard alone: focus moves into the sidebar and the dialog, Escape cancels, Enter confirms', async () => {
    const a = await createUser(app.server, { name: '유재석' });
    const b = await createUser(app.server, { name: '하하' });
    const chatRoomId = await roomOf(a, b);
    const page = await signedIn(b, DESKTOP);
    await page.goto(app.url(`/chat-room?cri=${chatRoomId}`));
    await page.getByTestId('messages').waitFor(WAIT);

    await page.getByRole('button', { name: ko.room.openSidebar }).focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.activeElement?.classList.contains('sidebar') === true, null, WAIT);

    const leave = page.getByRole('button', { name: ko.room.leave });
    await leave.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('alertdialog', { name: ko.room.leaveConfirm });
    await dialog.waitFor(WAIT);
    expect(await dialog.getAttribute('aria-modal')).to.equal('true');
    // Leaving is destructive: Cancel has the focus; Tab stays inside the dialog.
    expect(await page.evaluate(() => document.activeElement?.textContent)).to.equal(ko.dialog.cancel);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).to.equal(ko.dialog.ok);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).to.equal(ko.dialog.cancel);

    // Escape cancels and gives focus back to the leave button; the sidebar stays open.
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached', ...WAIT });
    expect(await page.evaluate(() => document.activeElement?.textContent)).to.equal(ko.room.leave);
    expect(await page.getByTestId('participant-count').isVisible()).to.equal(true);

    await page.keyboard.press('Enter');
    await dialog.waitFor(WAIT);
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');
    await page.waitForURL('**/chat-list', WAIT);
  });
});
