// The browser's late services (kernel/services.ts LateServices): a chunk of their own, loaded with
// the first feature that needs them (a signed-in screen), never by /login or /sign-up.
import { createUnsentStore } from '../features/room/unsentStore';
import { createBrowserNotifier } from '../services/notifier';
import type { Ringer } from '../services/ringer';
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

/**
 * The ringer, whose Web Audio tones (services/ringer.ts) load in the `in-call` chunk with the
 * first ring. start never rejects (a chunk that cannot load rings no tone); a stop while the
 * tones load means that start must not begin one.
 */
function createLazyRinger(): Ringer {
  let loaded: Ringer | null = null;
  let loading: Promise<Ringer> | null = null;
  let stops = 0;
  const ringer = () =>
    (loading ??= import(/* webpackChunkName: "in-call" */ '../services/ringer').then(
      (m) => (loaded = m.createBrowserRinger()),
      (error: unknown) => {
        loading = null;
        throw error;
      },
    ));
  return {
    async start(tone) {
      const stopsBefore = stops;
      const real = await ringer().catch(() => null);
      if (!real) return 'unavailable';
      // Stopped meanwhile: nothing more to do (as services/ringer.ts answers a stop during its own start).
      if (stops !== stopsBefore) return 'playing';
      return real.start(tone);
    },
    stop() {
      stops += 1;
      loaded?.stop();
    },
    whenUnblocked: async () => (await ringer()).whenUnblocked(),
  };
}

export function createBrowserLateServices(): LateServices {
  return {
    unsent: createUnsentStore(window.localStorage),
    rtc: createLazyRtc(),
    ringer: createLazyRinger(),
    notifier: createBrowserNotifier(),
    callStomp: createStompService({ reconnectDelayMs: CALL_RECONNECT_DELAY_MS }),
    stomp: createStompService(),
  };
}
