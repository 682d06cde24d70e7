// `harness call` as QA runs it: a separate process against a real server, reporting through its
// output and exit status.
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { RunningServer } from '../../../server/src/main';
import { forEachDatabase } from '../../../server/test/support/databases';
import { startTestServer } from '../../../server/test/support/test-server';
import { createUser, type TestUser } from '../../../server/test/support/users';
import { SCENARIOS, type ScenarioReport } from '../../src/caller/scenarios';
import { junitProblems } from '../support/junit-schema';
import type { CallRunReport } from '../../src/caller/report';
import { waitFor, within } from '../../../server/test/support/wait';

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

forEachDatabase('harness call command', (db) => {
  let server: RunningServer;

  before(async () => {
    server = await startTestServer({ databaseUrl: db.url() });
  });

  after(async () => {
    await server?.stop();
  });

  it('exits 0 with one JSON report of timings and audio when an accepted call works', async () => {
    const [caller, callee] = await Promise.all([createUser(server), createUser(server)]);
    const run = await harness(['call', '--url', server.url, '--caller', pair(caller), '--callee', pair(callee), '--scenario', 'accept', '--json']);
    expect(run.code, run.stdout + run.stderr).to.equal(0);
    const report = JSON.parse(run.stdout) as ScenarioReport;
    expect(report).to.include({ scenario: 'accept', ok: true, reason: null });
    expect(report.timings.initiateToIncomingMs).to.be.a('number');
    expect(report.timings.acceptToConnectedMs?.callee).to.be.a('number');
    expect(report.timings.firstAudioFrameMs?.caller).to.be.a('number');
    expect(report.audio?.caller.heard).to.equal(true);
  });

  it('prints a readable summary that says PASS for a rejected call', async () => {
    const [caller, callee] = await Promise.all([createUser(server), createUser(server)]);
    const run = await harness(['call', '--url', server.url, '--caller', pair(caller), '--callee', pair(callee), '--scenario', 'reject']);
    expect(run.code, run.stdout + run.stderr).to.equal(0);
    expect(run.stdout).to.match(/^scenario reject: PASS/);
    expect(run.stdout).to.include('✔ caller receives rejected from the callee');
  });

  it('exits 2, the test could not run, with the reason when a user cannot sign in (a wrong password)', async () => {
    const [caller, callee] = await Promise.all([createUser(server), createUser(server)]);
    const run = await harness(['call', '--url', server.url, '--caller', `${caller.email}:wrong-password`, '--callee', pair(callee)]);
    expect(run.code).to.equal(2);
    expect(run.stdout).to.match(/FAIL \(infrastructure\)/);
    expect(run.stdout).to.match(/caller signs in.*401/);
  });

  it('--help lists every scenario and the options the new ones take', async () => {
    const run = await harness(['call', '--help']);
    expect(run.code, run.stderr).to.equal(0);
    for (const scenario of SCENARIOS) expect(run.stdout).to.match(new RegExp(`^  ${scenario} `, 'm'), scenario);
    for (const option of ['--media', '--reconnect-grace', '--reload', '--ring-timeout']) expect(run.stdout).to.include(option);
  });

  it('reports what each side saw of a video call: frames, size and rate', async () => {
    const [caller, callee] = await Promise.all([createUser(server), createUser(server)]);
    const run = await harness(['call', '--url', server.url, '--caller', pair(caller), '--callee', pair(callee), '--scenario', 'video', '--json']);
    expect(run.code, run.stdout + run.stderr).to.equal(0);
    const report = JSON.parse(run.stdout) as ScenarioReport;
    for (const side of [report.video?.caller, report.video?.callee]) {
      expect(side).to.include({ seen: true });
      expect(side?.framesReceived).to.be.above(0);
      expect(side?.width).to.be.above(0);
      expect(side?.height).to.be.above(0);
      expect(side?.fps).to.be.above(0);
    }
    expect(report.timings.initiateToFirstFrameMs).to.be.a('number');
  });

  it('exits 64, a usage error, and says why when busy is run without a third user', async () => {
    const [caller, callee] = await Promise.all([createUser(server), createUser(server)]);
    const run = await harness(['call', '--url', server.url, '--caller', pair(caller), '--callee', pair(callee), '--scenario', 'busy', '--json']);
    expect(run.code).to.equal(64);
    expect(run.stderr).to.match(/--third/);
  });

  it('exits 1 with a JUnit <failure> for the expectation that failed', async () => {
    const caller = await createUser(server);
    // The same user twice: signing in works, the call itself cannot be.
    const junit = path.join(os.tmpdir(), `call-${process.pid}-${Date.now()}.xml`);
    const run = await harness(['call', '--url', server.url, '--caller', pair(caller), '--callee', pair(caller), '--json', '--junit', junit]);
    expect(run.code, run.stdout + run.stderr).to.equal(1);
    expect(JSON.parse(run.stdout)).to.include({ failure: 'expectation', exitCode: 1 });
    const xml = fs.readFileSync(junit, 'utf8');
    fs.rmSync(junit);
    expect(junitProblems(xml)).to.deep.equal([]);
    expect(xml).to.match(/<testcase name="caller and callee are different users"[^>]*><failure /);
  });

  it('on SIGTERM mid-call writes the report of what ran, marked interrupted, to stdout and --report, and exits 143', async () => {
    const [caller, callee] = await Promise.all([createUser(server), createUser(server)]);
    const reportFile = path.join(os.tmpdir(), `call-term-${process.pid}-${Date.now()}.json`);
    // Nobody answers and the ring lasts ten minutes: the call is under way when the signal comes.
    const child = spawn(process.execPath, ['--import', 'tsx', 'protocol-harness/src/cli.ts', 'call', '--url', server.url, '--caller', pair(caller), '--callee', pair(callee), '--scenario', 'ring-timeout', '--ring-timeout', '600', '--json', '--report', reportFile], { cwd: ROOT });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
    await waitFor(() => stderr.includes('call: scenario ring-timeout'), 'the call to start');
    child.kill('SIGTERM');
    const code = await within(exited, 30_000, 'the harness to exit after SIGTERM');
    expect(code, stderr).to.equal(143);
    const report = JSON.parse(stdout) as CallRunReport;
    expect(report).to.include({ interrupted: true, signal: 'SIGTERM', ok: false, exitCode: 143 });
    expect(report.reason).to.match(/^interrupted by SIGTERM after/);
    expect(JSON.parse(fs.readFileSync(reportFile, 'utf8'))).to.include({ interrupted: true, exitCode: 143 });
    fs.rmSync(reportFile);
  });
});

