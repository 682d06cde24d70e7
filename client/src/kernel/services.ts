// Everything with side effects that sagas use, handed to them through the saga middleware's
// context so tests pass fakes: the types only, for every feature's sagas (kernel/sagaContext.ts);
// app/ builds them. Add a service: a field here, its browser implementation in
// app/browserServices.ts (or app/lateServices.ts), and a fake in app/fakeServices.ts (tests).
// A service that belongs to one feature is declared by that feature, which adds its field to
// LateServices by declaration merging (the room's unsent store: features/room/unsentStore.ts),
// so that nothing here names a feature's types.
import type { HttpClient } from '../services/http';
import type { UidStore } from '../services/uid';
import type { Notifier } from '../services/notifier';
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
  /** In-app navigation (the history API, which the router follows). */
  navigate: (to: string, options?: NavigateOptions) => void;
  /** The path of the screen shown now. */
  currentPath: () => string;
  /** Leaves the app for another address (OAuth providers). */
  redirect: (url: string) => void;
  /** Errors the user is told about in words are still logged for whoever debugs (docs/spec.md §8). */
  logError: (context: string, error: unknown) => void;
  /** The alerts of docs/spec.md §4 and §8 (call, start chat, invite, notification e-mail), in the app's own dialog. */
  alert: (message: string) => void;
  /** Local storage, for small things kept across reloads (the notification prompt put aside, a missed call). */
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
}

/**
 * The services of the signed-in screens' features (Feature.lateServices): in the browser they
 * load in a chunk of their own with the first such feature, so /login carries none of them.
 */
export interface LateServices {
  /** Microphone and peer connections for voice calls. */
  rtc: RtcService;
  /** The ringing and ring-back tones (Web Audio). */
  ringer: Ringer;
  /** System notifications, the service worker and this device's push subscription. */
  notifier: Notifier;
  /** The call listener's own STOMP connection (its reconnect delay differs, docs/spec.md §7). */
  callStomp: StompService;
  /** The app's STOMP connection for the chat list and rooms (5 s reconnect, docs/spec.md §7). */
  stomp: StompService;
}

export interface Services extends CoreServices, LateServices {}
