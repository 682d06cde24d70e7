import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { assignUsers, listUsers, scenarioOf, usersNeeded } from '../../../src/caller/pair-users';
import { pairsJUnit, pairsReport, qualityDistribution, qualityOf, stat, type PairResult, type PairsRun } from '../../../src/caller/pairs-report';
import { toJUnit } from '../../../src/shared/junit';
import { InfrastructureError, UsageError } from '../../../src/shared/outcome';
import { junitProblems } from '../../support/junit-schema';

const pair = (n: number, ok: boolean, extra: Partial<PairResult> = {}): PairResult => ({
  pair: n,
  scenario: 'accept',
  ok,
  setupMs: ok ? n * 100 : null,
  reason: ok ? null : 'caller hears the other side’s 660 Hz tone: not within 20000 ms',
  failure: ok ? null : 'expectation',
  users: { caller: `cp${2 * n - 1}@example.test`, callee: `cp${2 * n}@example.test` },
  startedAtS: n / 5,
  seconds: 3,
  ...extra,
});

const run = (pairs: PairResult[], extra: Partial<PairsRun> = {}): PairsRun => ({
  asked: { pairs: pairs.length, scenarios: ['accept'], arrivalRate: 5, relayOnly: true, holdSeconds: 0 },
  pairs,
  qualities: [],
  memory: { peakRssMB: 240, baselineRssMB: 100, perPairMB: 7, series: [] },
  generator: { cpuPercent: 40, eventLoopLagMs: { p50: 20, p99: 60, max: 90 } },
  durationSeconds: 12,
  error: null,
  signal: null,
  ...extra,
});

