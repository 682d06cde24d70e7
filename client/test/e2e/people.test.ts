// The people screens in Chromium against the real server (issue 26): a photo uploaded in the
// settings reaches the other user's friends tab, chat list, room and the room's member list, whose
// rows open the person's profile card; a person found by the user search becomes a
// friend and a favourite from their profile card and shows under 즐겨찾기; and axe finds no
// serious or critical violation on the friends tab, the profile card and the settings.
import type { Locator, Page } from 'playwright-core';
import { expect } from 'chai';
import sharp from 'sharp';
import { api } from '@common/api';
import { app as destinations } from '@common/destinations';
import { connectStomp } from '../../../server/test/support/stomp-client';
import { createUser, loginClient, type TestUser } from '../../../server/test/support/users';
import { ko } from '../../src/i18n/ko';
import { koHome } from '../../src/i18n/koHome';
import { koPeople } from '../../src/i18n/koPeople';
import { useE2eApp } from './support/app';
import { describeViolations, seriousViolations } from './support/axe';

const WAIT = { timeout: 30_000 };

/** The settings, reached as a user does (the chat list's link carries the name and e-mail). */
async function openSettings(page: Page, name: string): Promise<void> {
  await page.getByTestId('my-name').filter({ hasText: ko.chatList.greeting(name) }).waitFor(WAIT);
  await page.getByRole('link', { name: ko.chatList.settings }).click();
  await page.getByRole('heading', { name: ko.settings.title }).waitFor(WAIT);
}

/** The photo an element shows, once the browser has it: its address (null: no photo). */
async function loadedPhoto(scope: Locator): Promise<string> {
  const img = scope.locator('img.avatar--photo').first();
  await img.waitFor(WAIT);
  await img.evaluate((el: HTMLImageElement) => (el.complete ? undefined : new Promise((resolve) => el.addEventListener('load', resolve, { once: true }))));
  expect(await img.evaluate((el: HTMLImageElement) => el.naturalWidth), 'the photo loaded').to.be.greaterThan(0);
  return (await img.getAttribute('src')) ?? '';
}

