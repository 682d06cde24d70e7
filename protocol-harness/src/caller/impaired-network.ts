// A call's impaired network (--network): for each impaired side, one relay per TURN server
// (udp-relay.ts), the side's ICE servers rewritten to go through them (relay only, so no media
// can go round the impairment), the scheduled changes, and the loss the receivers measured.
import type { IceServer } from '@common/api';
import type { NetworkPlan, NetworkSide } from './network';
import type { CallQuality } from './quality';
import { ImpairedUdpRelay, type RelayTarget } from './udp-relay';

/** host and port of a TURN URL over UDP (turn:host[:port][?transport=udp]); null for any other. */
export function udpTurnTarget(url: string): RelayTarget | null {
  const m = /^turn:(\[[^\]]+\]|[^:?]+)(?::(\d+))?(?:\?(.*))?$/.exec(url.trim());
  if (!m) return null;
  const transport = /(?:^|&)transport=(\w+)/.exec(m[3] ?? '')?.[1]?.toLowerCase() ?? 'udp';
  if (transport !== 'udp') return null;
  return { host: m[1].replace(/^\[|\]$/g, ''), port: m[2] ? Number(m[2]) : 3478 };
}

export class ImpairedNetwork {
  private readonly relays = new Map<string, ImpairedUdpRelay>();
  private readonly timers: NodeJS.Timeout[] = [];
  private changesStarted = false;

  constructor(readonly plan: NetworkPlan) {}

  /** Whether this side's media goes through the impairment. */
  impairs(side: string): boolean {
    return this.plan.side === 'both' || this.plan.side === side;
  }

  /**
   * The side's ICE servers with each TURN server over UDP replaced by a relay to it; the rest
   * (STUN, TURN over TCP or TLS) left out. Throws when none is left: the impairment could not work.
   */
  async iceServersFor(side: 'caller' | 'callee', servers: IceServer[]): Promise<IceServer[]> {
    const rewritten: IceServer[] = [];
    for (const server of servers) {
      const urls: string[] = [];
      for (const url of [server.urls].flat()) {
        const target = udpTurnTarget(url);
        if (!target) continue;
        const relay = await this.relayFor(side, target);
        urls.push(`turn:${relay.address.includes(':') ? `[${relay.address}]` : relay.address}:${relay.port}?transport=udp`);
      }
      if (urls.length > 0) rewritten.push({ ...server, urls });
    }
    if (rewritten.length === 0) throw new Error(`--network needs a TURN server over UDP to relay through; the server offers ${JSON.stringify(servers.flatMap((s) => [s.urls].flat()))}`);
    return rewritten;
  }

  /** Schedules --network-change-at from now (the call's media connected); once. */
  startChanges(): void {
    if (this.changesStarted) return;
    this.changesStarted = true;
    for (const change of this.plan.changes) {
      const timer = setTimeout(() => {
        for (const relay of this.relays.values()) relay.set({ ...relay.current, ...change.change });
      }, change.atSeconds * 1000);
      timer.unref();
      this.timers.push(timer);
    }
  }

  /** Datagrams each way through every relay: what the impairment really did. */
  counts(): { forwarded: number; dropped: number } {
    let forwarded = 0;
    let dropped = 0;
    for (const relay of this.relays.values()) {
      forwarded += relay.counts.up.forwarded + relay.counts.down.forwarded;
      dropped += relay.counts.up.dropped + relay.counts.down.dropped;
    }
    return { forwarded, dropped };
  }

  close(): void {
    for (const timer of this.timers) clearTimeout(timer);
    // The relays stay listed: their counts go into the report.
    for (const relay of this.relays.values()) relay.close();
  }

  private async relayFor(side: string, target: RelayTarget): Promise<ImpairedUdpRelay> {
    const key = `${side}|${target.host}|${target.port}`;
    let relay = this.relays.get(key);
    if (!relay) {
      relay = await ImpairedUdpRelay.start(target, this.plan.impairment);
      this.relays.set(key, relay);
    }
    return relay;
  }
}

/**
 * The loss one impaired link caused, from what both receivers measured over the call (their
 * audio packets lost over expected, pooled). With one side impaired every packet crosses one lossy
 * link; with both it crosses two, so the per-link loss p solves 1 − (1 − p)² = measured.
 */
export function measuredLinkLossPct(quality: Pick<CallQuality, 'caller' | 'callee'>, side: NetworkSide): number | null {
  let lost = 0;
  let expected = 0;
  for (const s of [quality.caller, quality.callee]) {
    if (!s.audioPackets) continue;
    lost += s.audioPackets.lost;
    expected += s.audioPackets.lost + s.audioPackets.received;
  }
  if (expected === 0) return null;
  const endToEnd = lost / expected;
  const perLink = side === 'both' ? 1 - Math.sqrt(1 - endToEnd) : endToEnd;
  return Math.round(perLink * 10000) / 100;
}
