import { expect } from 'chai';
import { chatUsers, parseUsersFile, type LoadOptions } from '../../../src/load/command';
import { slotOf } from '../../../src/load/scenario';
import { exitCode, formatReport, type LoadReport } from '../../../src/load/report';

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
});
