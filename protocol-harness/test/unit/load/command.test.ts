import { expect } from 'chai';
import { chatUsers, parseUsersFile, type LoadOptions } from '../../../src/load/command';
import { slotOf } from '../../../src/load/scenario';
import { behindMessage, exitCode, formatReport, junitSuite, withVerdict, type LoadReport } from '../../../src/load/report';
import { loginFailure } from '../../../src/load/scenario';
import { RestError } from '../../../src/load/chat-rest';
import { evaluateThresholds, parseThreshold } from '../../../src/load/threshold';
import { toJUnit } from '../../../src/shared/junit';
import { junitProblems } from '../../support/junit-schema';

const options = (o: Partial<LoadOptions>): LoadOptions => ({
  url: 'http://x',
  clients: 3,
  rooms: 1,
  rate: 1,
  duration: 1,
  ramp: 0,
  drain: 1,
  grace: 1,
  threshold: [],
  metricsHost: '127.0.0.1',
  workers: 1,
  messageBytes: 64,
  json: false,
  progress: false,
  broker: false,
  concurrency: 1,
  ...o,
});

function report(counts: Partial<LoadReport['counts']>, extra: Partial<LoadReport> = {}): LoadReport {
  return {
    mode: 'chat',
    clients: 2,
    subscribed: 2,
    groups: 1,
    offeredRate: 10,
    durationSeconds: 1,
    rampSeconds: 0,
    interrupted: false,
    counts: { sent: 10, acknowledged: 10, rejected: 0, expectedDeliveries: 20, delivered: 20, late: 0, lost: 0, duplicated: 0, outOfOrder: 0, unexpected: 0, ...counts },
    ignoredDeliveries: 0,
    latency: { count: 20, p50Ms: 1, p90Ms: 2, p95Ms: 2.5, p99Ms: 3, maxMs: 4 },
    lateLatency: { count: 0, p50Ms: 0, p90Ms: 0, p95Ms: 0, p99Ms: 0, maxMs: 0 },
    throughput: { sendsPerSecond: 10, deliveriesPerSecond: 20 },
    generator: {
      offered: 10,
      askedRate: 10,
      achievedRate: 10,
      sendingSeconds: 1,
      sendsPerSecond: [10],
      maxBacklog: 1,
      fellBehind: false,
      cpuPercent: 5,
      eventLoopLagMs: { p50: 1, p99: 2, max: 3 },
    },
    connectionErrors: 0,
    connectionErrorsDuringRun: 0,
    errorSamples: [],
    reconnects: { beforeConnected: 0, samples: [] },
    ok: true,
    ...extra,
  };
}

