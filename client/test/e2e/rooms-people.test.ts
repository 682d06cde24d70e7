// Issue 26's rooms in Chromium against the real server: a muted room raises no notification
// while a message that mentions the user still does; a pinned room stays first; a notice set by
// one member shows for another, live and after a reload; a draft survives a reload; switching to
// another room and back, or reloading, comes back to where the reader was; a room's chat-list row shows a group
// call while one is on; the room title shows whole at 1440 px
// and at 390 px.
import { expect } from 'chai';
import type { BrowserContext, Page } from 'playwright-core';
import { api } from '@common/api';
import { app as destinations, queues } from '@common/destinations';
import type { GroupCallSignal } from '@common/group-call';
import { connectStomp } from '../../../server/test/support/stomp-client';
import { createUser, loginClient, type TestUser } from '../../../server/test/support/users';
import { readUntil } from '../../../server/test/support/wait';
import { ko } from '../../src/i18n/ko';
import { koRoomMarks } from '../../src/i18n/koRoomMarks';
import { koRooms } from '../../src/i18n/koRooms';
import { useE2eApp } from './support/app';

const WAIT = { timeout: 30_000 };

interface ShownNotification { body: string; tag: string }

async function notifications(page: Page): Promise<ShownNotification[]> {
  return page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    return (await registration.getNotifications()).map((n) => ({ body: n.body, tag: n.tag }));
  });
}

