// The call's two late services that load their browser code on first use: the RTC service
// (services/rtc.ts) and the ringer (services/ringer.ts) come in the `in-call` chunk with the
// first call, not with every signed-in screen (docs/architecture.md §5 "Loading"). Each wrapper
// loads once; a load that fails (offline) is tried again by the next call.
import type { Ringer } from '../services/ringer';
import type { RtcService } from '../services/rtc';

function once<T>(load: () => Promise<T>): { get: () => Promise<T>; loaded: () => T | null } {
  let value: T | null = null;
  let loading: Promise<T> | null = null;
  return {
    get: () =>
      (loading ??= load().then(
        (loaded) => (value = loaded),
        (error: unknown) => {
          loading = null;
          throw error;
        },
      )),
    loaded: () => value,
  };
}

/** A call opens its media before it makes a connection, so by createPeer the service is there. */
export function lazyRtc(load: () => Promise<RtcService>): RtcService {
  const rtc = once(load);
  return {
    openMedia: async (video) => (await rtc.get()).openMedia(video),
    createPeer(iceServers, media) {
      const loaded = rtc.loaded();
      if (!loaded) throw new Error('media was not opened by this service');
      return loaded.createPeer(iceServers, media);
    },
  };
}

/** start never rejects (a ringer that cannot load rings no tone); a stop while it loads means start must not begin one. */
export function lazyRinger(load: () => Promise<Ringer>): Ringer {
  const ringer = once(load);
  let stops = 0;
  return {
    async start(tone) {
      const stopsBefore = stops;
      const real = await ringer.get().catch(() => null);
      if (!real) return 'unavailable';
      // Stopped meanwhile: nothing more to do (as services/ringer.ts answers a stop during its own start).
      if (stops !== stopsBefore) return 'playing';
      return real.start(tone);
    },
    stop() {
      stops += 1;
      ringer.loaded()?.stop();
    },
    whenUnblocked: async () => (await ringer.get()).whenUnblocked(),
  };
}
