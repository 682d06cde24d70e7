import { expect } from 'chai';
import { sampleBetween, snapshotFrom, stat, summarize, type StatsSnapshot } from '../../../src/caller/quality-stats';

// What @roamhq/wrtc's getStats() gives (docs/operations.md, "Call quality"), trimmed.
const stats = (o: { received: number; lost: number; bytesIn: number; bytesOut: number; concealed: number; samples: number; rtt?: number }) => [
  { id: 'T', type: 'transport', selectedCandidatePairId: 'P2' },
  { id: 'P1', type: 'candidate-pair', state: 'succeeded', nominated: false, currentRoundTripTime: 0.5 },
  { id: 'P2', type: 'candidate-pair', state: 'succeeded', nominated: true, currentRoundTripTime: o.rtt ?? 0.042 },
  { id: 'IA', type: 'inbound-rtp', kind: 'audio', packetsReceived: o.received, packetsLost: o.lost, jitter: 0.0125, bytesReceived: o.bytesIn, concealedSamples: o.concealed, totalSamplesReceived: o.samples, jitterBufferDelay: 0, jitterBufferEmittedCount: 0 },
  { id: 'IV', type: 'inbound-rtp', kind: 'video', packetsReceived: 5, packetsLost: 99, bytesReceived: 1000 },
  { id: 'OA', type: 'outbound-rtp', kind: 'audio', bytesSent: o.bytesOut },
  { id: 'RI', type: 'remote-inbound-rtp', kind: 'audio', roundTripTime: 0.3 },
];

describe('call quality from getStats()', () => {
  const a = snapshotFrom(stats({ received: 100, lost: 0, bytesIn: 10_000, bytesOut: 9_000, concealed: 0, samples: 96_000 }), 10_000);
  const b = snapshotFrom(stats({ received: 145, lost: 5, bytesIn: 14_000, bytesOut: 13_000, concealed: 4_800, samples: 144_000 }), 11_000);

  it('reads the audio inbound stream, the selected pair’s RTT and every stream’s bytes', () => {
    expect(a).to.include({ audioPacketsReceived: 100, audioPacketsLost: 0, jitter: 0.0125, rtt: 0.042, bytesReceived: 11_000, bytesSent: 9_000 });
  });

  it('turns one second into loss over expected packets, bitrates, concealment and a MOS', () => {
    const s = sampleBetween(a, b, 8_000);
    expect(s).to.deep.include({ t: 3, rttMs: 42, jitterMs: 12.5, lossPct: 10, bitrateKbps: 32, outBitrateKbps: 32, concealedPct: 10 });
    expect(s.mos).to.be.within(2.8, 3.4);
  });

  it('falls back to RTCP’s round-trip time and never reports negative loss when late packets arrive', () => {
    const entries = stats({ received: 150, lost: 2, bytesIn: 0, bytesOut: 0, concealed: 0, samples: 0 }).filter((e) => e.type !== 'transport' && e.id !== 'P2');
    const c = snapshotFrom(entries, 12_000);
    expect(c.rtt).to.equal(0.3);
    expect(sampleBetween(b, c, 0).lossPct).to.equal(0);
  });

  it('gives no loss and no MOS when no audio arrived in the second', () => {
    const none: StatsSnapshot = { ...a, audioPacketsReceived: null, audioPacketsLost: null };
    expect(sampleBetween(none, none, 0)).to.include({ lossPct: null, mos: null });
  });

  it('summarises each measure by min, p50, p95, max and mean, skipping nulls', () => {
    expect(stat([3, null, 1, 2, 4])).to.deep.equal({ min: 1, p50: 2, p95: 4, max: 4, mean: 2.5 });
    expect(stat([null])).to.equal(null);
    const summary = summarize([sampleBetween(a, b, 8_000), sampleBetween(a, a, 8_000)]);
    expect(summary.samples).to.equal(2);
    expect(summary.lossPct).to.deep.equal({ min: 10, p50: 10, p95: 10, max: 10, mean: 10 });
  });
});
