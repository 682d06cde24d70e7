// KakaoTalk's read state through the real UI: three members in one room; the number
// beside A's message counts down live as the others read it, B's chat list counts what waits
// for B, and typing shows under the messages and clears.
import type { Page } from 'playwright-core';
import { expect } from 'chai';
import { api } from '@common/api';
import { createUser, loginClient, type TestUser } from '../../../server/test/support/users';
import { ko } from '../../src/i18n/ko';
import { useE2eApp } from './support/app';

const WAIT = { timeout: 30_000 };

describe('read counts, unread counts and typing in the browser', function () {
  const app = useE2eApp();

  async function roomOfThree(a: TestUser, b: TestUser, c: TestUser): Promise<number> {
    const client = await loginClient(app.server, a);
    const res = await client.post(api.roomCreate, { targetUserId: b.userId });
    const chatRoomId = (res.body as { chatRoomId: number }).chatRoomId;
    expect((await client.post(api.addUser, { chatRoomId, userId: c.userId })).status).to.equal(200);
    return chatRoomId;
  }

  async function openRoom(page: Page, chatRoomId: number): Promise<void> {
    await page.goto(app.url(`/chat-room?cri=${chatRoomId}`));
    await page.getByTestId('messages').waitFor(WAIT);
  }

  it('counts down the members who have not read A\'s message from 2 to 1 live as B reads it, shows B\'s unread count, and shows B typing until it clears', async () => {
    const a = await createUser(app.server, { name: '김민지' });
    const b = await createUser(app.server, { name: '박서준' });
    const c = await createUser(app.server, { name: '이하은' });
    const chatRoomId = await roomOfThree(a, b, c);
    const A = await app.signIn(a);
    const B = await app.signIn(b);
    await openRoom(A, chatRoomId);

    const box = A.getByRole('textbox', { name: ko.room.messagePlaceholder });
    await box.fill('다들 읽었어?');
    await box.press('Enter');
    const mine = A.getByTestId('my-message').filter({ hasText: '다들 읽었어?' });
    await mine.getByTestId('read-count').filter({ hasText: '2' }).waitFor(WAIT);

    // B's list counts the invitation and A's message, both unread.
    const row = B.getByTestId('chat-row').filter({ hasText: '다들 읽었어?' });
    await row.getByTestId('unread-count').filter({ hasText: '2' }).waitFor(WAIT);

    await row.click();
    // On a desktop the list stays beside the room, so look for the message in the conversation.
    await B.getByTestId('their-message').getByText('다들 읽었어?').waitFor(WAIT);
    await mine.getByTestId('read-count').filter({ hasText: '1' }).waitFor(WAIT);

    await B.getByRole('textbox', { name: ko.room.messagePlaceholder }).pressSequentially('지금 답장');
    const typing = A.getByTestId('typing-line');
    await typing.filter({ hasText: ko.room.typing(b.name) }).waitFor(WAIT);
    await A.waitForFunction(() => document.querySelector('[data-testid="typing-line"]')?.textContent === '', undefined, WAIT);
  });
});
