// Acting on messages through the real UI, as two users watching each other: a reply
// with its quote, a tap on a quote that loads older pages until the original shows, an edit
// ('(수정됨)'), a deletion for everyone ('삭제된 메시지입니다.', in the chat list too), reactions
// given and taken back, and a search on the chat list whose result opens the room around an old
// message. axe checks each new state.
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { Locator, Page } from 'playwright-core';
import { api, type ChatMessage } from '@common/api';
import { app as destinations, topics } from '@common/destinations';
import { decodeChatMessage } from '@common/events';
import { DELETED_MESSAGE_TEXT } from '@common/system-text';
import { connectStomp, type TestStomp } from '../../../server/test/support/stomp-client';
import { createUser, loginClient, type TestUser } from '../../../server/test/support/users';
import { ko } from '../../src/i18n/ko';
import { useE2eApp } from './support/app';
import { describeViolations, seriousViolations } from './support/axe';

const WAIT = { timeout: 30_000 };
const SCREENSHOT_DIR = process.env.E2E_SCREENSHOTS;
/** Messages after the original: more than one page (20), so jumping to it loads older ones. */
const FILLERS = 25;

describe('reply, edit, delete, reactions and message search in the browser', function () {
  const app = useE2eApp();
  const sockets: TestStomp[] = [];
  const found: string[] = [];

  beforeEach(() => {
    found.length = 0;
  });
  afterEach(async () => {
    await Promise.all(sockets.splice(0).map((s) => s.disconnect().catch(() => {})));
  });

  async function axe(page: Page, where: string): Promise<void> {
    if (SCREENSHOT_DIR) {
      fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
      await page.screenshot({ path: path.join(SCREENSHOT_DIR, `message-actions ${where}.png`) });
    }
    const violations = await seriousViolations(page);
    if (violations.length > 0) found.push(describeViolations(where, violations));
  }

  /** B's side without a browser: sends over STOMP and answers the message as stored. */
  async function stompOf(user: TestUser, chatRoomId: number) {
    const client = await loginClient(app.server, user);
    const stomp = await connectStomp(app.server, client.cookieHeader());
    sockets.push(stomp);
    const inbox = await stomp.subscribe(topics.privateChat(chatRoomId));
    return async (content: string, extra: object = {}): Promise<ChatMessage> => {
      await stomp.send(destinations.privateMessage, { chatRoomId, content, ...extra });
      for (;;) {
        const m = decodeChatMessage((await inbox.next()).json(), chatRoomId);
        if (m && m.content === content) return m;
      }
    };
  }

  const bubble = (page: Page, testId: 'my-message' | 'their-message', text: string): Locator => page.getByTestId(testId).filter({ hasText: text }).last();

  async function openMenu(message: Locator): Promise<Locator> {
    await message.hover();
    await message.getByTestId('message-menu-button').click();
    return message.getByTestId('message-menu');
  }

  async function send(page: Page, text: string): Promise<void> {
    const box = page.getByRole('textbox', { name: ko.room.messagePlaceholder });
    await box.fill(text);
    await box.press('Enter');
  }

  it('replies, jumps to a quoted message pages back, edits, reacts, deletes for everyone and finds an old message, live on both sides', async () => {
    const a = await createUser(app.server, { name: '김민지' });
    const b = await createUser(app.server, { name: '박서준' });
    const client = await loginClient(app.server, a);
    const chatRoomId = ((await client.post(api.roomCreate, { targetUserId: b.userId })).body as { chatRoomId: number }).chatRoomId;
    const bSays = await stompOf(b, chatRoomId);
    const original = await bSays('내일 회의 몇 시야?');
    for (let i = 1; i <= FILLERS; i += 1) await bSays(`잡담 ${i}`);

    const A = await app.signIn(a);
    const B = await app.signIn(b);
    await A.goto(app.url(`/chat-room?cri=${chatRoomId}`));
    await B.goto(app.url(`/chat-room?cri=${chatRoomId}`));
    await bubble(A, 'their-message', `잡담 ${FILLERS}`).waitFor(WAIT);
    await bubble(B, 'my-message', `잡담 ${FILLERS}`).waitFor(WAIT);
    expect(await A.getByText('내일 회의 몇 시야?').count()).to.equal(0);

    // Reply: the menu, the quote above the composer, the reply with its quote on both sides.
    const menu = await openMenu(bubble(A, 'their-message', `잡담 ${FILLERS}`));
    await axe(A, 'message menu');
    await menu.getByRole('button', { name: ko.messageActions.reply }).click();
    await A.getByTestId('reply-preview').filter({ hasText: `잡담 ${FILLERS}` }).waitFor(WAIT);
    await axe(A, 'reply preview');
    await send(A, '그건 나도 궁금해');
    await A.getByTestId('reply-preview').waitFor({ state: 'detached', ...WAIT });
    const replyOnB = bubble(B, 'their-message', '그건 나도 궁금해');
    await replyOnB.getByTestId('reply-quote').filter({ hasText: `잡담 ${FILLERS}` }).waitFor(WAIT);
    await bubble(A, 'my-message', '그건 나도 궁금해').getByTestId('reply-quote').waitFor(WAIT);

    // A quote of a message 26 back: tapping it loads older pages until the original is there.
    await bSays('3시야, 위에 물어본 거', { replyToMessageId: original.messageId });
    const quote = bubble(A, 'their-message', '3시야, 위에 물어본 거').getByTestId('reply-quote');
    await quote.filter({ hasText: '내일 회의 몇 시야?' }).click(WAIT);
    const originalOnA = A.locator(`[data-message-id="${original.messageId}"]`);
    await originalOnA.waitFor(WAIT);
    await A.waitForFunction((id) => document.activeElement?.getAttribute('data-message-id') === String(id), original.messageId, WAIT);
    expect(await originalOnA.isVisible()).to.equal(true);

    // Edit: Escape leaves the text as it was; Enter saves, and both sides show '(수정됨)'.
    await send(A, '오타가 있는 메세지');
    const mine = bubble(A, 'my-message', '오타가 있는 메세지');
    await mine.waitFor(WAIT);
    await (await openMenu(mine)).getByRole('button', { name: ko.messageActions.edit }).click();
    await A.getByTestId('edit-input').waitFor(WAIT);
    await axe(A, 'composer in edit mode');
    await A.getByTestId('edit-input').press('Escape');
    await A.getByTestId('edit-banner').waitFor({ state: 'detached', ...WAIT });
    await (await openMenu(mine)).getByRole('button', { name: ko.messageActions.edit }).click();
    await A.getByTestId('edit-input').fill('오타를 고친 메시지');
    await A.getByTestId('edit-input').press('Enter');
    const editedOnB = bubble(B, 'their-message', '오타를 고친 메시지');
    await editedOnB.filter({ hasText: ko.messageActions.edited }).waitFor(WAIT);
    await bubble(A, 'my-message', '오타를 고친 메시지').filter({ hasText: ko.messageActions.edited }).waitFor(WAIT);

    // Reactions: B gives 👍, A adds theirs (2), then takes it back (1).
    await (await openMenu(editedOnB)).getByRole('button', { name: `${ko.messageActions.react} 👍` }).click();
    const chipOnA = bubble(A, 'my-message', '오타를 고친 메시지').getByTestId('reaction-chip');
    await chipOnA.filter({ hasText: '1' }).waitFor(WAIT);
    await axe(B, 'reaction chips');
    await chipOnA.click();
    await editedOnB.getByTestId('reaction-chip').filter({ hasText: '2' }).waitFor(WAIT);
    expect(await chipOnA.getAttribute('aria-pressed')).to.equal('true');
    await chipOnA.click();
    await editedOnB.getByTestId('reaction-chip').filter({ hasText: '1' }).waitFor(WAIT);

    // Delete for everyone, confirmed in the app's dialog: the text goes on both sides and from B's list.
    await send(A, '지울 메시지');
    await bubble(B, 'their-message', '지울 메시지').waitFor(WAIT);
    await (await openMenu(bubble(A, 'my-message', '지울 메시지'))).getByRole('button', { name: ko.messageActions.delete, exact: true }).click();
    const dialog = A.getByRole('alertdialog');
    await dialog.getByText(ko.messageActions.deleteConfirm).waitFor(WAIT);
    await axe(A, 'delete dialog');
    await dialog.getByRole('button', { name: ko.messageActions.deleteConfirmLabel }).click();
    await B.getByTestId('their-message').filter({ hasText: DELETED_MESSAGE_TEXT }).waitFor(WAIT);
    await A.getByTestId('my-message').filter({ hasText: DELETED_MESSAGE_TEXT }).waitFor(WAIT);
    expect(await B.getByText('지울 메시지').count()).to.equal(0);
    await B.goto(app.url('/chat-list'));
    await B.getByTestId('chat-row').filter({ hasText: DELETED_MESSAGE_TEXT }).waitFor(WAIT);

    // Search on the chat list: the match highlighted; the result opens the room around it.
    const searchBox = B.getByRole('textbox', { name: ko.messageSearch.label });
    await searchBox.fill('회의');
    await searchBox.press('Enter');
    const result = B.getByTestId('message-search-result').filter({ hasText: '내일 회의 몇 시야?' });
    await result.locator('mark', { hasText: '회의' }).waitFor(WAIT);
    await axe(B, 'message search results');
    await result.click();
    await B.waitForURL((url) => url.pathname === '/chat-room' && url.search === `?cri=${chatRoomId}&seq=${original.seq}`, WAIT);
    const originalOnB = B.locator(`[data-message-id="${original.messageId}"]`);
    await originalOnB.waitFor(WAIT);
    expect(await originalOnB.isVisible()).to.equal(true);
    // The room is whole from there to the newest message.
    await bubble(B, 'their-message', '오타를 고친 메시지').waitFor(WAIT);

    // Search in the room: nothing found says so.
    await B.getByRole('button', { name: ko.messageSearch.open, exact: true }).click();
    const roomSearch = B.getByTestId('message-search-room').getByRole('textbox', { name: ko.messageSearch.label });
    await roomSearch.fill('없는단어');
    await roomSearch.press('Enter');
    await B.getByTestId('message-search-room').getByText(ko.messageSearch.noResults).waitFor(WAIT);
    await axe(B, 'room search without results');

    expect(found, found.join('\n')).to.deep.equal([]);
  });

  it('works by keyboard and on a phone: the menu opens with Enter, a reaction is given, Escape closes the menu', async () => {
    const a = await createUser(app.server, { name: '이하은' });
    const b = await createUser(app.server, { name: '최도윤' });
    const client = await loginClient(app.server, a);
    const chatRoomId = ((await client.post(api.roomCreate, { targetUserId: b.userId })).body as { chatRoomId: number }).chatRoomId;
    const bSays = await stompOf(b, chatRoomId);
    await bSays('폰에서 공감해줘');
    const A = await app.signIn(a);
    await A.setViewportSize({ width: 390, height: 844 });
    await A.goto(app.url(`/chat-room?cri=${chatRoomId}`));
    const message = bubble(A, 'their-message', '폰에서 공감해줘');
    await message.waitFor(WAIT);
    const button = message.getByTestId('message-menu-button');
    await button.focus();
    await A.keyboard.press('Enter');
    const menu = message.getByTestId('message-menu');
    await menu.waitFor(WAIT);
    await axe(A, 'message menu on a phone');
    await A.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached', ...WAIT });
    await A.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'message-menu-button', undefined, WAIT);
    await A.keyboard.press('Enter');
    // The first reaction has the focus when the menu opens.
    await A.keyboard.press('Enter');
    await message.getByTestId('reaction-chip').filter({ hasText: '1' }).waitFor(WAIT);
    expect(found, found.join('\n')).to.deep.equal([]);
  });
});