describe('harness load options and report', () => {
  it('derives the seeded users {prefix}1…{prefix}N@example.test, lower-cased as the seed stores them', () => {
    expect(chatUsers(options({ usersPrefix: 'Load', password: 'pw' }))).to.deep.equal([
      { email: 'load1@example.test', password: 'pw' },
      { email: 'load2@example.test', password: 'pw' },
      { email: 'load3@example.test', password: 'pw' },
    ]);
    expect(() => chatUsers(options({}))).to.throw(/--users-prefix/);
  });

  it('reads a users file of "email,password" or "email password" lines, skipping comments and blanks', () => {
    expect(parseUsersFile('# users\na@x.io,pa ss\n\n b@x.io  secret \n')).to.deep.equal([
      { email: 'a@x.io', password: 'pa ss' },
      { email: 'b@x.io', password: 'secret' },
    ]);
    expect(() => parseUsersFile('lonely')).to.throw(/line 1/);
  });

  it('splits clients into contiguous rooms whose sizes differ by at most one', () => {
    const sizes = new Map<number, number>();
    for (let i = 0; i < 23; i++) sizes.set(slotOf(i, 23, 5), (sizes.get(slotOf(i, 23, 5)) ?? 0) + 1);
    expect([...sizes.keys()]).to.deep.equal([0, 1, 2, 3, 4]);
    expect(Math.max(...sizes.values()) - Math.min(...sizes.values())).to.be.at.most(1);
  });

  it('exits 1 on a failed run and 0 on a clean one, and says which in the table', () => {
    expect(exitCode(report({}))).to.equal(0);
    expect(formatReport(report({}))).to.match(/lost\s+0/).and.match(/result: OK/);
    const failed = report({ lost: 1, delivered: 19 }, { ok: false });
    expect(exitCode(failed)).to.equal(1);
    expect(formatReport(failed)).to.match(/lost\s+1\n/).and.match(/result: FAILED/);
  });

  it('exits 3 and says "generator fell behind" when the generator could not offer the asked load, whatever else failed', () => {
    const behind = report(
      { sent: 241_740, lost: 5 },
      { offeredRate: 20_000, durationSeconds: 20, generator: { ...report({}).generator, offered: 400_000, askedRate: 20_000, achievedRate: 12_087, sendingSeconds: 21, fellBehind: true, cpuPercent: 112 } },
    );
    expect(behindMessage(behind)).to.match(/^generator fell behind: 12,087 of 20,000 msg\/s \(sent 241,740 of 400,000 in 21\.0 s, planned 20 s; harness CPU 112 %/);
    const judged = withVerdict(behind);
    expect(judged).to.include({ ok: false, exitCode: 3 });
    expect(formatReport(judged)).to.match(/! generator fell behind: 12,087 of 20,000 msg\/s/).and.match(/result: GENERATOR BEHIND/);
  });

  it('exits 1 on a missed threshold, lists each threshold as a check, and 130/143 when interrupted', () => {
    const base = report({});
    const thresholds = evaluateThresholds([parseThreshold('p99<2ms'), parseThreshold('lost==0')], base);
    const judged = withVerdict({ ...base, thresholds });
    expect(judged.exitCode).to.equal(1);
    expect(judged.checks!.filter((c) => !c.ok).map((c) => c.name)).to.deep.equal(['threshold p99<2ms']);
    expect(formatReport(judged)).to.match(/✘ p99<2ms: latency p99 was 3\.00 ms/).and.match(/✔ lost==0/);
    expect(withVerdict({ ...base, interrupted: true, signal: 'SIGTERM' })).to.include({ ok: false, exitCode: 143 });
    expect(withVerdict({ ...base, interrupted: true, signal: 'SIGINT' })).to.include({ ok: false, exitCode: 130 });
    expect(exitCode(report({}, { subscribed: 0, connectionErrors: 2 }))).to.equal(2);
  });

  it('writes a JUnit testcase per check and threshold, a <failure> for each failed one, valid by the schema', () => {
    const base = report({ lost: 2, delivered: 18 }, { errorSamples: [] });
    const judged = withVerdict({ ...base, thresholds: evaluateThresholds([parseThreshold('p99<50ms'), parseThreshold('rate>=0.99')], base) });
    const xml = toJUnit(junitSuite(judged, new Date('2026-01-01T00:00:00Z'), 3));
    expect(junitProblems(xml)).to.deep.equal([]);
    expect(xml.match(/<testcase /g)).to.have.length(judged.checks!.length);
    expect(xml.match(/<failure /g)).to.have.length(2); // nothing lost; rate>=0.99 (18/20)
    expect(xml).to.match(/<testcase name="nothing lost"[^>]*><failure message="2 deliveries lost of 20 expected"/);
  });

  it('says when the seeded users ran out, and when every login was refused', () => {
    const users = Array.from({ length: 205 }, (_x, i) => ({ email: `ld${i + 1}@example.test`, password: 'pw' }));
    const refused = (i: number) => new RestError(`login ld${i + 1}@example.test: HTTP 401`, 401);
    const tried = users.map((_u, i) => i < 205);
    const missing = new Map([200, 201, 202, 203, 204].map((i) => [i, refused(i)]));
    expect(loginFailure(users, missing, tried, 'ld')).to.equal('only 200 users with prefix ld; 205 asked (login ld201@example.test: HTTP 401 (and 4 more refused))');
    // Stopped after ten refusals: the rest were never tried, and the count still holds.
    const asked = Array.from({ length: 300 }, (_x, i) => ({ email: `ld${i + 1}@example.test`, password: 'pw' }));
    const many = new Map(Array.from({ length: 10 }, (_x, k) => [200 + k, refused(200 + k)]));
    expect(loginFailure(asked, many, asked.map((_u, i) => i < 210), 'ld')).to.match(/^only 200 users with prefix ld; 300 asked/);
    const all = new Map([0, 1].map((i) => [i, refused(i)]));
    expect(loginFailure(users.slice(0, 2), all, [true, true], 'ld')).to.equal(
      'login refused (login ld1@example.test: HTTP 401 (and 1 more refused)): a wrong --password, or no users seeded with prefix ld?',
    );
    const scattered = new Map([[3, refused(3)]]);
    expect(loginFailure(users.slice(0, 5), scattered, [true, true, true, true, true], 'ld')).to.equal('login ld4@example.test: HTTP 401');
  });
});

