// Everything with side effects that sagas use, handed to them through the saga middleware's
// context (DESIGN.md §4) so tests pass fakes. Add a service: a field here, its browser
// implementation in createBrowserServices (or createBrowserLateServices in lateServices.ts), and
// a fake in fakeServices.ts (tests).
import type { DialogQueue } from '../components/dialogs';
import { createHttpClient, type HttpClient } from '../services/http';
import { createUidStore, type UidStore } from '../features/auth/uid';
import type { Notifier } from '../services/notifier';
import type { UnsentStore } from '../features/room/unsentStore';
import type { Ringer } from '../services/ringer';
import type { RtcService } from '../services/rtc';
import type { StompService } from '../services/stomp';

export interface NavigateOptions {
  replace?: boolean;
  state?: unknown;
}

/** The services of every screen, /login included. */
export interface CoreServices {
  http: HttpClient;
  uid: UidStore;
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
  /** Local storage, for small things kept across reloads (the notification prompt put aside, a missed call). */
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
}

/**
 * The services of the signed-in screens' features (Feature.lateServices): in the browser they
 * load in a chunk of their own with the first such feature, so /login carries none of them.
 */
export interface LateServices {
  /** Sends not yet confirmed, per user and room, kept across reloads (local storage). */
  unsent: UnsentStore;
  /** Microphone and peer connections for voice calls. */
  rtc: RtcService;
  /** The ringing and ring-back tones (Web Audio). */
  ringer: Ringer;
  /** System notifications, the service worker and this device's push subscription. */
  notifier: Notifier;
  /** The call listener's own STOMP connection (its reconnect delay differs, SPEC.md §7). */
  callStomp: StompService;
  /** The app's STOMP connection for the chat list and rooms (5 s reconnect, SPEC.md §7). */
  stomp: StompService;
}

export interface Services extends CoreServices, LateServices {}

export function createBrowserServices(navigate: Services['navigate'], dialogs: DialogQueue): CoreServices {
  return {
    http: createHttpClient(),
    uid: createUidStore(window.localStorage),
    navigate,
    currentPath: () => window.location.pathname,
    redirect: (url) => window.location.assign(url),
    logError: (context, error) => console.error(`[${context}]`, error),
    alert: (message) => void dialogs.alert(message),
    storage: window.localStorage,
  };
}
