// Photos and files through the real UI: A pastes an image into the message box, B
// sees its thumbnail appear live and opens the full image; A attaches a file with the button,
// B sees a card with its name and size.
import type { Page } from 'playwright-core';
import { expect } from 'chai';
import sharp from 'sharp';
import { api } from '@common/api';
import { createUser, loginClient } from '../../../server/test/support/users';
import { ko } from '../../src/i18n/ko';
import { useE2eApp } from './support/app';

const WAIT = { timeout: 30_000 };

describe('photos and files in the browser', function () {
  const app = useE2eApp();

  async function openRoom(page: Page, chatRoomId: number): Promise<void> {
    await page.goto(app.url(`/chat-room?cri=${chatRoomId}`));
    await page.getByTestId('messages').waitFor(WAIT);
  }

  /** Whether the image has loaded with real pixels. */
  const loaded = (page: Page, testId: string) =>
    page.getByTestId(testId).first().evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0);

  it('shows B the thumbnail of an image A pasted, opens the full image, and shows a file attached with the button as a card', async () => {
    const a = await createUser(app.server, { name: '사진 보내는 사람' });
    const b = await createUser(app.server, { name: '사진 받는 사람' });
    const client = await loginClient(app.server, a);
    const chatRoomId = (await client.post(api.roomCreate, { targetUserId: b.userId })).body.chatRoomId as number;
    const A = await app.signIn(a);
    const B = await app.signIn(b);
    await openRoom(A, chatRoomId);
    await openRoom(B, chatRoomId);

    const png = await sharp({ create: { width: 800, height: 500, channels: 3, background: { r: 20, g: 120, b: 220 } } }).png().toBuffer();
    const box = A.getByRole('textbox', { name: ko.room.messagePlaceholder });
    await box.focus();
    await box.evaluate((el, base64) => {
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const data = new DataTransfer();
      data.items.add(new File([bytes], '붙여넣은 사진.png', { type: 'image/png' }));
      el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    }, png.toString('base64'));

    const theirs = B.getByTestId('their-message').getByTestId('photo-thumbnail');
    await theirs.waitFor(WAIT);
    await B.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>('[data-testid="their-message"] [data-testid="photo-thumbnail"]');
      return img !== null && img.complete && img.naturalWidth > 0;
    }, undefined, WAIT);
    expect(await loaded(B, 'photo-thumbnail')).to.equal(true);
    expect(await theirs.evaluate((img: HTMLImageElement) => img.naturalWidth)).to.equal(400); // the server's thumbnail, not the original
    await A.getByTestId('my-message').getByTestId('photo-thumbnail').waitFor(WAIT);
    expect(await box.inputValue()).to.equal('');

    await B.getByRole('button', { name: ko.attachment.open('붙여넣은 사진.png') }).click();
    const full = B.getByTestId('photo-full');
    await full.waitFor(WAIT);
    await B.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>('[data-testid="photo-full"]');
      return img !== null && img.complete && img.naturalWidth === 800;
    }, undefined, WAIT);
    await B.getByRole('button', { name: ko.attachment.close }).click();
    await full.waitFor({ state: 'detached', ...WAIT });

    await A.getByTestId('attach-input').setInputFiles({ name: '회의록.pdf', mimeType: 'application/pdf', buffer: Buffer.alloc(5000, 1) });
    const card = B.getByTestId('their-message').getByTestId('file-card');
    await card.waitFor(WAIT);
    expect(await card.textContent()).to.include('회의록.pdf');
    expect(await card.textContent()).to.include(ko.attachment.size(5000));
  });
});