describe('the --pairs report', () => {
  it('passes (exit 0) when every pair asked passed, with set-up p50/p95 over the pairs that connected', () => {
    const r = pairsReport(run([1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((n) => pair(n, true))));
    expect(r).to.include({ ok: true, passed: 10, failed: 0, exitCode: 0, failure: null, interrupted: false });
    expect(r.setupMs).to.deep.equal({ count: 10, p50: 500, p95: 1000, max: 1000 });
    expect(r.byScenario).to.deep.equal({ accept: { passed: 10, failed: 0 } });
  });

  it('exits 1 when a pair’s call failed, 2 when every failure was a login or TURN one', () => {
    expect(pairsReport(run([pair(1, true), pair(2, false)])).exitCode).to.equal(1);
    const infra = pairsReport(run([pair(1, true), pair(2, false, { failure: 'infrastructure' })]));
    expect(infra).to.include({ exitCode: 2, failure: 'infrastructure' });
    expect(pairsReport(run([pair(1, false, { failure: 'infrastructure' }), pair(2, false)])).exitCode).to.equal(1);
  });

  it('exits 2 when the pairs could not start, 64 on a usage error, 130/143 when interrupted', () => {
    expect(pairsReport(run([], { error: { message: 'only 30 users with prefix cp; 40 asked', kind: 'infrastructure' } }))).to.include({ exitCode: 2, error: 'only 30 users with prefix cp; 40 asked' });
    expect(pairsReport(run([], { error: { message: 'bad', kind: 'usage' } })).exitCode).to.equal(64);
    const term = pairsReport(run([pair(1, true), pair(2, false, { seconds: null, failure: null })], { signal: 'SIGTERM' }));
    expect(term).to.include({ exitCode: 143, interrupted: true, signal: 'SIGTERM', ok: false, failure: null });
    expect(pairsReport(run([pair(1, true)], { signal: 'SIGINT' })).exitCode).to.equal(130);
  });

  it('counts pairs asked but never started as a failure', () => {
    const r = pairsReport({ ...run([pair(1, true)]), asked: { pairs: 2, scenarios: ['accept'], arrivalRate: 5, relayOnly: false, holdSeconds: 0 } });
    expect(r).to.include({ ok: false, exitCode: 1 });
  });

  it('writes a JUnit testcase per pair that CI reads, <error> for an infrastructure failure', () => {
    const r = pairsReport(run([pair(1, true), pair(2, false), pair(3, false, { failure: 'infrastructure', reason: 'caller signs in, connects over STOMP and fetches ICE servers: 401' })]));
    const xml = toJUnit(pairsJUnit(r, new Date()));
    expect(junitProblems(xml)).to.deep.equal([]);
    expect(xml.match(/<testcase /g)).to.have.length(3);
    expect(xml.match(/<failure /g)).to.have.length(1);
    expect(xml.match(/<error /g)).to.have.length(1);
    expect(xml).to.include('pair 2: accept (cp3@example.test → cp4@example.test)');
  });
});

describe('the --pairs quality distribution', () => {
  const sample = (mos: number | null, rttMs: number | null) => ({ t: 1, rttMs, jitterMs: 2, lossPct: 0, bitrateKbps: 32, outBitrateKbps: 32, concealedPct: 0, mos });

  it('reads a call report’s quality in the contract’s shape, and nothing else', () => {
    const report = { quality: { caller: { series: [sample(4.4, 10)], summary: {} }, callee: { series: [sample(4.2, 12)], summary: {} } } };
    expect(qualityOf(report)?.caller.series[0]).to.deep.equal({ rttMs: 10, jitterMs: 2, lossPct: 0, bitrateKbps: 32, mos: 4.4 });
    expect(qualityOf({})).to.equal(null);
    expect(qualityOf({ quality: { caller: { series: [] } } })).to.equal(null);
  });

  it('pools every second of both sides of every pair, skipping nulls', () => {
    const q = (mos: (number | null)[]) => qualityOf({ quality: { caller: { series: mos.map((m) => sample(m, 20)) }, callee: { series: [sample(4, null)] } } })!;
    const d = qualityDistribution([q([4.4, null]), q([3])])!;
    expect(d).to.include({ samples: 5, pairs: 2 });
    expect(d.mos).to.deep.equal({ min: 3, p50: 4, p95: 4.4, max: 4.4, mean: 3.85 });
    expect(d.rttMs?.max).to.equal(20);
    expect(qualityDistribution([])).to.equal(null);
  });

  it('computes nearest-rank percentiles', () => {
    expect(stat([])).to.equal(null);
    expect(stat([5])).to.deep.equal({ min: 5, p50: 5, p95: 5, max: 5, mean: 5 });
    expect(stat(Array.from({ length: 100 }, (_x, i) => i + 1))).to.include({ p50: 50, p95: 95 });
  });
});

describe('the --pairs users', () => {
  it('gives each pair the next two users, three for busy, scenarios in turn', () => {
    const scenarios = ['accept', 'busy'] as const;
    expect(usersNeeded(scenarios, 3)).to.equal(7);
    expect(scenarioOf(scenarios, 2)).to.equal('accept');
    const users = listUsers({ usersPrefix: 'CP', password: 'p' }, 7);
    expect(users[6]).to.deep.equal({ email: 'cp7@example.test', password: 'p' });
    const pairs = assignUsers(users, scenarios, 3);
    expect(pairs.map((p) => [p.caller.email, p.callee.email, p.third?.email])).to.deep.equal([
      ['cp1@example.test', 'cp2@example.test', undefined],
      ['cp3@example.test', 'cp4@example.test', 'cp5@example.test'],
      ['cp6@example.test', 'cp7@example.test', undefined],
    ]);
  });

  it('reads a users file, and says how many it has when too few', () => {
    const file = path.join(os.tmpdir(), `pairs-users-${process.pid}.txt`);
    fs.writeFileSync(file, '# users\na@x.test,one\n\nb@x.test two words\n');
    try {
      expect(listUsers({ usersFile: file }, 2)).to.deep.equal([{ email: 'a@x.test', password: 'one' }, { email: 'b@x.test', password: 'two words' }]);
      expect(() => listUsers({ usersFile: file }, 4)).to.throw(InfrastructureError, `only 2 users in ${file}; 4 asked`);
    } finally {
      fs.rmSync(file);
    }
    expect(() => listUsers({ usersFile: `${file}.missing` }, 2)).to.throw(UsageError, /--users-file/);
    expect(() => listUsers({ usersPrefix: 'cp' }, 2)).to.throw(UsageError, /--password/);
  });
});
