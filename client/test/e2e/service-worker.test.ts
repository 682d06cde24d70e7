// The service worker in Chromium: the app is installable (its web manifest and icons are served),
// and a push delivered through the DevTools protocol (ServiceWorker.deliverPushMessage, as the
// browser's push service would) shows the notification the payload asks for.
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import type { PushPayload } from '@common/push';
import { readUntil } from '../../../server/test/support/wait';
import { koCall } from '../../src/i18n/koCall';
import { useE2eApp } from './support/app';

const WAIT_MS = 30_000;

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

describe('the service worker in the browser', function () {
  const app = useE2eApp();

  it('serves a web manifest with a name, a theme colour and 192 and 512 pixel icons', async () => {
    const manifest = (await (await fetch(app.url('/manifest.webmanifest'))).json()) as { name: string; theme_color: string; icons: Array<{ src: string; sizes: string }> };
    expect(manifest.name).to.equal("Let's Chat");
    expect(manifest.theme_color).to.match(/^#[0-9a-f]{6}$/);
    expect(manifest.icons.map((i) => i.sizes)).to.include.members(['192x192', '512x512']);
    for (const icon of manifest.icons) expect((await fetch(app.url(icon.src))).status, icon.src).to.equal(200);
    const sw = await fetch(app.url('/sw.js'));
    expect(sw.headers.get('content-type')).to.match(/javascript/);
    expect(sw.headers.get('cache-control')).to.equal('no-cache');
  });

  it('shows the notification of a pushed call and of a pushed message', async () => {
    const { context, page } = await app.openUser();
    await context.grantPermissions(['notifications'], { origin: app.baseUrl });
    await page.goto(app.url('/login'));
    const cdp = await context.newCDPSession(page);
    const registrationId = new Promise<string>((resolve) => {
      cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
        const ours = registrations.find((r) => r.scopeURL.startsWith(app.baseUrl) && !r.isDeleted);
        if (ours) resolve(ours.registrationId);
      });
    });
    await cdp.send('ServiceWorker.enable');
    await page.evaluate(async () => {
      await navigator.serviceWorker.register('/sw.js', { scope: '/' });
      const { active } = await navigator.serviceWorker.ready;
      // ready can resolve while the worker is still activating (claiming clients): a push is
      // delivered to an activated worker, as a push service's would be long after registering.
      if (active && active.state !== 'activated') await new Promise((resolve) => active.addEventListener('statechange', () => active.state === 'activated' && resolve(null)));
    });
    const origin = new URL(app.baseUrl).origin;
    const push = async (payload: PushPayload) =>
      cdp.send('ServiceWorker.deliverPushMessage', { origin, registrationId: await registrationId, data: JSON.stringify(payload) });

    await push({ kind: 'incoming-call', callerId: 7, callerName: '최우식', media: 'video' });
    const [ringing] = await readUntil(() => notifications(page), (n) => n.length === 1, { what: 'the call notification', timeoutMs: WAIT_MS, everyMs: 100 });
    expect(ringing).to.deep.include({ title: koCall.incomingTitle, body: `${koCall.incomingFrom('최우식')} · ${koCall.incomingVideo}`, tag: 'call' });

    await push({ kind: 'message', chatRoomId: 3, messageId: 41, senderName: '박보영', content: '어디야?' });
    const shown = await readUntil(() => notifications(page), (n) => n.length === 2, { what: 'the message notification', timeoutMs: WAIT_MS, everyMs: 100 });
    expect(shown.find((n) => n.tag === 'room-3')).to.deep.include({ title: '박보영', body: '어디야?', data: { url: '/chat-room?cri=3', focusOnly: false } });
  });
});
