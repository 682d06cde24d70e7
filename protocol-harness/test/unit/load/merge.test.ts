import { expect } from 'chai';
import { LatencyHistogram } from '../../../src/load/latency';
import { mergeReports } from '../../../src/load/merge';
import type { LoadReport } from '../../../src/load/report';

function run(latenciesUs: number[], counts: Partial<LoadReport['counts']>, perSecond: number[]): LoadReport {
  const h = new LatencyHistogram();
  for (const us of latenciesUs) h.record(us);
  return {
    mode: 'broker',
    clients: 4,
    subscribed: 4,
    groups: 2,
    offeredRate: 10,
    durationSeconds: 2,
    rampSeconds: 0,
    interrupted: false,
    counts: { sent: 20, acknowledged: 20, rejected: 0, expectedDeliveries: 40, delivered: latenciesUs.length, late: 0, lost: 40 - latenciesUs.length, duplicated: 0, outOfOrder: 0, unexpected: 0, ...counts },
    ignoredDeliveries: 0,
    latency: h.fullSummary(),
    lateLatency: new LatencyHistogram().fullSummary(),
    throughput: { sendsPerSecond: 10, deliveriesPerSecond: 20 },
    generator: { offered: 20, askedRate: 10, achievedRate: 10, sendingSeconds: 2, sendsPerSecond: perSecond, maxBacklog: 1, fellBehind: false, cpuPercent: 10, eventLoopLagMs: { p50: 1, p99: 2, max: 3 } },
    connectionErrors: 0,
    connectionErrorsDuringRun: 0,
    errorSamples: [],
    reconnects: { beforeConnected: 0, samples: [] },
    ok: true,
  };
}

describe('merging load reports', () => {
  it('adds the counts and merges the latency histograms exactly: percentiles of all values, not averages', () => {
    const fast = Array.from({ length: 40 }, (_x, i) => 1000 + i); // ~1 ms
    const slow = Array.from({ length: 36 }, (_x, i) => 100_000 + 1000 * i); // 100…135 ms
    const merged = mergeReports([run(fast, {}, [10, 10]), run(slow, { late: 2 }, [9, 10, 1])]);
    expect(merged.counts).to.include({ sent: 40, expectedDeliveries: 80, delivered: 76, lost: 4, late: 2 });
    const all = new LatencyHistogram();
    for (const us of [...fast, ...slow]) all.record(us);
    const { hdr: _h, ...expected } = all.fullSummary();
    const { hdr: _m, ...actual } = merged.latency;
    expect(actual).to.deep.equal(expected);
    expect(merged.latency.p50Ms, 'the median of all 76, not the mean of two medians').to.be.below(2);
    expect(merged.generator).to.deep.include({ offered: 40, askedRate: 20, achievedRate: 20, cpuPercent: 20, sendsPerSecond: [19, 20, 1] });
    expect(merged).to.include({ clients: 8, subscribed: 8, groups: 4, offeredRate: 20 });
  });

  it('merged twice in any order gives the same report, and refuses mixing chat and broker runs', () => {
    const a = run([1000, 2000], {}, [1]);
    const b = run([3000], {}, [2]);
    const c = run([4000, 5000, 6000], {}, [3]);
    const strip = (r: LoadReport) => ({ ...r, latency: { ...r.latency, hdr: undefined } });
    expect(strip(mergeReports([mergeReports([a, b]), c]))).to.deep.equal(strip(mergeReports([a, mergeReports([b, c])])));
    expect(() => mergeReports([a, { ...b, mode: 'chat' }])).to.throw(/chat and broker/);
  });
});
