// `harness call --pairs N` as a load tester runs it: one process, many call pairs, users seeded by
// the admin CLI, against a real server whose TURN server is a real coturn, so every relay-only
// call's media really goes through TURN. What is measured is the harness process itself (its
// peak RSS), so one database engine (SQLite) is enough here: the server's storage is not what
// these tests are about, and the 20-pair run is the heaviest test of the harness tier.
import { execFile, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { RunningServer } from '../../../server/src/main';
import { requireCoturn, startCoturn, type Coturn } from '../../../server/test/support/coturn';
import { startTestServer } from '../../../server/test/support/test-server';
import { waitFor, within } from '../../../server/test/support/wait';
import type { PairsReport } from '../../src/caller/pairs-report';
import { junitProblems } from '../support/junit-schema';

const ROOT = path.resolve(__dirname, '../../..');
const SEEDED = 46;
const PASSWORD = 'pairs-pass';
/** The budget issue 28 sets for 20 relay-only pairs held 20 s in one process. */
const PEAK_RSS_LIMIT_MB = 1536;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function run(command: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', ...command], { cwd: ROOT, env: { ...process.env, ...env }, timeout: 170_000, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr });
    });
  });
}

const harness = (args: string[]) => run(['protocol-harness/src/cli.ts', 'call', ...args]);
const tmp = (name: string) => path.join(os.tmpdir(), `pairs-${process.pid}-${crypto.randomBytes(3).toString('hex')}-${name}`);