describe('the people screens in the browser', function () {
  const app = useE2eApp();

  it('shows a photo uploaded in the settings to the other user, in their friends tab, chat list and room member list, whose row opens the card', async () => {
    const me = await createUser(app.server, { name: '사진주인' });
    const other = await createUser(app.server, { name: '친구보기' });
    const otherClient = await loginClient(app.server, other);
    expect((await otherClient.request('PUT', api.friend(me.userId), { json: {} })).status).to.equal(200);

    const page = await app.signIn(me);
    await openSettings(page, me.name);
    const profile = page.getByRole('region', { name: koPeople.settings.profile });
    const png = await sharp({ create: { width: 640, height: 480, channels: 3, background: { r: 230, g: 90, b: 40 } } }).png().toBuffer();
    // The photo's button is named (issue 26: it once was not).
    await profile.getByRole('button', { name: koPeople.settings.changePhoto, exact: true }).waitFor(WAIT);
    await profile.getByTestId('photo-input').setInputFiles({ name: '내 사진.png', mimeType: 'image/png', buffer: png });
    const mine = await loadedPhoto(profile);
    expect(mine).to.contain(`/api/users/${me.userId}/photo`);
    await profile.getByRole('button', { name: koPeople.settings.deletePhoto }).waitFor(WAIT);

    const theirs = await app.signIn(other);
    await theirs.getByRole('navigation', { name: koHome.tabs.nav }).getByRole('link', { name: koHome.tabs.friends, exact: true }).click();
    await theirs.waitForURL('**/friends', WAIT);
    const row = theirs.getByRole('button', { name: me.name });
    await row.waitFor(WAIT);
    const seen = await loadedPhoto(row);
    // The same photo, at the same version, in the row's small size.
    expect(new URL(seen, app.baseUrl).searchParams.get('v')).to.equal(new URL(mine, app.baseUrl).searchParams.get('v'));
    await row.click();
    const card = theirs.getByRole('dialog', { name: me.name });
    await card.waitFor(WAIT);
    expect(await loadedPhoto(card)).to.contain('size=large');
    await card.getByRole('button', { name: koPeople.profileCard.close }).click();

    // Their chat list: the two-person room's row shows the photo, at the same version.
    const created = await otherClient.post(api.roomCreate, { targetUserId: me.userId, targetUserName: me.name });
    const chatRoomId = (created.body as { chatRoomId: number }).chatRoomId;
    await theirs.getByRole('navigation', { name: koHome.tabs.nav }).getByRole('link', { name: koHome.tabs.chats, exact: true }).click();
    const chatRow = theirs.getByTestId('chat-row').filter({ hasText: me.name });
    expect(new URL(await loadedPhoto(chatRow), app.baseUrl).searchParams.get('v')).to.equal(new URL(mine, app.baseUrl).searchParams.get('v'));

    // The room: their message with the photo beside it; the member list: the photo, and the
    // person's card a tap away.
    const stomp = await connectStomp(app.server, (await loginClient(app.server, me)).cookieHeader());
    try {
      await stomp.send(destinations.privateMessage, { chatRoomId, content: '사진 보여요?', clientMsgId: `e2e-photo-${chatRoomId}` });
      await stomp.roundTrip();
    } finally {
      await stomp.disconnect();
    }
    await theirs.goto(app.url(`/chat-room?cri=${chatRoomId}`));
    await loadedPhoto(theirs.getByTestId('their-message').filter({ hasText: '사진 보여요?' }));
    await theirs.getByRole('button', { name: ko.room.openSidebar }).click();
    const member = theirs.getByRole('complementary').getByRole('button', { name: new RegExp(me.name) });
    await loadedPhoto(member);
    await member.click();
    await theirs.getByRole('dialog', { name: me.name }).waitFor(WAIT);
  });

  it('makes a person found by the search a friend and a favourite from their profile card', async () => {
    const me = await createUser(app.server, { name: '친구찾기' });
    const them = await createUser(app.server, { name: '즐겨찾을사람' });
    const page = await app.signIn(me);
    await page.goto(app.url('/find-user'));
    const box = page.getByRole('searchbox');
    await box.fill('즐');
    await page.getByText(koHome.minChars).waitFor(WAIT);
    await box.fill(them.name);
    await box.press('Enter');
    await page.getByRole('button', { name: them.name }).click();
    const card = page.getByRole('dialog', { name: them.name });
    await card.getByRole('button', { name: koPeople.profileCard.addFriend }).click();
    const favourite = card.getByRole('button', { name: koPeople.profileCard.favourite });
    await favourite.waitFor(WAIT);
    await card.getByRole('button', { name: koPeople.profileCard.removeFriend }).waitFor(WAIT);
    await favourite.click();
    await card.locator(`button[aria-pressed="true"]`).waitFor(WAIT);
    await card.getByRole('button', { name: koPeople.profileCard.close }).click();
    await card.waitFor({ state: 'detached', ...WAIT });

    await page.getByRole('navigation', { name: koHome.tabs.nav }).getByRole('link', { name: koHome.tabs.friends, exact: true }).click();
    const favourites = page.getByRole('region', { name: koPeople.friends.favourites });
    await favourites.getByRole('button', { name: them.name }).waitFor(WAIT);
    // Kept by the server: still there after a reload.
    await page.reload();
    await favourites.getByRole('button', { name: them.name }).waitFor(WAIT);
    expect(await page.getByRole('link', { name: koHome.tabs.friends, exact: true }).getAttribute('aria-current')).to.equal('page');
  });

  for (const size of [
    { name: 'desktop', width: 1280, height: 800 },
    { name: 'phone', width: 390, height: 844 },
  ]) {
    it(`has no serious or critical axe violation on the friends tab, the profile card and the settings, ${size.name}`, async () => {
      const me = await createUser(app.server, { name: '접근성친구' });
      const friend: TestUser = await createUser(app.server, { name: '친한친구' });
      const client = await loginClient(app.server, me);
      await client.request('PUT', api.friend(friend.userId), { json: { favourite: true } });
      const other = await createUser(app.server, { name: '그냥친구' });
      await client.request('PUT', api.friend(other.userId), { json: {} });
      const blocked = await createUser(app.server, { name: '차단된사람' });
      await client.request('PUT', api.block(blocked.userId));
      await client.request('PUT', api.userStatus, { json: { statusMessage: '검사 중입니다' } });

      const { page } = await app.openUser();
      await page.setViewportSize({ width: size.width, height: size.height });
      await page.goto(app.url('/login'));
      await page.getByLabel(ko.login.email).fill(me.email);
      await page.getByLabel(ko.login.password, { exact: true }).fill(me.password);
      await page.getByLabel(ko.login.password, { exact: true }).press('Enter');
      await page.waitForURL('**/chat-list', WAIT);

      const found: string[] = [];
      const check = async (name: string) => {
        // A button enabled a moment ago fades in (0.15 s): axe must see the colours it settles on.
        await page.waitForFunction(() => document.getAnimations().length === 0, undefined, WAIT);
        const violations = await seriousViolations(page);
        if (violations.length > 0) found.push(describeViolations(name, violations));
      };
      await page.getByRole('link', { name: koHome.tabs.friends, exact: true }).click();
      await page.getByRole('region', { name: koPeople.friends.favourites }).waitFor(WAIT);
      await page.getByText('검사 중입니다').waitFor(WAIT);
      await check('friends tab');
      await page.getByRole('button', { name: friend.name }).click();
      await page.getByRole('dialog', { name: friend.name }).getByRole('button', { name: koPeople.profileCard.removeFriend }).waitFor(WAIT);
      await check('profile card');
      await page.keyboard.press('Escape');
      await page.getByRole('link', { name: koHome.tabs.chats, exact: true }).click();
      await openSettings(page, me.name);
      await page.getByTestId('blocked-row').waitFor(WAIT);
      await check('settings');
      expect(found, found.join('\n')).to.deep.equal([]);
    });
  }
});
