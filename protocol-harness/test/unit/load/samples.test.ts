import { expect } from 'chai';
import { LatencyHistogram } from '../../../src/load/latency';
import { SampleAligner, type EncodedSample, type RunSample } from '../../../src/load/samples';

function part(second: number, sent: number, latenciesMs: number[], phase: RunSample['phase'] = 'sending'): EncodedSample {
  const h = new LatencyHistogram();
  latenciesMs.forEach((ms) => h.record(ms * 1000));
  const l = h.summary();
  return {
    sample: {
      at: new Date(Date.UTC(2026, 0, 1, 0, 0, second)).toISOString(),
      elapsedSeconds: second,
      phase,
      offered: sent,
      sent,
      acknowledged: sent,
      delivered: sent,
      late: 0,
      missing: 0,
      duplicated: 0,
      outOfOrder: 0,
      sentInInterval: latenciesMs.length,
      deliveredInInterval: latenciesMs.length,
      latencyMs: { count: l.count, p50: l.p50Ms, p90: l.p90Ms, p99: l.p99Ms, max: l.maxMs },
      generatorCpuPercent: 10,
      eventLoopLagP99Ms: second,
    },
    hdr: h.fullSummary().hdr,
  };
}

describe('--workers samples', () => {
  it('merges each second once every worker gave it, and carries a finished worker’s final counts into later seconds', () => {
    const out: RunSample[] = [];
    const aligner = new SampleAligner(2, (s) => out.push(s));
    aligner.add(0, part(1, 2, [1, 1]));
    expect(out).to.have.length(0);
    aligner.add(1, part(1, 1, [100]));
    expect(out).to.have.length(1);
    expect(out[0]).to.deep.include({ sent: 3, sentInInterval: 3, generatorCpuPercent: 20, eventLoopLagP99Ms: 1, phase: 'sending' });
    expect(out[0].latencyMs.count).to.equal(3);
    expect(out[0].latencyMs.p50).to.be.closeTo(1, 0.01); // of all three values, not a mean of medians
    aligner.add(0, part(2, 4, [2, 2], 'draining'));
    aligner.add(1, part(2, 2, [3], 'grace'));
    aligner.add(1, part(3, 2, [], 'grace')); // worker 0 stopped sampling after second 2
    expect(out).to.have.length(2);
    expect(out[1].phase).to.equal('draining');
    aligner.flush();
    expect(out).to.have.length(3);
    expect(out[2]).to.deep.include({ sent: 6, sentInInterval: 0 });
    expect(out[2].latencyMs.count).to.equal(0);
  });
});
