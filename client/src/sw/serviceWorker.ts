// The service worker (served as /sw.js): shows a notification for each push (an incoming call
// to a closed tab, a new message), and on a click focuses an open tab of the app and tells it
// where to go, or opens one. No caching: the app is online-only.
import { decodePushPayload, noticeFor } from './pushNotice';

// The few service-worker types used here (the DOM library has none of them; the WebWorker one
// cannot be loaded beside DOM in one program).
interface WindowClientLike {
  url: string;
  focus(): Promise<unknown>;
  postMessage(message: unknown): void;
}
interface ExtendableEventLike extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface PushEventLike extends ExtendableEventLike {
  data: { text(): string } | null;
}
interface NotificationEventLike extends ExtendableEventLike {
  notification: Notification;
}
interface ServiceWorkerScope {
  registration: ServiceWorkerRegistration;
  clients: {
    matchAll(options: { type: 'window'; includeUncontrolled: boolean }): Promise<WindowClientLike[]>;
    openWindow(url: string): Promise<unknown>;
    claim(): Promise<void>;
  };
  skipWaiting(): Promise<void>;
  addEventListener(type: 'push', listener: (event: PushEventLike) => void): void;
  addEventListener(type: 'notificationclick', listener: (event: NotificationEventLike) => void): void;
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEventLike) => void): void;
}

/** What a notification click asks an open tab to do (handled in services/notifier.ts). */
export interface OpenMessage {
  type: 'letschat:open';
  url: string;
}

// `self` is typed as the DOM's Window here (see above): the cast is the one way to name its real type.
const sw = self as unknown as ServiceWorkerScope;

sw.addEventListener('install', (event) => event.waitUntil(sw.skipWaiting()));
sw.addEventListener('activate', (event) => event.waitUntil(sw.clients.claim()));

sw.addEventListener('push', (event) => {
  const payload = event.data ? decodePushPayload(event.data.text()) : null;
  if (!payload) return;
  const notice = noticeFor(payload);
  event.waitUntil(
    sw.registration.showNotification(notice.title, {
      body: notice.body,
      tag: notice.tag,
      icon: '/icons/icon-192.png',
      badge: '/icons/favicon-32.png',
      requireInteraction: notice.requireInteraction,
      data: { url: notice.url, focusOnly: notice.focusOnly },
    }),
  );
});

sw.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const data = event.notification.data as { url?: unknown; focusOnly?: unknown } | null;
  const target = typeof data?.url === 'string' && data.url.startsWith('/') ? data.url : '/chat-list';
  event.waitUntil(
    sw.clients.matchAll({ type: 'window', includeUncontrolled: true }).then(async (tabs) => {
      const tab = tabs[0];
      if (!tab) return sw.clients.openWindow(target);
      // A browser may refuse the focus (it allows it only while handling a real click): the tab
      // still moves to the room, so the user finds it there.
      await tab.focus().catch(() => undefined);
      if (data?.focusOnly === true) return undefined;
      const message: OpenMessage = { type: 'letschat:open', url: target };
      tab.postMessage(message);
      return undefined;
    }),
  );
});
