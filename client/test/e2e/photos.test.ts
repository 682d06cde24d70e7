// Several photos at once, the viewer and the room's drawer through the real UI (issue 27): A
// sends a photo, then picks three photos at once; B sees the three as one message's grid, opens
// the viewer on the album's second photo, goes next and previous (buttons, arrow keys) across
// the album and back to A's earlier photo of the room, closes with Escape; B's drawer lists the
// room's four photos newest first and opens the viewer from there. On a touch phone, a swipe
// goes to the next photo, a pinch zooms, one finger pans the zoomed photo and a double tap
// shows it whole again.
import type { Page } from 'playwright-core';
import { expect } from 'chai';
import sharp from 'sharp';
import { api, type ChatHistoryResponse } from '@common/api';
import { createUser, loginClient } from '../../../server/test/support/users';
import { ko } from '../../src/i18n/ko';
import { useE2eApp } from './support/app';

const WAIT = { timeout: 30_000 };

const png = (r: number, width: number) => sharp({ create: { width, height: 300, channels: 3, background: { r, g: 100, b: 200 } } }).png().toBuffer();

describe('several photos, the viewer and the drawer in the browser', function () {
  const app = useE2eApp();

  async function openRoom(page: Page, chatRoomId: number): Promise<void> {
    await page.goto(app.url(`/chat-room?cri=${chatRoomId}`));
    await page.getByTestId('messages').waitFor(WAIT);
  }
  const shownBecomes = async (page: Page, attachmentId: string) => {
    await page.waitForFunction((id) => document.querySelector('[data-testid="photo-full"]')?.getAttribute('src')?.endsWith(`/${id}`) === true, attachmentId, WAIT);
  };

  it('sends three photos as one message; B sees the grid, walks the room\'s photos in the viewer and finds them in the drawer', async () => {
    const a = await createUser(app.server, { name: '앨범 보내는 사람' });
    const b = await createUser(app.server, { name: '앨범 받는 사람' });
    const client = await loginClient(app.server, a);
    const chatRoomId = (await client.post(api.roomCreate, { targetUserId: b.userId })).body.chatRoomId as number;
    const A = await app.signIn(a);
    const B = await app.signIn(b);
    await openRoom(A, chatRoomId);
    await openRoom(B, chatRoomId);

    await A.getByTestId('attach-input').setInputFiles({ name: '먼저.png', mimeType: 'image/png', buffer: await png(10, 500) });
    await B.getByTestId('their-message').getByTestId('photo-thumbnail').waitFor(WAIT);
    await A.getByTestId('attach-input').setInputFiles([
      { name: '하나.png', mimeType: 'image/png', buffer: await png(60, 600) },
      { name: '둘.png', mimeType: 'image/png', buffer: await png(120, 700) },
      { name: '셋.png', mimeType: 'image/png', buffer: await png(180, 800) },
    ]);
    const grid = B.getByTestId('their-message').getByTestId('photo-grid');
    await grid.waitFor(WAIT);
    expect(await grid.getByTestId('photo-tile').count()).to.equal(3);
    await A.getByTestId('my-message').getByTestId('photo-grid').waitFor(WAIT);

    // The ids as the server holds them, in the room's order.
    const history = (await client.get<ChatHistoryResponse>(`${api.chatHistory}?chatRoomId=${chatRoomId}&page=0`)).body;
    const [first, album] = history.messages.filter((m) => m.attachment);
    expect(album.attachments?.map((p) => p.name)).to.deep.equal(['하나.png', '둘.png', '셋.png']);
    const [one, two, three] = album.attachments!.map((p) => p.attachmentId);
    const earlier = first.attachment!.attachmentId;

    await grid.getByRole('button', { name: ko.attachment.open('둘.png') }).click();
    await B.getByTestId('photo-viewer').waitFor(WAIT);
    await shownBecomes(B, two);
    await B.getByRole('button', { name: '다음 사진' }).click();
    await shownBecomes(B, three);
    expect(await B.getByRole('button', { name: '다음 사진' }).isDisabled()).to.equal(true); // the room's newest
    await B.getByRole('button', { name: '이전 사진' }).click();
    await shownBecomes(B, two);
    await B.keyboard.press('ArrowLeft');
    await shownBecomes(B, one);
    await B.keyboard.press('ArrowLeft');
    await shownBecomes(B, earlier); // the room's photo before the album, another message's
    await B.keyboard.press('ArrowRight');
    await shownBecomes(B, one);
    // Zoom: a double click and back.
    await B.getByTestId('photo-full').dblclick();
    await B.waitForFunction(() => Number(document.querySelector('[data-testid="photo-full"]')?.getAttribute('data-scale')) > 1, undefined, WAIT);
    await B.getByTestId('photo-full').dblclick();
    await B.waitForFunction(() => document.querySelector('[data-testid="photo-full"]')?.getAttribute('data-scale') === '1.00', undefined, WAIT);
    // The wheel zooms in, and back out to the whole photo.
    await B.getByTestId('photo-full').hover();
    await B.mouse.wheel(0, -400);
    await B.waitForFunction(() => Number(document.querySelector('[data-testid="photo-full"]')?.getAttribute('data-scale')) > 1, undefined, WAIT);
    await B.mouse.wheel(0, 2000);
    await B.waitForFunction(() => document.querySelector('[data-testid="photo-full"]')?.getAttribute('data-scale') === '1.00', undefined, WAIT);
    expect(await B.getByTestId('photo-viewer').getByRole('link', { name: ko.attachment.download }).getAttribute('href')).to.equal(api.attachment(one));
    await B.keyboard.press('Escape');
    await B.getByTestId('photo-viewer').waitFor({ state: 'detached', ...WAIT });

    // The drawer: the room's four photos, newest first; one opens the viewer.
    await B.getByRole('button', { name: ko.room.openSidebar }).click();
    await B.getByRole('button', { name: '채팅방 서랍' }).click();
    const drawer = B.getByTestId('room-drawer');
    await drawer.waitFor(WAIT);
    expect(await drawer.getByRole('tab', { name: '사진' }).getAttribute('aria-selected')).to.equal('true');
    const photos = drawer.locator('.drawer__photo');
    await photos.nth(3).waitFor(WAIT);
    expect(await photos.count()).to.equal(4);
    expect(await photos.evaluateAll((els) => els.map((el) => el.getAttribute('aria-label')))).to.deep.equal(
      ['셋.png', '둘.png', '하나.png', '먼저.png'].map((n) => ko.attachment.open(n)),
    );
    await photos.nth(3).click();
    await shownBecomes(B, earlier);
    await B.getByRole('button', { name: '다음 사진' }).click();
    await shownBecomes(B, one);
    await B.getByTestId('photo-viewer').getByRole('button', { name: ko.attachment.close }).click();
    await B.getByTestId('photo-viewer').waitFor({ state: 'detached', ...WAIT });
    await drawer.getByRole('tab', { name: '파일' }).click();
    await drawer.getByText('주고받은 파일이 없습니다.').waitFor(WAIT);
    await drawer.getByRole('button', { name: '닫기' }).click();
    await drawer.waitFor({ state: 'detached', ...WAIT });
  });

  it('on a touch phone: a swipe goes to the next photo, a pinch zooms, one finger pans, a double tap shows it whole', async () => {
    const a = await createUser(app.server, { name: '사진 보내는 사람' });
    const b = await createUser(app.server, { name: '폰으로 보는 사람' });
    const client = await loginClient(app.server, a);
    const chatRoomId = (await client.post(api.roomCreate, { targetUserId: b.userId })).body.chatRoomId as number;
    const A = await app.signIn(a);
    await openRoom(A, chatRoomId);
    await A.getByTestId('attach-input').setInputFiles([
      { name: '왼쪽.png', mimeType: 'image/png', buffer: await png(30, 500) },
      { name: '오른쪽.png', mimeType: 'image/png', buffer: await png(220, 500) },
    ]);
    await A.getByTestId('my-message').getByTestId('photo-grid').waitFor(WAIT);
    const album = (await client.get<ChatHistoryResponse>(`${api.chatHistory}?chatRoomId=${chatRoomId}&page=0`)).body.messages.find((m) => m.attachments)!;
    const [left, right] = album.attachments!.map((p) => p.attachmentId);

    // A phone: touch events only, as Chromium makes them from a touchscreen (pointerType touch).
    const context = await app.browser.newContext({ baseURL: app.baseUrl, locale: 'ko-KR', hasTouch: true, isMobile: true, viewport: { width: 390, height: 844 } });
    try {
      const B = await context.newPage();
      await B.goto(app.url('/login'));
      await B.getByLabel(ko.login.email).fill(b.email);
      await B.getByLabel(ko.login.password, { exact: true }).fill(b.password);
      await B.getByLabel(ko.login.password, { exact: true }).press('Enter');
      await B.waitForURL('**/chat-list', WAIT);
      await openRoom(B, chatRoomId);
      await B.getByTestId('their-message').getByTestId('photo-grid').getByRole('button', { name: ko.attachment.open('왼쪽.png') }).tap();
      await shownBecomes(B, left);

      const cdp = await context.newCDPSession(B);
      const stage = (await B.locator('.viewer__stage').boundingBox())!;
      const [cx, cy] = [stage.x + stage.width / 2, stage.y + stage.height / 2];
      /** One touch frame: each finger's place (the same index is the same finger), none to lift them all. */
      const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', fingers: Array<[number, number]>) =>
        cdp.send('Input.dispatchTouchEvent', { type, touchPoints: fingers.map(([x, y], id) => ({ x, y, id })) });
      const scale = () => B.getByTestId('photo-full').getAttribute('data-scale').then(Number);
      const transform = () => B.getByTestId('photo-full').evaluate((el) => (el as HTMLElement).style.transform);

      // A swipe to the left: the next photo.
      await touch('touchStart', [[cx + 100, cy]]);
      for (const x of [cx + 50, cx, cx - 50, cx - 100]) await touch('touchMove', [[x, cy]]);
      await touch('touchEnd', []);
      await shownBecomes(B, right);

      // Two fingers spreading: zoomed in, in proportion (80 px apart, then 240).
      await touch('touchStart', [[cx - 40, cy], [cx + 40, cy]]);
      for (const d of [60, 90, 120]) await touch('touchMove', [[cx - d, cy], [cx + d, cy]]);
      await touch('touchEnd', []);
      await B.waitForFunction(() => Number(document.querySelector('[data-testid="photo-full"]')?.getAttribute('data-scale')) > 2, undefined, WAIT);
      expect(await scale()).to.be.at.most(4);

      // One finger drags the zoomed photo; it stays on the same photo (no swipe while zoomed).
      const before = await transform();
      await touch('touchStart', [[cx, cy]]);
      for (const x of [cx - 30, cx - 60, cx - 90]) await touch('touchMove', [[x, cy + 20]]);
      await touch('touchEnd', []);
      await B.waitForFunction((was) => (document.querySelector('[data-testid="photo-full"]') as HTMLElement | null)?.style.transform !== was, before, WAIT);
      await shownBecomes(B, right);

      // A double tap: the whole photo again.
      for (let i = 0; i < 2; i += 1) {
        await touch('touchStart', [[cx, cy]]);
        await touch('touchEnd', []);
      }
      // (Chromium makes the two taps a dblclick too: it must not zoom back in.)
      await B.waitForFunction(() => document.querySelector('[data-testid="photo-full"]')?.getAttribute('data-scale') === '1.00', undefined, WAIT);
      await B.waitForTimeout(500);
      expect(await scale()).to.equal(1);
    } finally {
      await context.close();
    }
  });
});
