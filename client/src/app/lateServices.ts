// The browser's late services (kernel/services.ts LateServices): a chunk of their own, loaded with
// the first feature that needs them (a signed-in screen), never by /login or /sign-up.
import { createUnsentStore } from '../features/room/unsentStore';
import { createBrowserNotifier } from '../services/notifier';
import { createBrowserRinger } from '../services/ringer';
import type { RtcService } from '../services/rtc';
import { createStompService } from '../services/stomp';
import type { LateServices } from '../kernel/services';

/** docs/spec.md §7: the call listener reconnects after 3 s (the rest of the app after 5 s). */
const CALL_RECONNECT_DELAY_MS = 3000;

/**
 * The RTC service, whose browser implementation (services/rtc.ts) loads in the `in-call` chunk
 * with the first call rather than with every signed-in screen (docs/architecture.md §5
 * "Loading"). A call opens its media before it makes a connection, so by createPeer it is there.
 */
function createLazyRtc(): RtcService {
  let loaded: RtcService | null = null;
  let loading: Promise<RtcService> | null = null;
  const rtc = () =>
    (loading ??= import(/* webpackChunkName: "in-call" */ '../services/rtc').then(
      (m) => (loaded = m.createBrowserRtc()),
      (error: unknown) => {
        // Offline: the next call tries again.
        loading = null;
        throw error;
      },
    ));
  return {
    openMedia: async (video) => (await rtc()).openMedia(video),
    createPeer(iceServers, media) {
      if (!loaded) throw new Error('media was not opened by this service');
      return loaded.createPeer(iceServers, media);
    },
  };
}

export function createBrowserLateServices(): LateServices {
  return {
    unsent: createUnsentStore(window.localStorage),
    rtc: createLazyRtc(),
    ringer: createBrowserRinger(),
    notifier: createBrowserNotifier(),
    callStomp: createStompService({ reconnectDelayMs: CALL_RECONNECT_DELAY_MS }),
    stomp: createStompService(),
  };
}
