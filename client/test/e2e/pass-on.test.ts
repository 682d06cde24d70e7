// Passing messages on through the real UI (issue 27): a message copied (the clipboard holds it,
// the room says 복사되었습니다.) and forwarded from its menu to two
// rooms through the picker (the members of both see it, marked 전달됨), several messages ticked
// and deleted for me (gone for the user alone), and 나와의 채팅 opened from the chat list. axe
// checks the picker and the selection bar.
import { expect } from 'chai';
import type { Locator, Page } from 'playwright-core';
import { api, type ChatHistoryResponse, type ChatMessage } from '@common/api';
import { app as destinations, topics } from '@common/destinations';
import { decodeChatMessage } from '@common/events';
import { connectStomp, type TestStomp } from '../../../server/test/support/stomp-client';
import { createUser, loginClient, type TestUser } from '../../../server/test/support/users';
import { ko } from '../../src/i18n/ko';
import { koPassOn } from '../../src/i18n/koPassOn';
import { koPassOnExtras } from '../../src/i18n/koPassOnExtras';
import { koMemoRoom } from '../../src/i18n/koMemoRoom';
import { useE2eApp } from './support/app';
import { describeViolations, seriousViolations } from './support/axe';
import { answerDialog } from './support/dialogs';

const WAIT = { timeout: 30_000 };

