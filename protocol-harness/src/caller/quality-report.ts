// The report's quality part: each side's probes (one per connection; a resume adds one) joined
// into one series on a clock that starts when that side's media first connected, summarised, and,
// under --network, the loss measured beside the loss asked.
import { measuredLinkLossPct, type ImpairedNetwork } from './impaired-network';
import type { CallQuality, SideQuality } from './quality';
import type { QualityProbe } from './quality-probe';
import { summarize } from './quality-stats';

/** What the report reads of a probe (quality-probe.ts). */
export type ProbeReading = Pick<QualityProbe, 'first' | 'last' | 'series'>;

function sideQuality(all: ProbeReading[]): SideQuality | null {
  const probes = all.filter((q) => q.first !== null);
  if (probes.length === 0) return null;
  const origin = Math.min(...probes.map((q) => q.first!.at)) / 1000;
  const series = probes
    .flatMap((q) => q.series)
    .map((s) => ({ ...s, t: Math.round((s.t - origin) * 10) / 10 }))
    .sort((a, b) => a.t - b.t);
  let received = 0;
  let lost = 0;
  for (const q of probes) {
    received += (q.last!.audioPacketsReceived ?? 0) - (q.first!.audioPacketsReceived ?? 0);
    lost += Math.max(0, (q.last!.audioPacketsLost ?? 0) - (q.first!.audioPacketsLost ?? 0));
  }
  const lossPct = received + lost > 0 ? Math.round((10000 * lost) / (received + lost)) / 100 : null;
  return { series, summary: summarize(series), audioPackets: { received, lost, lossPct } };
}

const EMPTY: SideQuality = { series: [], summary: summarize([]) };

/** Null when neither side's media connected (a rejected call, a ring timeout). */
export function callQuality(probes: { caller: ProbeReading[]; callee: ProbeReading[] }, network: Pick<ImpairedNetwork, 'plan' | 'counts'> | null): CallQuality | null {
  const caller = sideQuality(probes.caller);
  const callee = sideQuality(probes.callee);
  if (!caller && !callee) return null;
  const quality: CallQuality = { caller: caller ?? EMPTY, callee: callee ?? EMPTY };
  if (network) {
    const plan = network.plan;
    quality.network = {
      asked: plan.asked,
      measuredLossPct: measuredLinkLossPct(quality, plan.side) ?? 0,
      side: plan.side,
      ...(plan.changes.length > 0 ? { changes: plan.changes.map((c) => c.text) } : {}),
      datagrams: network.counts(),
    };
  }
  return quality;
}
