// Any emoji through the real UI (issue 27): B reacts to A's message with an emoji from the
// picker ('더보기'), A sees the chip live; the picker, in Korean with data we serve, shows it
// among the recently used next time; and '이모티콘' puts an emoji into the message box.
import type { Page, Request } from 'playwright-core';
import { expect } from 'chai';
import { api } from '@common/api';
import { createUser, loginClient } from '../../../server/test/support/users';
import { ko } from '../../src/i18n/ko';
import { useE2eApp } from './support/app';

const WAIT = { timeout: 30_000 };

describe('the emoji picker in the browser', function () {
  const app = useE2eApp();

  async function openRoom(page: Page, chatRoomId: number): Promise<void> {
    await page.goto(app.url(`/chat-room?cri=${chatRoomId}`));
    await page.getByTestId('messages').waitFor(WAIT);
  }

  it('reacts with an emoji beyond the quick six, remembers it as recently used, and types one into the composer', async () => {
    const a = await createUser(app.server, { name: '이모지 보내는 사람' });
    const b = await createUser(app.server, { name: '이모지 고르는 사람' });
    const client = await loginClient(app.server, a);
    const chatRoomId = (await client.post(api.roomCreate, { targetUserId: b.userId })).body.chatRoomId as number;
    const A = await app.signIn(a);
    const B = await app.signIn(b);
    const elsewhere: string[] = [];
    B.on('request', (r: Request) => {
      if (/^(https?|wss?):/.test(r.url()) && !r.url().startsWith(app.url('/'))) elsewhere.push(r.url()); // no CDN: the data is ours
    });
    await openRoom(A, chatRoomId);
    await openRoom(B, chatRoomId);

    const box = A.getByRole('textbox', { name: ko.room.messagePlaceholder });
    await box.fill('골라 주세요');
    await box.press('Enter');
    const message = B.getByTestId('their-message').filter({ hasText: '골라 주세요' });
    await message.waitFor(WAIT);
    await message.hover();
    await message.getByTestId('message-menu-button').click();
    await message.getByTestId('message-menu').getByRole('button', { name: '더보기' }).press('Enter'); // the menu of the room's first message opens under the header
    const picker = B.getByRole('dialog', { name: '이모티콘 고르기' });
    await picker.waitFor(WAIT);
    // In Korean, its categories named by our labels.
    await picker.getByRole('tab', { name: '동물과 자연' }).waitFor(WAIT);
    await picker.getByRole('tab', { name: '음식과 음료' }).click();
    await picker.locator('[id="emo-🍕"]').click();
    await picker.waitFor({ state: 'detached', ...WAIT });

    const chip = A.getByTestId('my-message').filter({ hasText: '골라 주세요' }).getByTestId('reaction-chip');
    await chip.filter({ hasText: '🍕' }).waitFor(WAIT);

    // Recently used: first in the picker's favourites row next time.
    await message.hover();
    await message.getByTestId('message-menu-button').click();
    await message.getByTestId('message-menu').getByRole('button', { name: '더보기' }).press('Enter'); // the menu of the room's first message opens under the header
    await picker.waitFor(WAIT);
    await picker.getByRole('menu', { name: '자주 쓰는 이모티콘' }).getByRole('menuitem').first().filter({ hasText: '🍕' }).waitFor(WAIT);
    await B.keyboard.press('Escape');
    await picker.waitFor({ state: 'detached', ...WAIT });

    // The composer's '이모티콘' inserts at the caret.
    const bBox = B.getByRole('textbox', { name: ko.room.messagePlaceholder });
    await bBox.fill('맛있다');
    await B.getByRole('button', { name: '이모티콘', exact: true }).click();
    await picker.waitFor(WAIT);
    await picker.getByRole('menu', { name: '자주 쓰는 이모티콘' }).getByRole('menuitem').filter({ hasText: '🍕' }).first().click();
    await picker.waitFor({ state: 'detached', ...WAIT });
    await B.waitForFunction((label) => document.querySelector<HTMLTextAreaElement>(`textarea[aria-label="${label}"]`)?.value === '맛있다🍕', ko.room.messagePlaceholder, WAIT);
    expect(elsewhere).to.deep.equal([]);
  });
});
