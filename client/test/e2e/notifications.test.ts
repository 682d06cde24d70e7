// System notifications in Chromium (ours, beyond the spec): a user reading one chat room gets a
// notification for a message in another room, with the permission granted through the browser
// context; its click (the service worker's notificationclick) moves the tab to that room. Logout
// ends the device's push subscription on the server while the session still lasts.
import { expect } from 'chai';
import type { BrowserContext, Page, Worker } from 'playwright-core';
import { api } from '@common/api';
import { app as destinations } from '@common/destinations';
import { connectStomp } from '../../../server/test/support/stomp-client';
import { createUser, loginClient, type TestUser } from '../../../server/test/support/users';
import { readUntil } from '../../../server/test/support/wait';
import { ko } from '../../src/i18n/ko';
import { useE2eApp } from './support/app';

const WAIT = { timeout: 30_000 };

interface ShownNotification {
  title: string;
  body: string;
  tag: string;
  data: unknown;
}

async function notifications(page: Page): Promise<ShownNotification[]> {
  return page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    return (await registration.getNotifications()).map((n) => ({ title: n.title, body: n.body, tag: n.tag, data: n.data as unknown }));
  });
}

async function serviceWorkerOf(context: BrowserContext): Promise<Worker> {
  return context.serviceWorkers()[0] ?? context.waitForEvent('serviceworker', WAIT);
}

describe('system notifications in the browser', function () {
  const app = useE2eApp();

  async function signedInWithNotifications(user: TestUser): Promise<{ context: BrowserContext; page: Page }> {
    const { context, page } = await app.openUser();
    await context.grantPermissions(['notifications'], { origin: app.baseUrl });
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

  it('notifies a user reading one room of a message in another, and the click opens that room', async () => {
    const reader = await createUser(app.server, { name: '김태리' });
    const friend = await createUser(app.server, { name: '남주혁' });
    const other = await createUser(app.server, { name: '김지원' });
    const reading = await roomOf(reader, friend);
    const elsewhere = await roomOf(other, reader);
    const { context, page } = await signedInWithNotifications(reader);
    await page.goto(app.url(`/chat-room?cri=${reading}`));
    await page.getByTestId('messages').waitFor(WAIT);

    const otherClient = await loginClient(app.server, other);
    const stomp = await connectStomp(app.server, otherClient.cookieHeader());
    try {
      await stomp.send(destinations.privateMessage, { chatRoomId: elsewhere, content: '지금 어디야?', clientMsgId: 'e2e-1' });
    } finally {
      await stomp.disconnect();
    }

    const [shown] = await readUntil(() => notifications(page), (n) => n.some((x) => x.tag === `room-${elsewhere}`), { what: 'the notification of the other room', timeoutMs: WAIT.timeout, everyMs: 100 });
    expect(shown).to.deep.include({ body: '지금 어디야?', tag: `room-${elsewhere}`, data: { url: `/chat-room?cri=${elsewhere}`, focusOnly: false } });
    // Nothing for the room being read.
    expect((await notifications(page)).map((n) => n.tag)).to.deep.equal([`room-${elsewhere}`]);

    // The click, as the browser hands it to the service worker.
    const worker = await serviceWorkerOf(context);
    await worker.evaluate(async (tag) => {
      const scope = self as unknown as { registration: ServiceWorkerRegistration; dispatchEvent(e: Event): boolean };
      const [notification] = await scope.registration.getNotifications({ tag });
      const NotificationEventClass = (self as unknown as { NotificationEvent: new (type: string, init: { notification: Notification }) => Event }).NotificationEvent;
      try {
        scope.dispatchEvent(new NotificationEventClass('notificationclick', { notification }));
      } catch {
        // A synthetic event's waitUntil throws; the handler's work is already under way.
      }
    }, `room-${elsewhere}`);
    await page.waitForURL(`**/chat-room?cri=${elsewhere}`, WAIT);
    await page.locator('.bubble', { hasText: '지금 어디야?' }).waitFor(WAIT);
  });
});
