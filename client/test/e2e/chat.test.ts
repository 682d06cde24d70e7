// Chatting through the real UI: users in separate Chromium contexts find each other, talk live,
// rename, invite, leave, notify by e-mail and page back through history, against the real server
// (REST + STOMP), the built client and a real SMTP receiver.
import { expect } from 'chai';
import type { Page, WebSocketRoute } from 'playwright-core';
import { api } from '@common/api';
import { createUser, loginClient, type TestUser } from '../../../server/test/support/users';
import { ko } from '../../src/i18n/ko';
import { useE2eApp } from './support/app';
import { answerDialog } from './support/dialogs';

const WAIT = { timeout: 30_000 };

describe('chatting in the browser', function () {
  const app = useE2eApp();

  interface Signed {
    page: Page;
    alerts: string[];
    /** The page's WebSockets, passed through to the server, so a test can cut them. */
    sockets: WebSocketRoute[];
  }

  /** Signs in through /login and lands on /chat-list; keeps the text of any browser-native dialog (there should be none). */
  async function signedIn(user: TestUser): Promise<Signed> {
    const { page } = await app.openUser();
    await page.setViewportSize({ width: 390, height: 844 });
    const sockets: WebSocketRoute[] = [];
    await page.routeWebSocket(/\/websocket$/, (ws) => {
      ws.connectToServer();
      sockets.push(ws);
    });
    const alerts: string[] = [];
    page.on('dialog', (dialog) => {
      alerts.push(dialog.message());
      void dialog.accept();
    });
    await page.goto(app.url('/login'));
    await page.getByLabel(ko.login.email).fill(user.email);
    await page.getByLabel(ko.login.password, { exact: true }).fill(user.password);
    await page.getByLabel(ko.login.password, { exact: true }).press('Enter');
    await page.waitForURL('**/chat-list', WAIT);
    return { page, alerts, sockets };
  }

  /** A room made through the REST API (for the tests that are not about starting one). */
  async function roomOf(owner: TestUser, other: TestUser): Promise<number> {
    const client = await loginClient(app.server, owner);
    const res = await client.post(api.roomCreate, { targetUserId: other.userId, targetUserName: other.name });
    expect(res.status).to.equal(200);
    return (res.body as { chatRoomId: number }).chatRoomId;
  }

  async function openRoom(page: Page, chatRoomId: number): Promise<void> {
    await page.goto(app.url(`/chat-room?cri=${chatRoomId}`));
    await page.getByTestId('messages').waitFor(WAIT);
  }

  async function send(page: Page, text: string): Promise<void> {
    const box = page.getByRole('textbox', { name: ko.room.messagePlaceholder });
    await box.fill(text);
    await box.press('Enter');
  }

  const bubble = (page: Page, text: string) => page.locator('.bubble', { hasText: text });
  const rowOf = (page: Page, roomName: string) => page.getByTestId('chat-row').filter({ hasText: roomName });

  it('lets A find B and start a chat; they talk live, and B\'s unread dot clears once B opens the room', async () => {
    const a = await createUser(app.server, { name: '김민지' });
    const b = await createUser(app.server, { name: '박서준' });
    const A = await signedIn(a);
    const B = await signedIn(b);

    await A.page.getByRole('link', { name: ko.chatList.findUser }).click();
    await A.page.waitForURL('**/find-user', WAIT);
    await A.page.getByRole('searchbox').fill(b.name);
    await A.page.getByRole('searchbox').press('Enter');
    await A.page.getByTestId('user-row').filter({ hasText: b.email }).getByRole('button', { name: ko.userSearch.startChat }).click();
    await A.page.waitForURL('**/chat-room?cri=*', WAIT);
    // A room no one renamed is named from each side: A sees B's name, B sees A's.
    await A.page.getByTestId('room-name').filter({ hasText: b.name }).waitFor(WAIT);
    const roomName = a.name;

    await send(A.page, '안녕하세요, 서준 씨!');
    await bubble(A.page, '안녕하세요, 서준 씨!').waitFor(WAIT);

    // B's open list refreshes live: the room, its last message and its unread count.
    const row = rowOf(B.page, roomName);
    await row.filter({ hasText: '안녕하세요, 서준 씨!' }).waitFor(WAIT);
    await row.getByTestId('unread-count').filter({ hasText: '1' }).waitFor(WAIT);

    await row.click();
    await B.page.waitForURL('**/chat-room?cri=*', WAIT);
    await bubble(B.page, '안녕하세요, 서준 씨!').waitFor(WAIT);
    expect(await B.page.getByTestId('their-message').filter({ hasText: a.name }).count()).to.equal(1);

    await send(B.page, '네, 반가워요 <b>민지</b> 씨');
    await bubble(A.page, '네, 반가워요 <b>민지</b> 씨').waitFor(WAIT);
    expect(await A.page.locator('.bubble b').count()).to.equal(0);
    await send(A.page, '실시간으로 잘 오네요');
    await bubble(B.page, '실시간으로 잘 오네요').waitFor(WAIT);

    await B.page.getByRole('link', { name: ko.room.back }).click();
    await B.page.waitForURL('**/chat-list', WAIT);
    await rowOf(B.page, roomName).filter({ hasText: '실시간으로 잘 오네요' }).waitFor(WAIT);
    expect(await rowOf(B.page, roomName).getByTestId('unread-count').count()).to.equal(0);
    expect(await rowOf(B.page, roomName).getByTestId('unread-dot').count()).to.equal(0);
  });

  it('shows A\'s rename to B, lets A invite C who then sees the room, and tells A when B leaves', async () => {
    const a = await createUser(app.server, { name: '최유리' });
    const b = await createUser(app.server, { name: '정하준' });
    const c = await createUser(app.server, { name: '한지우' });
    const chatRoomId = await roomOf(a, b);
    const A = await signedIn(a);
    const B = await signedIn(b);
    await openRoom(A.page, chatRoomId);
    await openRoom(B.page, chatRoomId);

    await A.page.getByTestId('room-name').click();
    await A.page.getByLabel(ko.room.renameLabel).fill('주말 등산 모임');
    await A.page.getByRole('button', { name: ko.room.renameConfirmLabel }).click();
    await B.page.getByTestId('room-name').filter({ hasText: '주말 등산 모임' }).waitFor(WAIT);
    await B.page.getByTestId('system-message').filter({ hasText: '"최유리"님이 채팅 이름을 "주말 등산 모임" (으)로 변경하였습니다' }).waitFor(WAIT);

    await A.page.getByRole('button', { name: ko.room.openSidebar }).click();
    await A.page.getByRole('link', { name: ko.room.invite }).click();
    await A.page.waitForURL(`**/add-user-to-chat?cri=${chatRoomId}`, WAIT);
    await A.page.getByRole('searchbox').fill(c.name);
    await A.page.getByRole('searchbox').press('Enter');
    const cRow = A.page.getByTestId('user-row').filter({ hasText: c.email });
    await cRow.getByRole('button', { name: ko.invite.add }).click();
    await cRow.getByTestId('in-chat').waitFor(WAIT);

    const C = await signedIn(c);
    await rowOf(C.page, '주말 등산 모임').click();
    await C.page.getByTestId('system-message').filter({ hasText: '"최유리" 님이 "한지우" 님을 추가했습니다' }).waitFor(WAIT);

    await openRoom(A.page, chatRoomId);
    await B.page.getByRole('button', { name: ko.room.openSidebar }).click();
    await B.page.getByTestId('participant-count').filter({ hasText: ko.room.participants(3) }).waitFor(WAIT);
    await B.page.getByRole('button', { name: ko.room.leave }).click();
    expect(await answerDialog(B.page)).to.equal(ko.room.leaveConfirm);
    await B.page.waitForURL('**/chat-list', WAIT);
    expect(B.alerts).to.deep.equal([]);

    await A.page.getByTestId('system-message').filter({ hasText: '"정하준"님이 채팅에서 나갔습니다' }).waitFor(WAIT);
    await A.page.getByRole('button', { name: ko.room.openSidebar }).click();
    await A.page.getByTestId('participant-count').filter({ hasText: ko.room.participants(2) }).waitFor(WAIT);
    expect(await A.page.getByTestId('participant').filter({ hasText: b.email }).count()).to.equal(0);
  });

  it('sends the e-mail notification to the other members once, after a confirm', async () => {
    const a = await createUser(app.server, { name: '오세훈' });
    const b = await createUser(app.server, { name: '윤아름' });
    const chatRoomId = await roomOf(a, b);
    const A = await signedIn(a);
    await openRoom(A.page, chatRoomId);
    await A.page.getByRole('button', { name: ko.room.openSidebar }).click();
    await A.page.getByRole('button', { name: ko.room.notify }).click();
    expect(await answerDialog(A.page)).to.equal(ko.room.notifyConfirm);
    await A.page.getByRole('button', { name: ko.room.notifyDone }).waitFor(WAIT);
    expect(A.alerts).to.deep.equal([]);
    const mail = await app.smtp.waitFor(b.email, 20_000);
    expect(mail.text + mail.html).to.contain(`${a.name}, ${b.name}`);
    expect(await A.page.getByRole('button', { name: ko.room.notifyDone }).isDisabled()).to.equal(true);
  });

  it('loads older messages when the reader scrolls to the top, keeping their place', async () => {
    const a = await createUser(app.server, { name: '서도윤' });
    const b = await createUser(app.server, { name: '강하늘' });
    const chatRoomId = await roomOf(a, b);
    const A = await signedIn(a);
    await openRoom(A.page, chatRoomId);
    for (let i = 1; i <= 45; i += 1) await send(A.page, `기록 ${i}번`);
    await bubble(A.page, '기록 45번').waitFor(WAIT);
    await A.page.waitForFunction(() => document.querySelectorAll('.msg--pending').length === 0, undefined, WAIT);

    const B = await signedIn(b);
    await openRoom(B.page, chatRoomId);
    const list = B.page.getByTestId('messages');
    await bubble(B.page, '기록 45번').waitFor(WAIT);
    expect(await B.page.getByTestId('their-message').count()).to.equal(20);

    // Where the oldest loaded message sits on screen, measured in the same task as the scroll.
    const before = await list.evaluate((el) => {
      el.scrollTop = 0;
      const bubble = [...el.querySelectorAll('.bubble')].find((b) => b.textContent === '기록 26번');
      return bubble ? bubble.getBoundingClientRect().top - el.getBoundingClientRect().top : NaN;
    });
    await B.page.waitForFunction(() => document.querySelectorAll('[data-testid=their-message]').length === 40, undefined, WAIT);
    // The reader keeps their place: the older page went in above what they were reading.
    const after = await list.evaluate((el) => {
      const bubble = [...el.querySelectorAll('.bubble')].find((b) => b.textContent === '기록 26번');
      return bubble ? bubble.getBoundingClientRect().top - el.getBoundingClientRect().top : NaN;
    });
    expect(Math.abs(after - before)).to.be.lessThan(2);
    await list.evaluate((el) => { el.scrollTop = 0; });
    await bubble(B.page, '기록 1번').waitFor(WAIT);
    expect(await B.page.getByTestId('their-message').count()).to.equal(45);
    const texts = await B.page.locator('.bubble').allTextContents();
    expect(texts).to.deep.equal(Array.from({ length: 45 }, (_, i) => `기록 ${i + 1}번`));
  });

  it('after a dropped connection delivers what was sent meanwhile, both ways, exactly once', async () => {
    const a = await createUser(app.server, { name: '임채원' });
    const b = await createUser(app.server, { name: '송민호' });
    const chatRoomId = await roomOf(a, b);
    const A = await signedIn(a);
    const B = await signedIn(b);
    await openRoom(A.page, chatRoomId);
    await openRoom(B.page, chatRoomId);
    await send(A.page, '연결 확인');
    await bubble(B.page, '연결 확인').waitFor(WAIT);

    // The network drops under B: the app says so and keeps B's message as pending.
    await Promise.all(B.sockets.map((ws) => ws.close()));
    await B.page.locator('.banner', { hasText: ko.room.reconnecting }).waitFor(WAIT);
    await send(A.page, 'B가 없는 동안 보낸 메시지');
    await send(B.page, '끊긴 동안 쓴 답장');
    await B.page.locator('.msg--pending', { hasText: '끊긴 동안 쓴 답장' }).waitFor(WAIT);

    // The 5 s reconnect: B catches up, and the pending reply goes out once.
    await bubble(B.page, 'B가 없는 동안 보낸 메시지').waitFor(WAIT);
    await bubble(A.page, '끊긴 동안 쓴 답장').waitFor(WAIT);
    await B.page.locator('.msg--pending').waitFor({ state: 'detached', ...WAIT });
    await B.page.locator('.banner').waitFor({ state: 'detached', ...WAIT });
    for (const page of [A.page, B.page]) {
      expect(await page.locator('.bubble').allTextContents()).to.deep.equal(['연결 확인', 'B가 없는 동안 보낸 메시지', '끊긴 동안 쓴 답장']);
    }
  });
});