describe('rooms as KakaoTalk users expect them, in the browser (issue 26)', function () {
  const app = useE2eApp();

  async function signIn(user: TestUser, options: { notifications?: boolean; viewport?: { width: number; height: number } } = {}): Promise<{ context: BrowserContext; page: Page }> {
    const { context, page } = await app.openUser();
    if (options.notifications) await context.grantPermissions(['notifications'], { origin: app.baseUrl });
    if (options.viewport) await page.setViewportSize(options.viewport);
    await page.goto(app.url('/login'));
    await page.getByLabel(ko.login.email).fill(user.email);
    await page.getByLabel(ko.login.password, { exact: true }).fill(user.password);
    await page.getByLabel(ko.login.password, { exact: true }).press('Enter');
    await page.waitForURL('**/chat-list', WAIT);
    return { context, page };
  }

  async function roomOf(owner: TestUser, other: TestUser): Promise<number> {
    const client = await loginClient(app.server, owner);
    const res = await client.post(api.roomCreate, { targetUserId: other.userId, targetUserName: other.name });
    expect(res.status).to.equal(200);
    return (res.body as { chatRoomId: number }).chatRoomId;
  }

  async function say(from: TestUser, chatRoomId: number, content: string, extra: { mentions?: number[] } = {}): Promise<void> {
    const client = await loginClient(app.server, from);
    const stomp = await connectStomp(app.server, client.cookieHeader());
    try {
      await stomp.send(destinations.privateMessage, { chatRoomId, content, clientMsgId: `e2e-${Math.random()}`, ...extra });
      await stomp.roundTrip();
    } finally {
      await stomp.disconnect();
    }
  }

  async function openRoom(page: Page, chatRoomId: number): Promise<void> {
    await page.goto(app.url(`/chat-room?cri=${chatRoomId}`));
    await page.getByTestId('messages').waitFor(WAIT);
  }

  /** The room menu's switch (알림 끄기, 채팅방 고정, ...), once the room's settings are read. */
  async function roomMenuSwitch(page: Page, label: string, after: string): Promise<void> {
    await page.getByRole('button', { name: ko.room.openSidebar }).click();
    const button = page.getByRole('button', { name: label, exact: true });
    // Disabled until the room's settings are read.
    await page.waitForFunction((name) => [...document.querySelectorAll('button')].some((b) => b.textContent?.trim() === name && !b.disabled), label, WAIT);
    await button.click();
    await page.getByRole('button', { name: after, exact: true }).waitFor(WAIT);
    await page.getByRole('button', { name: ko.room.closeSidebar }).click();
  }

  it('keeps a muted room silent while a message that mentions the user still notifies', async () => {
    const reader = await createUser(app.server, { name: '김태리' });
    const noisy = await createUser(app.server, { name: '남주혁' });
    const quiet = await createUser(app.server, { name: '김지원' });
    const friend = await createUser(app.server, { name: '박서준' });
    const reading = await roomOf(reader, quiet);
    const muted = await roomOf(noisy, reader);
    // Another person's room: a two-person room is one per pair.
    const sentinel = await roomOf(friend, reader);
    const { page } = await signIn(reader, { notifications: true });
    await openRoom(page, muted);
    await roomMenuSwitch(page, koRooms.roomSettings.mute, koRooms.roomSettings.unmute);
    await openRoom(page, reading);

    await say(noisy, muted, '단톡 광고입니다');
    // A message in an unmuted room after it: once its notification shows, the muted one would have too.
    await say(friend, sentinel, '이건 알려줘');
    await readUntil(() => notifications(page), (n) => n.some((x) => x.tag === `room-${sentinel}`), { what: 'the unmuted room\'s notification', timeoutMs: WAIT.timeout, everyMs: 100 });
    expect((await notifications(page)).map((n) => n.tag)).not.to.include(`room-${muted}`);

    await say(noisy, muted, '@김태리 이건 꼭 보세요', { mentions: [reader.userId] });
    const shown = await readUntil(() => notifications(page), (n) => n.some((x) => x.tag === `room-${muted}`), { what: 'the mention\'s notification', timeoutMs: WAIT.timeout, everyMs: 100 });
    expect(shown.find((n) => n.tag === `room-${muted}`)?.body).to.equal('@김태리 이건 꼭 보세요');

    await page.goto(app.url('/chat-list'));
    const row = page.getByTestId('chat-row').filter({ hasText: '남주혁' });
    await row.getByRole('img', { name: koRoomMarks.chatList.mentioned }).waitFor(WAIT);
    await row.getByRole('img', { name: koRoomMarks.chatList.muted }).waitFor(WAIT);
  });

  it('keeps a pinned room first as other rooms get news', async () => {
    const me = await createUser(app.server, { name: '박보영' });
    const old = await createUser(app.server, { name: '조정석' });
    const busy = await createUser(app.server, { name: '이선균' });
    const pinned = await roomOf(me, old);
    await say(old, pinned, '오래된 방');
    const other = await roomOf(busy, me);
    await say(busy, other, '새 소식');
    const { page } = await signIn(me);
    await openRoom(page, pinned);
    await roomMenuSwitch(page, koRooms.roomSettings.pin, koRooms.roomSettings.unpin);
    await page.goto(app.url('/chat-list'));
    const rows = page.getByTestId('chat-row');
    await rows.first().getByRole('img', { name: koRoomMarks.chatList.pinned }).waitFor(WAIT);
    expect(await rows.first().innerText()).to.contain('조정석');

    await say(busy, other, '또 새 소식');
    await rows.filter({ hasText: '또 새 소식' }).waitFor(WAIT);
    expect(await rows.first().innerText()).to.contain('조정석');
    await page.reload();
    await rows.first().waitFor(WAIT);
    expect(await rows.first().innerText()).to.contain('조정석');
  });

  it('shows a notice set by one member to another, live and after a reload', async () => {
    const setter = await createUser(app.server, { name: '공유' });
    const reader = await createUser(app.server, { name: '정유미' });
    const room = await roomOf(setter, reader);
    await say(reader, room, '금요일 7시 강남역');
    const { page: S } = await signIn(setter);
    const { page: R } = await signIn(reader);
    await openRoom(R, room);
    await openRoom(S, room);

    await S.getByTestId('their-message').filter({ hasText: '금요일 7시 강남역' }).click({ button: 'right' });
    await S.getByRole('button', { name: koRoomMarks.messageActions.makeNotice }).click();
    const notice = R.getByRole('region', { name: koRooms.notice.region });
    await notice.filter({ hasText: '금요일 7시 강남역' }).waitFor(WAIT);
    await S.getByRole('region', { name: koRooms.notice.region }).waitFor(WAIT);

    await R.reload();
    await notice.filter({ hasText: '금요일 7시 강남역' }).waitFor(WAIT);
    await notice.getByRole('button', { name: koRooms.notice.expand }).click();
    expect(await notice.innerText()).to.contain(koRooms.notice.setBy('공유'));

    // Taken down by the reader: gone for the setter too.
    await notice.getByRole('button', { name: koRooms.notice.remove }).click();
    await R.getByRole('alertdialog').getByRole('button', { name: koRooms.notice.remove }).click();
    await S.getByRole('region', { name: koRooms.notice.region }).waitFor({ state: 'detached', ...WAIT });
  });

  it('keeps the composer\'s draft across a reload and a room switch', async () => {
    const me = await createUser(app.server, { name: '한지민' });
    const a = await createUser(app.server, { name: '정해인' });
    const b = await createUser(app.server, { name: '손예진' });
    const first = await roomOf(me, a);
    const second = await roomOf(me, b);
    const { page } = await signIn(me);
    await openRoom(page, first);
    const box = page.getByRole('textbox', { name: ko.room.messagePlaceholder });
    await box.fill('쓰다 만 메시지');
    await page.reload();
    await page.getByTestId('messages').waitFor(WAIT);
    expect(await box.inputValue()).to.equal('쓰다 만 메시지');
    await openRoom(page, second);
    expect(await box.inputValue()).to.equal('');
    await openRoom(page, first);
    expect(await box.inputValue()).to.equal('쓰다 만 메시지');
  });

  it('marks the chat-list row of a room while a group call is on in it, live, with how many are in it', async () => {
    const me = await createUser(app.server, { name: '박보검' });
    const a = await createUser(app.server, { name: '아이유' });
    const b = await createUser(app.server, { name: '이정재' });
    const room = await roomOf(a, me);
    const client = await loginClient(app.server, a);
    expect((await client.post(api.addUser, { chatRoomId: room, userId: b.userId })).status).to.equal(200);
    const { page } = await signIn(me);
    const row = page.getByTestId('chat-row').filter({ hasText: a.name });
    await row.waitFor(WAIT);
    expect(await row.getByTestId('group-call-mark').count()).to.equal(0);

    // 아이유 starts a voice call from elsewhere (her own STOMP connection: the call needs no media to be on).
    const stomp = await connectStomp(app.server, client.cookieHeader());
    try {
      const signals = await stomp.subscribe(queues.call('group-signal', a.userId));
      await stomp.send(destinations.groupCallStart, { chatRoomId: room, media: 'audio' });
      let joined: GroupCallSignal;
      do joined = (await signals.next(30_000)).json<GroupCallSignal>();
      while (joined.kind !== 'joined');
      const { callId } = joined;
      await row.getByRole('img', { name: koRoomMarks.chatList.groupCall(1) }).waitFor(WAIT);
      await stomp.send(destinations.groupCallLeave, { chatRoomId: room, callId });
      await row.getByTestId('group-call-mark').waitFor({ state: 'detached', ...WAIT });
    } finally {
      await stomp.disconnect();
    }
  });

  it('comes back to where the reader was after switching to another room and back, and after a reload', async () => {
    const me = await createUser(app.server, { name: '김태리' });
    const a = await createUser(app.server, { name: '남주혁' });
    const b = await createUser(app.server, { name: '김지원' });
    const first = await roomOf(me, a);
    const second = await roomOf(me, b);
    // Three history pages: the place is two pages up, older than what the room opens with.
    const client = await loginClient(app.server, a);
    const stomp = await connectStomp(app.server, client.cookieHeader());
    try {
      for (let i = 1; i <= 60; i += 1) await stomp.send(destinations.privateMessage, { chatRoomId: first, content: `메시지 ${i}`, clientMsgId: `e2e-place-${i}` });
      await stomp.roundTrip();
    } finally {
      await stomp.disconnect();
    }
    await say(b, second, '다른 방');
    const { page } = await signIn(me, { viewport: { width: 1440, height: 900 } });
    await openRoom(page, first);
    const list = page.getByTestId('messages');
    await list.getByText('메시지 60', { exact: true }).waitFor(WAIT);
    // Scrolled up until 메시지 25 is loaded, then it at the top of the view.
    const target = list.getByText('메시지 25', { exact: true });
    while ((await target.count()) === 0) await list.evaluate((el) => { el.scrollTop = 0; });
    await target.evaluate((el) => el.closest('.msg')?.scrollIntoView({ block: 'start' }));
    /** The message the reader sees first (the first whose bottom is below the list's top) and how far below the top it starts. */
    const topOfView = () => list.evaluate((el) => {
      const top = el.getBoundingClientRect().top;
      const first = [...el.querySelectorAll<HTMLElement>('.msg[data-message-id]')].find((m) => m.getBoundingClientRect().bottom > top);
      return { text: first?.querySelector('.bubble')?.textContent ?? null, offset: Math.round((first?.getBoundingClientRect().top ?? 0) - top) };
    });
    await page.waitForFunction(() => document.querySelector('.messages-frame [role="status"]') === null, undefined, WAIT);
    const before = await topOfView();
    expect(before.text).to.equal('메시지 25');

    // Through the chat list beside the room: a switch inside the app, not a reload.
    await page.getByTestId('chat-row').filter({ hasText: b.name }).click();
    await list.getByText('다른 방', { exact: true }).waitFor(WAIT);
    await page.getByTestId('chat-row').filter({ hasText: a.name }).click();
    await list.getByText('메시지 25', { exact: true }).waitFor(WAIT);
    await page.waitForFunction(() => document.querySelector('.messages-frame [role="status"]') === null, undefined, WAIT);
    const after = await topOfView();
    expect(after.text).to.equal(before.text);
    expect(Math.abs(after.offset - before.offset), `${JSON.stringify(before)} then ${JSON.stringify(after)}`).to.be.at.most(2);

    // A reload of the page: the same place again, three pages up.
    await page.reload();
    await list.getByText('메시지 25', { exact: true }).waitFor(WAIT);
    await page.waitForFunction(() => document.querySelector('.messages-frame [role="status"]') === null, undefined, WAIT);
    const reloaded = await topOfView();
    expect(reloaded.text).to.equal(before.text);
    expect(Math.abs(reloaded.offset - before.offset), `${JSON.stringify(before)} then ${JSON.stringify(reloaded)}`).to.be.at.most(2);
  });

  for (const viewport of [{ width: 1440, height: 900 }, { width: 390, height: 844 }]) {
    it(`shows the room title whole at ${viewport.width} px`, async () => {
      // A two-person room is named by the other person: the name once cut to "이…".
      const me = await createUser(app.server, { name: '유재석' });
      const other = await createUser(app.server, { name: '이효리' });
      const room = await roomOf(me, other);
      const { page } = await signIn(me, { viewport });
      await openRoom(page, room);
      const title = page.getByTestId('room-name');
      await title.filter({ hasText: '이효리' }).waitFor(WAIT);
      const fits = await title.evaluate((el) => el.scrollWidth <= el.clientWidth && el.getBoundingClientRect().width > 0);
      expect(fits, 'the whole title fits its button').to.equal(true);
      expect(await title.innerText()).to.equal('이효리');
    });
  }
});
