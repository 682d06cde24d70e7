// Call quality under a clean and an impaired network, as QA runs it: `harness call` as a separate
// process against a real server and a real coturn, the impairment by the harness's own UDP relay
// between the caller and coturn. Quality does not depend on the database, so SQLite only.
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { RunningServer } from '../../../server/src/main';
import { requireCoturn, startCoturn, type Coturn } from '../../../server/test/support/coturn';
import { startTestServer } from '../../../server/test/support/test-server';
import { createUser, type TestUser } from '../../../server/test/support/users';
import type { CallRunReport } from '../../src/caller/report';
import { junitProblems } from '../support/junit-schema';

const ROOT = path.resolve(__dirname, '../../..');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function harness(args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', 'protocol-harness/src/cli.ts', ...args], { cwd: ROOT, timeout: 120_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

const pair = (u: TestUser) => `${u.email}:${u.password}`;

/** Enough seconds of media for a series and its summary. */
const HOLD_SECONDS = '5';
/**
 * Long enough for a stable loss figure: both receivers together get about 100 audio packets a
 * second, so 12 s of hold gives ~1200+, where 10 % loss has a standard deviation below 1 point
 * (the test allows ±3).
 */
const LOSSY_HOLD_SECONDS = '12';

describe('harness call: quality and an impaired network (coturn)', () => {
  const secret = crypto.randomBytes(16).toString('hex');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'harness-quality-'));
  let coturn: Coturn | undefined;
  let server: RunningServer | undefined;

  before(async function () {
    requireCoturn(this);
    coturn = await startCoturn(secret);
    server = await startTestServer({ databaseUrl: `sqlite:${path.join(dir, 'test.sqlite3')}`, env: { TURN_URLS: coturn.urls.join(','), TURN_SECRET: secret, TURN_TTL: '600' } });
  });

  after(async () => {
    await server?.stop();
    await coturn?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const call = async (extra: string[]) => {
    const [caller, callee] = await Promise.all([createUser(server!), createUser(server!)]);
    const file = path.join(dir, `${crypto.randomBytes(4).toString('hex')}.json`);
    const junit = `${file}.xml`;
    const run = await harness(['call', '--url', server!.url, '--caller', pair(caller), '--callee', pair(callee), '--relay-only', '--hold', HOLD_SECONDS, '--report', file, '--junit', junit, ...extra]);
    const report = JSON.parse(fs.readFileSync(file, 'utf8')) as CallRunReport;
    return { run, report, junit: fs.readFileSync(junit, 'utf8'), log: `${run.stdout}${run.stderr}\ncoturn log:\n${coturn!.log().slice(-1500)}` };
  };

  it('--network loss=10% measures 7–13 % loss and a lower MOS than a clean call; a missed --expect exits 1', async () => {
    const clean = await call(['--expect', 'mos>=4', '--expect', 'loss<2%']);
    expect(clean.run.code, clean.log).to.equal(0);
    const q = clean.report.quality!;
    for (const side of [q.caller, q.callee]) {
      expect(side.series.length).to.be.at.least(Number(HOLD_SECONDS) - 1);
      expect(side.summary.mos!.mean).to.be.at.least(4);
      expect(side.summary.rttMs).to.not.equal(null);
      expect(side.summary.bitrateKbps!.mean).to.be.above(0);
      // The series is per second since the media started.
      expect(side.series[0].t).to.be.within(0.5, 2);
    }
    expect(clean.report.expectations?.map((e) => e.ok)).to.deep.equal([true, true]);

    const lossy = await call(['--hold', LOSSY_HOLD_SECONDS, '--network', 'loss=10%', '--expect', 'mos>=1', '--expect', 'loss<2%']);
    expect(lossy.run.code, lossy.log).to.equal(1);
    expect(lossy.report).to.include({ ok: false, failure: 'expectation', reason: null });
    const n = lossy.report.quality!.network!;
    expect(n).to.include({ asked: 'loss=10%', side: 'caller' });
    expect(n.measuredLossPct, JSON.stringify(n)).to.be.within(7, 13);
    expect(n.datagrams!.dropped).to.be.above(0);
    expect(lossy.report.checks).to.include("caller's media goes through the impaired network to the TURN relay");
    const mos = (r: CallRunReport) => Math.min(r.quality!.caller.summary.mos!.mean, r.quality!.callee.summary.mos!.mean);
    expect(mos(lossy.report)).to.be.below(mos(clean.report));
    expect(lossy.report.expectations?.map((e) => [e.expression, e.ok])).to.deep.equal([
      ['mos>=1', true],
      ['loss<2%', false],
    ]);
    expect(lossy.run.stdout).to.match(/✘ expect loss<2%: audio packet loss was [\d.]+ % \((caller|callee), mean over the call\)/);
    expect(lossy.run.stdout).to.match(/network caller: asked loss=10%; measured loss [\d.]+ % per impaired link/);
    expect(junitProblems(lossy.junit)).to.deep.equal([]);
    expect(lossy.junit).to.match(/<testcase name="expect mos&gt;=1" classname="harness.call.accept.quality"[^>]*\/>/);
    expect(lossy.junit).to.match(/<testcase name="expect loss&lt;2%" classname="harness.call.accept.quality"[^>]*><failure message="loss&lt;2%: audio packet loss was/);
  });

  it('--network-change-at clears the loss mid-call: lossy seconds first, clean ones after', async () => {
    const { run, report, log } = await call(['--hold', '8', '--network', 'loss=20%', '--network-side', 'callee', '--network-change-at', '4s:loss=0%']);
    expect(run.code, log).to.equal(0);
    const n = report.quality!.network!;
    expect(n).to.deep.include({ side: 'callee', changes: ['4s:loss=0%'] });
    for (const side of [report.quality!.caller, report.quality!.callee]) {
      const early = side.series.filter((s) => s.t <= 3.5).map((s) => s.lossPct ?? 0);
      const late = side.series.filter((s) => s.t >= 6).map((s) => s.lossPct ?? 0);
      expect(Math.max(...early), JSON.stringify(side.series)).to.be.above(10);
      expect(Math.max(...late), JSON.stringify(side.series)).to.equal(0);
    }
  });

  // Each parser's every complaint is unit-tested (expect.test.ts, network.test.ts); here, that they reach the exit status.
  it('refuses bad --expect, --network and --network-change-at with exit 64, naming what is wrong', async () => {
    const base = ['call', '--url', 'http://127.0.0.1:1', '--caller', 'a@x:p', '--callee', 'b@x:p'];
    const bad = [
      [['--expect', 'mos>>4'], /expected MEASURE OP VALUE/],
      [['--network', 'loss=5'], /loss is a percentage/],
      [['--network', 'loss=5%', '--network-change-at', 'soon'], /TIME:SETTINGS/],
      [['--network-change-at', '4s:loss=0%'], /needs --network/],
    ] as const;
    for (const [args, message] of bad) {
      const run = await harness([...base, ...args]);
      expect(run.code, `${args.join(' ')}: ${run.stderr}`).to.equal(64);
      expect(run.stderr).to.match(message);
    }
  });

  it('exits 2, the test could not run, when --network finds no TURN server over UDP to relay through', async () => {
    const bare = await startTestServer({ databaseUrl: `sqlite:${path.join(dir, 'bare.sqlite3')}` });
    try {
      const [caller, callee] = await Promise.all([createUser(bare), createUser(bare)]);
      const run = await harness(['call', '--url', bare.url, '--caller', pair(caller), '--callee', pair(callee), '--network', 'loss=5%']);
      expect(run.code, run.stdout + run.stderr).to.equal(2);
      expect(run.stdout).to.match(/FAIL \(infrastructure\)/);
      expect(run.stdout).to.match(/caller signs in, connects over STOMP and fetches ICE servers: --network needs a TURN server over UDP/);
    } finally {
      await bare.stop();
    }
  });

  it('--help lists the quality options and the profiles', async () => {
    const run = await harness(['call', '--help']);
    expect(run.code, run.stderr).to.equal(0);
    for (const option of ['--expect', '--network ', '--network-side', '--network-change-at', 'lossy-wifi', '3g']) expect(run.stdout).to.include(option);
  });
});
