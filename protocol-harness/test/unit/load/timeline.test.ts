import { expect } from 'chai';
import { LatencyHistogram } from '../../../src/load/latency';
import type { RunSample } from '../../../src/load/samples';
import { LoadTimeline } from '../../../src/load/timeline';

function sample(elapsedSeconds: number, phase: RunSample['phase'], sent: number, latenciesMs: number[]): [RunSample, LatencyHistogram] {
  const h = new LatencyHistogram();
  latenciesMs.forEach((v) => h.record(v * 1000));
  const zero = { count: 0, p50: 0, p90: 0, p99: 0, max: 0 };
  return [
    { at: '', elapsedSeconds, phase, offered: 0, sent: 0, acknowledged: 0, delivered: 0, late: 0, missing: 0, duplicated: 0, outOfOrder: 0, sentInInterval: sent, deliveredInInterval: latenciesMs.length, latencyMs: zero, generatorCpuPercent: 0, eventLoopLagP99Ms: 0 },
    h,
  ];
}

describe('the --html timeline of a staged run', () => {
  it('puts each second in the stage its middle falls in, an overrun in the last stage, the drain after sending; latency merged exactly', () => {
    const t = new LoadTimeline({ ratePerSecond: 0, durationSeconds: 0, rampSeconds: 0, stages: [{ seconds: 2, target: 10 }, { seconds: 2, target: 10 }] });
    t.add(...sample(1, 'sending', 3, [1, 1, 1]));
    t.add(...sample(2, 'sending', 8, [2]));
    t.add(...sample(3, 'sending', 10, [5, 5]));
    t.add(...sample(4.6, 'sending', 10, [7])); // the generator overran the 4 s planned
    t.add(...sample(5, 'draining', 0, [3]));
    t.add(...sample(6, 'grace', 0, []));
    const [one, two, after] = t.stages();
    expect(one).to.deep.include({ label: 'stage 1', fromSeconds: 0, toSeconds: 2, fromRate: 0, toRate: 10, offered: 10, sent: 11, delivered: 4, sampledSeconds: 2 });
    expect(one.latency.count).to.equal(4);
    expect(one.latency.p50Ms).to.be.closeTo(1, 0.01);
    expect(two).to.deep.include({ label: 'stage 2', offered: 20, sent: 20, delivered: 3, sampledSeconds: 2 });
    expect(two.latency.maxMs).to.be.closeTo(7, 0.01);
    expect(after).to.deep.include({ label: 'after sending (drain, grace)', fromSeconds: 4, toSeconds: 6, offered: 0, sent: 0, delivered: 1, sampledSeconds: 2 });
    expect(t.samples).to.have.length(6);
  });

  it('has no stage table without --stages, and keeps every sample', () => {
    const t = new LoadTimeline({ ratePerSecond: 5, durationSeconds: 3, rampSeconds: 0 });
    t.add(...sample(1, 'sending', 5, [1]));
    expect(t.stages()).to.deep.equal([]);
    expect(t.samples).to.have.length(1);
  });
});
