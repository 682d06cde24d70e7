// The browser's late services (kernel/services.ts LateServices): a chunk of their own, loaded with
// the first feature that needs them (a signed-in screen), never by /login or /sign-up.
// The RTC service and the ringer go further: their browser code loads with the first call
// (lazyCallServices.ts, chunk `in-call`).
import { createUnsentStore } from '../features/room/unsentStore';
import { createBrowserNotifier } from '../services/notifier';
import { createStompService } from '../services/stomp';
import type { LateServices } from '../kernel/services';
import { lazyRinger, lazyRtc } from './lazyCallServices';

/** docs/spec.md §7: the call listener reconnects after 3 s (the rest of the app after 5 s). */
const CALL_RECONNECT_DELAY_MS = 3000;

export function createBrowserLateServices(): LateServices {
  return {
    unsent: createUnsentStore(window.localStorage),
    rtc: lazyRtc(() => import(/* webpackChunkName: "in-call" */ '../services/rtc').then((m) => m.createBrowserRtc())),
    // The group call's WebRTC comes with its first call (chunk `group-call`), like the 1:1 call's.
    groupRtc: {
      open: async (video, iceServers) => (await import(/* webpackChunkName: "group-call" */ '../services/groupRtc')).createBrowserGroupRtc().open(video, iceServers),
    },
    // The group call this tab is in, kept across its reloads (features/groupCall/groupCallMemory.ts).
    groupCallStorage: window.sessionStorage,
    ringer: lazyRinger(() => import(/* webpackChunkName: "in-call" */ '../services/ringer').then((m) => m.createBrowserRinger())),
    notifier: createBrowserNotifier(),
    callStomp: createStompService({ reconnectDelayMs: CALL_RECONNECT_DELAY_MS }),
    stomp: createStompService(),
  };
}
