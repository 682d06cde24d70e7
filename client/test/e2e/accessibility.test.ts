// axe-core on every screen at a desktop (1280×800) and a phone (390×844) size, in the light and
// the dark colour scheme (emulated): no violation of impact serious or critical. Also checks that
// the dark scheme really applies.
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { api } from '@common/api';
import { createUser, loginClient, type TestUser } from '../../../server/test/support/users';
import { ko } from '../../src/i18n/ko';
import { koCall } from '../../src/i18n/koCall';
import { useE2eApp } from './support/app';
import { describeViolations, seriousViolations } from './support/axe';

const WAIT = { timeout: 30_000 };
const SIZES = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const;
const SCHEMES = ['light', 'dark'] as const;

describe('accessibility of every screen in the browser', function () {
  const app = useE2eApp();

  async function logIn(page: Page, user: TestUser): Promise<void> {
    await page.goto(app.url('/login'));
    await page.getByLabel(ko.login.email).fill(user.email);
    await page.getByLabel(ko.login.password, { exact: true }).fill(user.password);
    await page.getByLabel(ko.login.password, { exact: true }).press('Enter');
    await page.waitForURL('**/chat-list', WAIT);
  }

  /** Each screen: how to reach it, and when it is ready to be checked. */
  function screens(chatRoomId: number, other: TestUser): Array<{ name: string; show(page: Page): Promise<void> }> {
    const search = async (page: Page, keyword: string) => {
      await page.getByRole('searchbox').fill(keyword);
      await page.getByRole('searchbox').press('Enter');
    };
    return [
      { name: 'chat list', show: async (page) => { await page.goto(app.url('/chat-list')); await page.getByTestId('chat-row').first().waitFor(WAIT); } },
      { name: 'find user with results', show: async (page) => { await page.goto(app.url('/find-user')); await search(page, other.name); await page.getByTestId('user-row').first().waitFor(WAIT); } },
      { name: 'find user without results', show: async (page) => { await page.goto(app.url('/find-user')); await search(page, 'zzzzqqq'); await page.getByText(ko.search.noResults).waitFor(WAIT); } },
      { name: 'chat room', show: async (page) => { await page.goto(app.url(`/chat-room?cri=${chatRoomId}`)); await page.getByTestId('their-message').first().waitFor(WAIT); } },
      { name: 'chat room sidebar', show: async (page) => { await page.getByRole('button', { name: ko.room.openSidebar }).click(); await page.getByTestId('participant-count').waitFor(WAIT); } },
      { name: 'leave dialog', show: async (page) => { await page.getByRole('button', { name: ko.room.leave }).click(); await page.getByRole('alertdialog').waitFor(WAIT); } },
      { name: 'invite', show: async (page) => { await page.keyboard.press('Escape'); await page.goto(app.url(`/add-user-to-chat?cri=${chatRoomId}`)); await search(page, other.name); await page.getByTestId('in-chat').first().waitFor(WAIT); } },
      { name: 'call', show: async (page) => { await page.goto(app.url('/call')); await page.getByRole('heading', { name: koCall.title }).waitFor(WAIT); } },
      { name: 'settings', show: async (page) => { await page.goto(app.url('/chat-list')); await page.getByTestId('my-name').filter({ hasText: ko.chatList.greeting('접근성') }).waitFor(WAIT); await page.getByRole('link', { name: ko.chatList.settings }).click(); await page.getByRole('heading', { name: ko.settings.title }).waitFor(WAIT); } },
      { name: '404', show: async (page) => { await page.goto(app.url('/no-such-page')); await page.getByRole('heading', { name: ko.notFound.title }).waitFor(WAIT); } },
      { name: 'sign-up', show: async (page) => { await page.goto(app.url('/sign-up')); await page.getByRole('heading', { name: ko.signUp.title }).waitFor(WAIT); } },
      { name: 'login', show: async (page) => { await page.goto(app.url('/login')); await page.getByRole('heading', { name: ko.login.title }).waitFor(WAIT); } },
    ];
  }

  for (const size of SIZES) {
    for (const scheme of SCHEMES) {
      it(`has no serious or critical axe violation on any screen, ${size.name} ${size.width}×${size.height}, ${scheme} scheme`, async () => {
        const me = await createUser(app.server, { name: '접근성' });
        const other = await createUser(app.server, { name: '검사대상' });
        const client = await loginClient(app.server, other);
        const created = await client.post(api.roomCreate, { targetUserId: me.userId, targetUserName: me.name });
        const chatRoomId = (created.body as { chatRoomId: number }).chatRoomId;

        const { page } = await app.openUser();
        await page.setViewportSize({ width: size.width, height: size.height });
        await page.emulateMedia({ colorScheme: scheme });
        await logIn(page, me);
        // A message from the other side, so the room shows both kinds of bubble.
        await page.goto(app.url(`/chat-room?cri=${chatRoomId}`));
        const other$ = await app.openUser();
        await logIn(other$.page, other);
        await other$.page.goto(app.url(`/chat-room?cri=${chatRoomId}`));
        const box = other$.page.getByRole('textbox', { name: ko.room.messagePlaceholder });
        await box.fill('접근성 검사용 메시지 https://example.com');
        await box.press('Enter');

        const found: string[] = [];
        for (const screen of screens(chatRoomId, other)) {
          await screen.show(page);
          const violations = await seriousViolations(page);
          if (violations.length > 0) found.push(describeViolations(screen.name, violations));
        }
        expect(found, found.join('\n')).to.deep.equal([]);
      });
    }
  }

  it('follows the dark colour scheme of the system', async () => {
    const { page } = await app.openUser();
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto(app.url('/login'));
    await page.getByRole('heading', { name: ko.login.title }).waitFor(WAIT);
    const dark = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    await page.emulateMedia({ colorScheme: 'light' });
    const light = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(dark).to.equal('rgb(15, 19, 28)');
    expect(light).to.equal('rgb(243, 245, 250)');
  });
});
