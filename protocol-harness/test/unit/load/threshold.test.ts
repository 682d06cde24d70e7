import { expect } from 'chai';
import { describeResult, evaluateThresholds, parseThreshold } from '../../../src/load/threshold';
import type { LoadReport } from '../../../src/load/report';

const report = {
  latency: { count: 100, p50Ms: 2, p90Ms: 10, p95Ms: 20, p99Ms: 61.2, maxMs: 80 },
  counts: { sent: 10, acknowledged: 10, rejected: 0, expectedDeliveries: 1000, delivered: 995, late: 3, lost: 5, duplicated: 0, outOfOrder: 0, unexpected: 0 },
  connectionErrors: 0,
  generator: { achievedRate: 1900 },
  throughput: { sendsPerSecond: 1900, deliveriesPerSecond: 19000 },
} as unknown as LoadReport;

describe('load thresholds', () => {
  it('reads latency in ms or s, counts as plain numbers and the delivered share as a ratio or a percentage', () => {
    expect(parseThreshold('p99<50ms')).to.deep.include({ metric: 'p99', operator: '<', limit: 50 });
    expect(parseThreshold(' p95 <= 0.5s ')).to.deep.include({ metric: 'p95', operator: '<=', limit: 500 });
    expect(parseThreshold('lost==0')).to.deep.include({ metric: 'lost', operator: '==', limit: 0 });
    expect(parseThreshold('rate>=0.99')).to.deep.include({ metric: 'rate', operator: '>=', limit: 0.99 });
    expect(parseThreshold('rate>=99%').limit).to.be.closeTo(0.99, 1e-12);
  });

  it('refuses what it cannot read, saying what is allowed', () => {
    expect(() => parseThreshold('p99 under 50')).to.throw(/expected METRIC OP VALUE/);
    expect(() => parseThreshold('p42<5ms')).to.throw(/unknown metric p42 \(one of p50, p90/);
    expect(() => parseThreshold('lost<5ms')).to.throw(/plain number/);
    expect(() => parseThreshold('rate>5ms')).to.throw(/ratio/);
  });

  it('passes and fails each threshold on the final report, saying the actual value', () => {
    const results = evaluateThresholds(['p99<50ms', 'lost==0', 'rate>=0.99', 'late<=3', 'sendRate>=1900'].map(parseThreshold), report);
    expect(results.map((r) => r.ok)).to.deep.equal([false, false, true, true, true]);
    expect(describeResult(results[0])).to.equal('p99<50ms: latency p99 was 61.20 ms');
    expect(describeResult(results[1])).to.equal('lost==0: deliveries lost was 5');
    expect(describeResult(results[2])).to.equal('rate>=0.99: share of expected deliveries delivered was 99.500 %');
  });
});
