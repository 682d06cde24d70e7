// STOMP heart-beats (STOMP 1.2, "Heart-beating"): what CONNECT negotiates, and when a connected
// session is due a beat or has been silent too long. The broker's tick asks every session a few
// times a second; sessions keep their timestamps on the broker's int32 clock.

/** How often the broker checks every session for beats, silence and slow consumers. */
export const HEARTBEAT_TICK_MS = 250;

/** The smallest intervals this server offers (send) and asks for (receive), in ms. */
export const SERVER_HEARTBEAT = { send: 1000, receive: 1000 };

export interface Heartbeats {
  /** How often we must send something; 0 for never. */
  sendEvery: number;
  /** How often the client promised to send something; 0 for never. */
  expectEvery: number;
}

const HEART_BEAT = /^([0-9]{1,9}),([0-9]{1,9})$/;

/**
 * The periods agreed from the client's `heart-beat: cx,cy` and the server's own: each side
 * beats at the slower of what one offers and the other asks, or not at all when either says 0.
 * Null when the header is malformed.
 */
export function negotiateHeartbeats(header: string | undefined, server: { send: number; receive: number }): Heartbeats | null {
  const hb = HEART_BEAT.exec(header ?? '0,0');
  if (!hb) return null;
  const [cx, cy] = [Number(hb[1]), Number(hb[2])];
  return {
    sendEvery: cy === 0 || server.send === 0 ? 0 : Math.max(server.send, cy),
    expectEvery: cx === 0 || server.receive === 0 ? 0 : Math.max(cx, server.receive),
  };
}

/**
 * Milliseconds from `since` to `now` on the int32 clock, right across its wrap (every 24.8 days)
 * while under 2^31 ms: always so where it matters, as a heart-beating session's timestamps are
 * at most twice its interval old (at most 2 × 999 999 999 ms) before it is closed.
 */
export function elapsedMs(now: number, since: number): number {
  return (now - since) | 0;
}

/** Nothing from the client for twice the interval it promised: it is gone (the spec's tolerance). */
export function isSilent(now: number, lastReceived: number, expectEvery: number): boolean {
  return expectEvery > 0 && elapsedMs(now, lastReceived) > 2 * expectEvery;
}

/** Time to send a beat: nothing went out for about the agreed interval (within half a tick). */
export function isBeatDue(now: number, lastSent: number, sendEvery: number): boolean {
  return sendEvery > 0 && elapsedMs(now, lastSent) >= sendEvery - HEARTBEAT_TICK_MS / 2;
}