describe('forwarding, delete for me and the memo room in the browser', function () {
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
    const violations = await seriousViolations(page);
    if (violations.length > 0) found.push(describeViolations(where, violations));
  }

  async function stompOf(user: TestUser): Promise<TestStomp> {
    const client = await loginClient(app.server, user);
    const stomp = await connectStomp(app.server, client.cookieHeader());
    sockets.push(stomp);
    return stomp;
  }

  const roomOf = async (a: TestUser, b: TestUser): Promise<number> => {
    const client = await loginClient(app.server, a);
    return ((await client.post(api.roomCreate, { targetUserId: b.userId })).body as { chatRoomId: number }).chatRoomId;
  };

  const bubble = (page: Page, testId: 'my-message' | 'their-message', text: string): Locator => page.getByTestId(testId).filter({ hasText: text }).last();

  async function openMenu(message: Locator): Promise<Locator> {
    await message.hover();
    await message.getByTestId('message-menu-button').click();
    return message.getByTestId('message-menu');
  }

  it('copies a message from its menu, then forwards it to two rooms through the picker: both rooms\' members see it marked 전달됨', async () => {
    const a = await createUser(app.server, { name: '김민지' });
    const b = await createUser(app.server, { name: '박서준' });
    const c = await createUser(app.server, { name: '이하늘' });
    const d = await createUser(app.server, { name: '최바다' });
    const source = await roomOf(a, b);
    const toC = await roomOf(a, c);
    const toD = await roomOf(a, d);
    const bStomp = await stompOf(b);
    await bStomp.send(destinations.privateMessage, { chatRoomId: source, content: '금요일 회식은 7시, 강남역' });
    const dStomp = await stompOf(d);
    const atD = await dStomp.subscribe(topics.privateChat(toD));

    const A = await app.signIn(a);
    const C = await app.signIn(c);
    await A.goto(app.url(`/chat-room?cri=${source}`));
    await C.goto(app.url(`/chat-room?cri=${toC}`));
    const original = bubble(A, 'their-message', '금요일 회식은 7시, 강남역');
    await original.waitFor(WAIT);
    expect(await original.getByTestId('forwarded-mark').count()).to.equal(0);

    // 복사: the text is on the clipboard, and the room says so for a moment.
    await A.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(app.baseUrl).origin });
    await (await openMenu(original)).getByRole('button', { name: koPassOnExtras.copy }).click();
    await A.getByTestId('room-toast').filter({ hasText: koPassOn.copied }).waitFor(WAIT);
    expect(await A.evaluate(() => navigator.clipboard.readText())).to.equal('금요일 회식은 7시, 강남역');

    const menu = await openMenu(original);
    await menu.getByRole('button', { name: koPassOnExtras.forward }).click();
    const picker = A.getByRole('dialog', { name: koPassOnExtras.pickerTitle });
    await picker.getByRole('checkbox', { name: '이하늘' }).check(WAIT);
    await picker.getByRole('checkbox', { name: '최바다' }).check(WAIT);
    await axe(A, 'forward picker');
    await picker.getByRole('button', { name: koPassOnExtras.send(2) }).click();
    await picker.waitFor({ state: 'detached', ...WAIT });

    // C's open room shows it live, marked; D (over STOMP) gets it marked forwarded, from A.
    const atC = bubble(C, 'their-message', '금요일 회식은 7시, 강남역');
    await atC.waitFor(WAIT);
    expect(await atC.getByTestId('forwarded-mark').innerText()).to.equal(koPassOn.forwarded);
    let got: ChatMessage | null = null;
    while (got?.content !== '금요일 회식은 7시, 강남역') got = decodeChatMessage((await atD.next()).json(), toD);
    expect(got).to.deep.include({ forwarded: true, senderId: a.userId, senderName: '김민지' });
    // After a reload (history), the mark stays.
    await C.reload();
    await bubble(C, 'their-message', '금요일 회식은 7시, 강남역').getByTestId('forwarded-mark').waitFor(WAIT);
    expect(found, found.join('\n')).to.deep.equal([]);
  });

  it('ticks several messages and deletes them for the user alone, and opens 나와의 채팅 from the chat list', async () => {
    const a = await createUser(app.server, { name: '정하나' });
    const b = await createUser(app.server, { name: '한두리' });
    const roomId = await roomOf(a, b);
    const bStomp = await stompOf(b);
    for (const text of ['첫째 메시지', '둘째 메시지', '셋째 메시지']) await bStomp.send(destinations.privateMessage, { chatRoomId: roomId, content: text });

    const A = await app.signIn(a);
    await A.goto(app.url(`/chat-room?cri=${roomId}`));
    await bubble(A, 'their-message', '셋째 메시지').waitFor(WAIT);
    await (await openMenu(bubble(A, 'their-message', '첫째 메시지'))).getByRole('button', { name: koPassOnExtras.select }).click();
    const bar = A.getByRole('toolbar', { name: koPassOnExtras.selectionBar });
    await bar.getByText(koPassOnExtras.selected(1)).waitFor(WAIT);
    await A.getByRole('checkbox', { name: koPassOnExtras.selectMessage('셋째 메시지') }).check();
    await bar.getByText(koPassOnExtras.selected(2)).waitFor(WAIT);
    await axe(A, 'selection bar');
    await bar.getByRole('button', { name: koPassOnExtras.hideSelected }).click();
    await answerDialog(A, ko.messageActions.deleteConfirmLabel);
    await bubble(A, 'their-message', '첫째 메시지').waitFor({ state: 'detached', ...WAIT });
    await bubble(A, 'their-message', '셋째 메시지').waitFor({ state: 'detached', ...WAIT });
    await bar.waitFor({ state: 'detached', ...WAIT });
    expect(await bubble(A, 'their-message', '둘째 메시지').count()).to.equal(1);
    // Gone from A's history for good, still in B's.
    const history = async (user: TestUser) =>
      ((await (await loginClient(app.server, user)).get<ChatHistoryResponse>(`${api.chatHistory}?chatRoomId=${roomId}&page=0`)).body.messages.map((m) => m.content));
    expect(await history(a)).to.deep.equal(['둘째 메시지']);
    expect(await history(b)).to.deep.equal(['첫째 메시지', '둘째 메시지', '셋째 메시지']);

    // 나와의 채팅: the chat list's entry makes it and opens it; back in the list it is the first row.
    await A.goto(app.url('/chat-list'));
    await A.getByTestId('memo-room-entry').click(WAIT);
    await A.waitForURL(/\/chat-room\?cri=\d+/, WAIT);
    const box = A.getByRole('textbox', { name: ko.room.messagePlaceholder });
    await box.fill('장보기: 우유');
    await box.press('Enter');
    await bubble(A, 'my-message', '장보기: 우유').waitFor(WAIT);
    await A.goto(app.url('/chat-list'));
    const first = A.getByTestId('chat-row').first();
    await first.filter({ hasText: koMemoRoom.name }).waitFor(WAIT);
    expect(await A.getByTestId('memo-room-entry').count()).to.equal(0);
    expect(found, found.join('\n')).to.deep.equal([]);
  });
});
