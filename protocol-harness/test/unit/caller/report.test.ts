import { expect } from 'chai';
import { callJUnit, failureKind, formatReport, withCallVerdict } from '../../../src/caller/report';
import type { ScenarioReport } from '../../../src/caller/scenarios';
import { toJUnit } from '../../../src/shared/junit';
import { junitProblems } from '../../support/junit-schema';

const report = (o: Partial<ScenarioReport>): ScenarioReport => ({
  scenario: 'accept',
  ok: true,
  reason: null,
  checks: ['caller signs in, connects over STOMP and fetches ICE servers', 'callee receives incoming from the caller'],
  timings: {},
  relayOnly: false,
  lastReason: { caller: null, callee: null },
  reconnects: [],
  ...o,
});

describe('harness call verdict', () => {
  it('tells an infrastructure failure (sign-in, unreachable, no TURN) from a failed expectation', () => {
    expect(failureKind('caller signs in, connects over STOMP and fetches ICE servers: /api/login answered 401: {}')).to.equal('infrastructure');
    expect(failureKind('callee (reloaded) signs in, connects over STOMP and fetches ICE servers: x')).to.equal('infrastructure');
    expect(failureKind('server unreachable: connect ECONNREFUSED 127.0.0.1:1')).to.equal('infrastructure');
    expect(failureKind('the server offers a TURN server for relay-only calls: no turn: URL in GET /api/call/ice-servers')).to.equal('infrastructure');
    expect(failureKind("caller's connection reaches connected: not within 20000 ms")).to.equal('expectation');
    expect(failureKind(null)).to.equal(null);
  });

  it('exits 0, 1, 2, 130 and 143 by the contract', () => {
    expect(withCallVerdict(report({}), null).exitCode).to.equal(0);
    expect(withCallVerdict(report({ ok: false, reason: 'callee receives incoming from the caller: not within 20000 ms' }), null).exitCode).to.equal(1);
    expect(withCallVerdict(report({ ok: false, reason: 'server unreachable: connect ECONNREFUSED 127.0.0.1:1' }), null).exitCode).to.equal(2);
    const term = withCallVerdict(report({ ok: false, reason: 'interrupted by SIGTERM after 1.0 s' }), 'SIGTERM');
    expect(term).to.include({ exitCode: 143, interrupted: true, ok: false, signal: 'SIGTERM' });
    expect(withCallVerdict(report({}), 'SIGINT')).to.include({ exitCode: 130, ok: false });
    expect(formatReport(term)).to.match(/^scenario accept: INTERRUPTED \(SIGTERM\)/);
  });

  it('writes a testcase per expectation that held and one for the first that failed, valid by the schema', () => {
    const failed = withCallVerdict(report({ ok: false, reason: 'callee receives the caller’s hangup: not within 20000 ms' }), null);
    const xml = toJUnit(callJUnit(failed, new Date('2026-01-01T00:00:00Z'), 4.2));
    expect(junitProblems(xml)).to.deep.equal([]);
    expect(xml.match(/<testcase /g)).to.have.length(3);
    expect(xml).to.match(/<testcase name="callee receives the caller’s hangup" classname="harness.call.accept"[^>]*><failure message="callee receives the caller’s hangup: not within 20000 ms"/);
    const infra = withCallVerdict(report({ ok: false, checks: [], reason: 'server unreachable: connect ECONNREFUSED 127.0.0.1:1' }), null);
    expect(toJUnit(callJUnit(infra, new Date(), 0))).to.match(/errors="1"/).and.match(/<error message="server unreachable/);
  });
});
