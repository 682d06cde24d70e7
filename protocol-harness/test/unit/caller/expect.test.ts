import { expect } from 'chai';
import { evaluateExpectations, parseExpectation } from '../../../src/caller/expect';
import type { CallQuality, QualitySummary } from '../../../src/caller/quality';
import { stat } from '../../../src/caller/quality-stats';

const summary = (mos: number[], loss: number[], rtt: number[]): QualitySummary => ({
  samples: mos.length,
  mos: stat(mos),
  lossPct: stat(loss),
  rttMs: stat(rtt),
  jitterMs: null,
  bitrateKbps: stat([32]),
});

describe('--expect on call quality', () => {
  it('parses measures with their units', () => {
    expect(parseExpectation('mos>=4')).to.include({ metric: 'mos', operator: '>=', limit: 4 });
    expect(parseExpectation(' loss < 2% ')).to.include({ metric: 'loss', operator: '<', limit: 2, expression: 'loss < 2%' });
    expect(parseExpectation('rtt<0.2s')).to.include({ metric: 'rtt', limit: 200 });
    expect(parseExpectation('jitter<=30ms')).to.include({ metric: 'jitter', limit: 30 });
    expect(parseExpectation('bitrate>20kbps')).to.include({ metric: 'bitrate', limit: 20 });
  });

  it('refuses what it cannot judge, saying what is allowed', () => {
    expect(() => parseExpectation('mos>>4')).to.throw(/expected MEASURE OP VALUE/);
    expect(() => parseExpectation('p99<50ms')).to.throw(/unknown measure p99 \(one of mos, loss, rtt, jitter, bitrate\)/);
    expect(() => parseExpectation('loss<2ms')).to.throw(/loss takes %/);
    expect(() => parseExpectation('mos>=4%')).to.throw(/a plain number/);
    expect(() => parseExpectation('rtt<5%')).to.throw(/a time/);
  });

  it('judges the worse side’s mean, and fails what was not measured', () => {
    const quality: CallQuality = {
      caller: { series: [], summary: summary([4.4, 4.2], [0, 1], [40, 60]) },
      callee: { series: [], summary: summary([3.0, 3.2], [10, 12], [40, 40]) },
    };
    const results = evaluateExpectations(['mos>=4', 'loss<2%', 'rtt<100ms', 'jitter<30ms'].map(parseExpectation), quality);
    expect(results.map((r) => [r.ok, r.actual, r.side])).to.deep.equal([
      [false, 3.1, 'callee'],
      [false, 11, 'callee'],
      [true, 50, 'caller'],
      [false, null, 'caller'],
    ]);
    expect(results[1].description).to.equal('loss<2%: audio packet loss was 11 % (callee, mean over the call)');
    expect(evaluateExpectations([parseExpectation('mos>=1')], undefined)[0]).to.include({ ok: false, actual: null });
  });
});