describe('harness call --pairs (sqlite, coturn)', function () {
  const secret = crypto.randomBytes(16).toString('hex');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'letschat-pairs-'));
  const databaseUrl = `sqlite:${path.join(dir, 'pairs.sqlite3')}`;
  let coturn: Coturn | undefined;
  let server: RunningServer | undefined;
  const users = (prefix = 'cp') => ['--users-prefix', prefix, '--password', PASSWORD];

  before(async function () {
    requireCoturn(this);
    const seeded = await run(['server/src/cli/admin.ts', 'seed', '--users', String(SEEDED), '--password', PASSWORD, '--prefix', 'cp'], { DATABASE_URL: databaseUrl });
    expect(seeded.code, seeded.stderr).to.equal(0);
    // 40 relayed connections at once hold about 200 relay allocations.
    coturn = await startCoturn(secret, { relayPorts: 600 });
    server = await startTestServer({ databaseUrl, env: { TURN_URLS: coturn.urls.join(','), TURN_SECRET: secret, TURN_TTL: '600' } });
  });

  after(async () => {
    await server?.stop();
    await coturn?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('runs 20 relay-only pairs held 20 s in one process: 20/20 pass under 1.5 GB peak RSS, with a JUnit testcase per pair', async () => {
    const reportFile = tmp('20.json');
    const junitFile = tmp('20.xml');
    const r = await harness(['--url', server!.url, '--pairs', '20', '--relay-only', '--hold', '20', ...users(), '--report', reportFile, '--junit', junitFile]);
    const report = JSON.parse(fs.readFileSync(reportFile, 'utf8')) as PairsReport;
    const xml = fs.readFileSync(junitFile, 'utf8');
    fs.rmSync(reportFile);
    fs.rmSync(junitFile);
    expect(r.code, `${r.stdout}\n${r.stderr}\ncoturn log:\n${coturn!.log().slice(-1500)}`).to.equal(0);
    expect(report).to.include({ ok: true, started: 20, passed: 20, failed: 0, interrupted: false, exitCode: 0 });
    expect(report.pairs.map((p) => p.pair)).to.deep.equal(Array.from({ length: 20 }, (_x, i) => i + 1));
    // Every pair had its own two users: 40 different accounts.
    expect(new Set(report.pairs.flatMap((p) => [p.users.caller, p.users.callee])).size).to.equal(40);
    expect(report.setupMs.count).to.equal(20);
    expect(report.setupMs.p50).to.be.a('number');
    expect(report.setupMs.p95).to.be.at.least(report.setupMs.p50!);
    console.log(`      20 relay-only pairs: peak RSS ${report.memory.peakRssMB} MB (baseline ${report.memory.baselineRssMB} MB, ${report.memory.perPairMB} MB a pair), set-up p50 ${report.setupMs.p50} ms, p95 ${report.setupMs.p95} ms, harness CPU ${report.generator?.cpuPercent} %`);
    expect(report.memory.peakRssMB).to.be.above(report.memory.baselineRssMB);
    expect(report.memory.peakRssMB).to.be.below(PEAK_RSS_LIMIT_MB);
    expect(report.memory.series.length).to.be.at.least(20);
    expect(report.generator?.cpuPercent).to.be.a('number');
    expect(report.generator?.eventLoopLagMs.p99).to.be.a('number');
    expect(r.stdout).to.match(/^pairs: PASS: 20\/20 passed/);
    expect(junitProblems(xml)).to.deep.equal([]);
    expect(xml.match(/<testcase /g)).to.have.length(20);
    expect(xml).to.not.include('<failure');
  });

  it('mixes scenarios in turn over the pairs (busy takes a third user) and reports each', async () => {
    const r = await harness(['--url', server!.url, '--pairs', '3', '--scenario', 'reject,busy,accept', '--arrival-rate', '10', ...users(), '--json']);
    expect(r.code, r.stdout + r.stderr).to.equal(0);
    const report = JSON.parse(r.stdout) as PairsReport;
    expect(report.pairs.map((p) => p.scenario)).to.deep.equal(['reject', 'busy', 'accept']);
    expect(report.pairs[1].users.third).to.be.a('string');
    expect(report.byScenario).to.deep.equal({ reject: { passed: 1, failed: 0 }, busy: { passed: 1, failed: 0 }, accept: { passed: 1, failed: 0 } });
    // A rejected call never connects, so it has no set-up time; an accepted one has.
    expect(report.pairs[0].setupMs).to.equal(null);
    expect(report.pairs[2].setupMs).to.be.a('number');
    expect(report.setupMs.count).to.be.at.least(1);
  });

  it('exits 1 when one pair fails, naming the pair, with a <failure> for it alone', async () => {
    const junitFile = tmp('fail.xml');
    // The server rings for 60 s; told 1 s, the ring-timeout pair waits 1.2 + 4 s for a hangup that does not come.
    const r = await harness(['--url', server!.url, '--pairs', '2', '--scenario', 'accept,ring-timeout', '--ring-timeout', '1', '--timeout', '4', ...users(), '--json', '--junit', junitFile]);
    const xml = fs.readFileSync(junitFile, 'utf8');
    fs.rmSync(junitFile);
    expect(r.code, r.stdout + r.stderr).to.equal(1);
    const report = JSON.parse(r.stdout) as PairsReport;
    expect(report).to.include({ ok: false, passed: 1, failed: 1, failure: 'expectation', exitCode: 1 });
    expect(report.pairs[1]).to.include({ scenario: 'ring-timeout', ok: false, failure: 'expectation' });
    expect(report.pairs[1].reason).to.match(/hangup/);
    expect(junitProblems(xml)).to.deep.equal([]);
    expect(xml.match(/<failure /g)).to.have.length(1);
    expect(xml).to.match(/<testcase name="pair 2: ring-timeout[^"]*"[^>]*>\s*<failure /);
  });

  it('exits 2 before any call when fewer users are seeded than the pairs need, saying how many there are', async () => {
    const r = await harness(['--url', server!.url, '--pairs', '25', ...users(), '--json']);
    expect(r.code, r.stdout + r.stderr).to.equal(2);
    const report = JSON.parse(r.stdout) as PairsReport;
    expect(report).to.include({ started: 0, failure: 'infrastructure', exitCode: 2 });
    expect(report.error).to.equal(`only ${SEEDED} users with prefix cp; 50 asked`);
  });

  it('exits 2 naming the socket error when the server is unreachable, with the report and a JUnit <error>', async () => {
    const junitFile = tmp('down.xml');
    const r = await harness(['--url', 'http://127.0.0.1:1', '--pairs', '2', ...users(), '--json', '--junit', junitFile]);
    const xml = fs.readFileSync(junitFile, 'utf8');
    fs.rmSync(junitFile);
    expect(r.code, r.stdout + r.stderr).to.equal(2);
    expect((JSON.parse(r.stdout) as PairsReport).error).to.include('connect ECONNREFUSED 127.0.0.1:1');
    expect(junitProblems(xml)).to.deep.equal([]);
    expect(xml).to.match(/<testcase name="the pairs could start"[^>]*>\s*<error /);
  });

  it('takes users from --users-file, and exits 2 when the file has too few', async () => {
    const file = tmp('users.txt');
    fs.writeFileSync(file, `# two pairs\n${[5, 6, 7, 8].map((n) => `cp${n}@example.test,${PASSWORD}`).join('\n')}\n`);
    try {
      const ok = await harness(['--url', server!.url, '--pairs', '2', '--scenario', 'reject', '--users-file', file, '--json']);
      expect(ok.code, ok.stdout + ok.stderr).to.equal(0);
      expect((JSON.parse(ok.stdout) as PairsReport).pairs.map((p) => p.users)).to.deep.equal([
        { caller: 'cp5@example.test', callee: 'cp6@example.test' },
        { caller: 'cp7@example.test', callee: 'cp8@example.test' },
      ]);
      const short = await harness(['--url', server!.url, '--pairs', '3', '--users-file', file, '--json']);
      expect(short.code).to.equal(2);
      expect((JSON.parse(short.stdout) as PairsReport).error).to.equal(`only 4 users in ${file}; 6 asked`);
    } finally {
      fs.rmSync(file);
    }
  });

  for (const [signal, code] of [['SIGTERM', 143], ['SIGINT', 130]] as const) {
    it(`on ${signal} mid-run writes the combined report of what ran, marked interrupted, and exits ${code}`, async () => {
      const reportFile = tmp(`${signal}.json`);
      const junitFile = tmp(`${signal}.xml`);
      // Pairs 12 s apart, each holding its call 60 s: one pair is mid-call when the signal comes.
      const args = ['--url', server!.url, '--pairs', '3', '--arrival-rate', '0.08', '--hold', '60', ...users(), '--json', '--report', reportFile, '--junit', junitFile];
      const child = spawn(process.execPath, ['--import', 'tsx', 'protocol-harness/src/cli.ts', 'call', ...args], { cwd: ROOT });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
      await waitFor(() => stderr.includes('pair 1 (accept): started'), { what: 'the first pair to start', timeoutMs: 30_000 });
      child.kill(signal);
      const exitCode = await within(exited, 30_000, `the harness to exit after ${signal}`);
      expect(exitCode, stderr).to.equal(code);
      const report = JSON.parse(stdout) as PairsReport;
      expect(report).to.include({ interrupted: true, signal, ok: false, exitCode: code, started: 1 });
      expect(report.pairs[0].reason).to.match(/^interrupted after/);
      expect(JSON.parse(fs.readFileSync(reportFile, 'utf8'))).to.include({ interrupted: true, exitCode: code });
      const xml = fs.readFileSync(junitFile, 'utf8');
      expect(junitProblems(xml)).to.deep.equal([]);
      expect(xml).to.include(`interrupted by ${signal} with 1 of 3 pairs started`);
      fs.rmSync(reportFile);
      fs.rmSync(junitFile);
    });
  }

  it('exits 64 for usage errors: no users, --caller with --pairs, several scenarios without --pairs, an unknown scenario', async () => {
    const url = server!.url;
    const cases: [string[], RegExp][] = [
      [['--url', url, '--pairs', '2'], /--users-prefix and --password, or --users-file/],
      [['--url', url, '--pairs', '2', '--caller', 'a@x:p', ...users()], /not --caller/],
      [['--url', url, '--caller', 'a@x:p', '--callee', 'b@x:p', '--scenario', 'accept,reject'], /several scenarios need --pairs/],
      [['--url', url, '--pairs', '2', '--scenario', 'accept,dance', ...users()], /"dance" is not a scenario/],
      [['--url', url, '--pairs', '0', ...users()], /positive integer/],
    ];
    const results = await Promise.all(cases.map(([args]) => harness(args)));
    results.forEach((r, i) => {
      const [args, message] = cases[i];
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).to.equal(64);
      expect(r.stderr).to.match(message);
    });
  });

  it('--help lists the options of --pairs', async () => {
    const r = await harness(['--help']);
    expect(r.code, r.stderr).to.equal(0);
    for (const option of ['--pairs <n>', '--users-prefix', '--password', '--users-file', '--arrival-rate', '--scenario <name[,name…]>']) expect(r.stdout).to.include(option);
  });
});
