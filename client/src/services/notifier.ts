// System notifications and Web Push in the browser, behind a small interface the notifications
// saga reaches through its context (tests pass a fake): the Notification permission (asked only
// when the user presses the in-app prompt), notifications for a hidden tab, the service worker
// (/sw.js) and this device's push subscription, and the clicks on notifications.
import type { PushSubscriptionRequest } from '@common/push';
import type { Notice } from '../sw/pushNotice';
import type { OpenMessage } from '../sw/serviceWorker';
import { endBrowserPushSubscription } from './pushSubscription';

export type NotificationPermissionState = NotificationPermission | 'unsupported';

export interface Notifier {
  permission(): NotificationPermissionState;
  /** Asks the browser; call only from a user's click on the in-app prompt. */
  requestPermission(): Promise<NotificationPermissionState>;
  /** Whether the tab is hidden (another tab in front, the window minimised). */
  hidden(): boolean;
  /** Shows the notice if notifications are allowed, whether the tab is hidden or not; answers whether it did. */
  show(notice: Notice): Promise<boolean>;
  /** Shows the notice if the tab is hidden and notifications are allowed; answers whether it did. */
  showIfHidden(notice: Notice): Promise<boolean>;
  /** This device's push subscription for the server's key (made once), or null where push is missing. */
  subscribePush(publicKey: string): Promise<PushSubscriptionRequest | null>;
  /**
   * Ends this device's push subscription in the browser; answers its endpoint (for the server's
   * DELETE), or null when there was none.
   */
  unsubscribePush(): Promise<string | null>;
  /** Clicks on notifications: the page to open ('' when the tab only needed the focus). */
  onOpen(listener: (url: string) => void): () => void;
}

const SERVICE_WORKER_URL = '/sw.js';

function base64UrlToBytes(text: string): Uint8Array<ArrayBuffer> {
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(text.length / 4) * 4, '=');
  const binary = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function isOpenMessage(data: unknown): data is OpenMessage {
  return typeof data === 'object' && data !== null && (data as OpenMessage).type === 'letschat:open' && typeof (data as OpenMessage).url === 'string';
}

export function createBrowserNotifier(): Notifier {
  const supported = typeof window !== 'undefined' && 'Notification' in window;
  const canPush = supported && 'serviceWorker' in navigator && 'PushManager' in window;
  const listeners = new Set<(url: string) => void>();
  let registration: Promise<ServiceWorkerRegistration> | null = null;

  const open = (url: string) => listeners.forEach((listener) => listener(url));
  if (canPush) {
    navigator.serviceWorker.addEventListener('message', (event: MessageEvent) => {
      if (isOpenMessage(event.data)) open(event.data.url);
    });
  }

  function serviceWorker(): Promise<ServiceWorkerRegistration> {
    registration ??= navigator.serviceWorker.register(SERVICE_WORKER_URL, { scope: '/' }).then(() => navigator.serviceWorker.ready);
    return registration;
  }

  const hidden = () => typeof document !== 'undefined' && document.visibilityState === 'hidden';

  async function show(notice: Notice): Promise<boolean> {
    if (!supported || Notification.permission !== 'granted') return false;
    const options: NotificationOptions = { body: notice.body, tag: notice.tag, icon: '/icons/icon-192.png', requireInteraction: notice.requireInteraction, data: { url: notice.url, focusOnly: notice.focusOnly } };
    if (canPush) {
      // Through the service worker: its click handler focuses this tab and tells it where to go.
      await (await serviceWorker()).showNotification(notice.title, options);
      return true;
    }
    const shown = new Notification(notice.title, options);
    shown.onclick = () => {
      window.focus();
      shown.close();
      open(notice.focusOnly ? '' : notice.url);
    };
    return true;
  }

  return {
    permission: () => (supported ? Notification.permission : 'unsupported'),

    async requestPermission() {
      if (!supported) return 'unsupported';
      return Notification.requestPermission();
    },

    hidden,
    show,
    showIfHidden: async (notice) => (hidden() ? show(notice) : false),

    async subscribePush(publicKey) {
      if (!canPush || Notification.permission !== 'granted') return null;
      const manager = (await serviceWorker()).pushManager;
      const key = base64UrlToBytes(publicKey);
      let subscription = await manager.getSubscription();
      const sameKey = (existing: PushSubscription) => {
        const held = existing.options.applicationServerKey;
        return held !== null && new Uint8Array(held).join() === key.join();
      };
      if (subscription && !sameKey(subscription)) {
        await subscription.unsubscribe(); // the server's key changed: the old subscription is useless
        subscription = null;
      }
      subscription ??= await manager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
      const json = subscription.toJSON();
      if (!json.endpoint || !json.keys?.p256dh || !json.keys.auth) return null;
      return { endpoint: json.endpoint, keys: { p256dh: json.keys.p256dh, auth: json.keys.auth } };
    },

    unsubscribePush() {
      return canPush ? endBrowserPushSubscription() : Promise.resolve(null);
    },

    onOpen(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
