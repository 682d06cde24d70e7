import { expect } from 'chai';
import { evaluateExpectations, parseExpectation } from '../../../src/caller/expect';
import { fullImpairment } from '../../../src/caller/network';
import { callJUnit, formatReport, withCallVerdict } from '../../../src/caller/report';
import { callQuality, type ProbeReading } from '../../../src/caller/quality-report';
import type { QualitySample } from '../../../src/caller/quality';
import type { StatsSnapshot } from '../../../src/caller/quality-stats';
import type { ScenarioReport } from '../../../src/caller/scenarios';
import { toJUnit } from '../../../src/shared/junit';
import { junitProblems } from '../../support/junit-schema';

const snapshot = (at: number, received: number, lost: number): StatsSnapshot => ({
  at,
  audioPacketsReceived: received,
  audioPacketsLost: lost,
  concealedSamples: 0,
  totalSamplesReceived: 0,
  jitterBufferDelay: null,
  jitterBufferEmittedCount: null,
  jitter: 0.001,
  bytesReceived: 0,
  bytesSent: 0,
  rtt: 0.01,
});

const sample = (t: number, lossPct: number, mos: number): QualitySample => ({ t, rttMs: 10, jitterMs: 1, lossPct, bitrateKbps: 32, outBitrateKbps: 32, concealedPct: 0, mos });

/** Probes keep `t` on performance.now()'s clock in seconds, like QualityProbe. */
const probe = (startMs: number, samples: [number, number][], packets: [number, number]): ProbeReading => ({
  first: snapshot(startMs, 0, 0),
  last: snapshot(startMs + samples.length * 1000, packets[0], packets[1]),
  series: samples.map(([loss, mos], i) => sample(startMs / 1000 + i + 1, loss, mos)),
});

const scenario: ScenarioReport = {
  scenario: 'accept',
  ok: true,
  reason: null,
  checks: ['callee receives incoming from the caller'],
  timings: {},
  relayOnly: true,
  lastReason: { caller: null, callee: null },
  reconnects: [],
};

describe('the call report’s quality', () => {
  it('joins a side’s connections (a resume) into one series from its media’s start, with the packets of both', () => {
    const q = callQuality(
      {
        caller: [probe(100_000, [[10, 3], [12, 2.9]], [180, 20]), probe(105_000, [[0, 4.4]], [100, 0])],
        callee: [probe(100_200, [[8, 3.2]], [92, 8])],
      },
      null,
    )!;
    expect(q.caller.series.map((s) => s.t)).to.deep.equal([1, 2, 6]);
    expect(q.caller.audioPackets).to.deep.equal({ received: 280, lost: 20, lossPct: 6.67 });
    expect(q.caller.summary.mos).to.deep.equal({ min: 2.9, p50: 3, p95: 4.4, max: 4.4, mean: 3.43 });
    expect(q.network).to.equal(undefined);
  });

  it('is absent when no side’s media connected, and reports the network asked beside the loss measured', () => {
    expect(callQuality({ caller: [{ first: null, last: null, series: [] }], callee: [] }, null)).to.equal(null);
    const network = { plan: { asked: 'loss=10%', side: 'caller' as const, impairment: fullImpairment('loss=10%'), changes: [] }, counts: () => ({ forwarded: 900, dropped: 100 }) };
    const q = callQuality({ caller: [probe(0, [[10, 3]], [90, 10])], callee: [probe(0, [[8, 3]], [92, 8])] }, network)!;
    expect(q.network).to.deep.equal({ asked: 'loss=10%', measuredLossPct: 9, side: 'caller', datagrams: { forwarded: 900, dropped: 100 } });
  });

  it('fails the run with exit 1 on a missed --expect, one JUnit testcase each, valid by the schema', () => {
    const quality = callQuality({ caller: [probe(0, [[10, 3.1]], [90, 10])], callee: [probe(0, [[0, 4.4]], [100, 0])] }, null)!;
    const results = evaluateExpectations(['mos>=2', 'loss<2%'].map(parseExpectation), quality);
    const r = withCallVerdict({ ...scenario, quality }, null, results);
    expect(r).to.include({ ok: false, exitCode: 1, failure: 'expectation' });
    const xml = toJUnit(callJUnit(r, new Date('2026-01-01T00:00:00Z'), 3));
    expect(junitProblems(xml)).to.deep.equal([]);
    expect(xml.match(/<testcase /g)).to.have.length(3);
    expect(xml).to.match(/<testcase name="expect loss&lt;2%" classname="harness.call.accept.quality"[^>]*><failure message="loss&lt;2%: audio packet loss was 10 % \(caller, mean over the call\)"/);
    const text = formatReport(r);
    expect(text).to.match(/^scenario accept \(relay only\): FAIL/);
    expect(text).to.include('✔ expect mos>=2: MOS (E-model estimate) was 3.1 (caller, mean over the call)');
    expect(text).to.match(/quality caller: MOS 3.1 \(min 3.1\), loss 10 %, RTT 10 ms/);
  });

  it('passes when every expectation holds, and judges none on a scenario that failed or was interrupted', () => {
    const quality = callQuality({ caller: [probe(0, [[0, 4.4]], [100, 0])], callee: [probe(0, [[0, 4.4]], [100, 0])] }, null)!;
    const held = evaluateExpectations([parseExpectation('mos>=4')], quality);
    expect(withCallVerdict({ ...scenario, quality }, null, held)).to.include({ ok: true, exitCode: 0, failure: null });
    const missed = evaluateExpectations([parseExpectation('mos>=4.5')], quality);
    const failed = withCallVerdict({ ...scenario, ok: false, reason: 'callee hears the other side’s 440 Hz tone: not within 20000 ms', quality }, null, missed);
    expect(failed).to.include({ exitCode: 1 });
    expect(failed.expectations).to.equal(undefined);
    expect(withCallVerdict({ ...scenario, quality }, 'SIGTERM', missed)).to.include({ exitCode: 143 });
  });
});
