// Everything with side effects that sagas use, handed to them through the saga middleware's
// context (DESIGN.md §4) so tests pass fakes. Add a service: a field here, its browser
// implementation in createBrowserServices, and a fake in fakeServices.ts (tests).
import type { DialogQueue } from '../components/dialogs';
import { createHttpClient, type HttpClient } from '../services/http';
import { createUidStore, type UidStore } from '../features/auth/uid';
import { createBrowserNotifier, type Notifier } from '../services/notifier';
import { createUnsentStore, type UnsentStore } from '../features/room/unsentStore';
import { createBrowserRinger, type Ringer } from '../services/ringer';
import { createBrowserRtc, type RtcService } from '../services/rtc';
import { createStompService, type StompService } from '../services/stomp';

/** SPEC.md §7: the call listener reconnects after 3 s (the rest of the app after 5 s). */
const CALL_RECONNECT_DELAY_MS = 3000;

export interface NavigateOptions {
  replace?: boolean;
  state?: unknown;
}

export interface Services {
  http: HttpClient;
  uid: UidStore;
  /** Sends not yet confirmed, per user and room, kept across reloads (local storage). */
  unsent: UnsentStore;
  /** In-app navigation (react-router). */
  navigate: (to: string, options?: NavigateOptions) => void;
  /** The path of the screen shown now. */
  currentPath: () => string;
  /** Leaves the app for another address (OAuth providers). */
  redirect: (url: string) => void;
  /** Errors the user is told about in words are still logged for whoever debugs (SPEC.md §8). */
  logError: (context: string, error: unknown) => void;
  /** The alerts of SPEC.md §4 and §8 (call, start chat, invite, notification e-mail), in the app's own dialog. */
  alert: (message: string) => void;
  /** Microphone and peer connections for voice calls. */
  rtc: RtcService;
  /** The ringing and ring-back tones (Web Audio). */
  ringer: Ringer;
  /** System notifications, the service worker and this device's push subscription. */
  notifier: Notifier;
  /** Local storage, for small preferences (the notification prompt put aside). */
  storage: Pick<Storage, 'getItem' | 'setItem'>;
  /** The call listener's own STOMP connection (its reconnect delay differs, SPEC.md §7). */
  callStomp: StompService;
  /** The app's STOMP connection for the chat list and rooms (5 s reconnect, SPEC.md §7). */
  stomp: StompService;
}

export function createBrowserServices(navigate: Services['navigate'], dialogs: DialogQueue): Services {
  return {
    http: createHttpClient(),
    uid: createUidStore(window.localStorage),
    unsent: createUnsentStore(window.localStorage),
    navigate,
    currentPath: () => window.location.pathname,
    redirect: (url) => window.location.assign(url),
    logError: (context, error) => console.error(`[${context}]`, error),
    alert: (message) => void dialogs.alert(message),
    rtc: createBrowserRtc(),
    ringer: createBrowserRinger(),
    notifier: createBrowserNotifier(),
    storage: window.localStorage,
    callStomp: createStompService({ reconnectDelayMs: CALL_RECONNECT_DELAY_MS }),
    stomp: createStompService(),
  };
}
