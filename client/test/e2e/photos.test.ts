// Several photos at once, the viewer and the room's drawer through the real UI (issue 27): A
// sends a photo, then picks three photos at once; B sees the three as one message's grid, opens
// the viewer on the album's second photo, goes next and previous (buttons, arrow keys) across
// the album and back to A's earlier photo of the room, closes with Escape; B's drawer lists the
// room's four photos newest first and opens the viewer from there.
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
});
