// `harness call` as QA runs it: a separate process against a real server, reporting through its
// output and exit status.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { expect } from 'chai';
import type { RunningServer } from '../../../server/src/main';
import { forEachDatabase } from '../../../server/test/support/databases';
import { startTestServer } from '../../../server/test/support/test-server';
import { createUser, type TestUser } from '../../../server/test/support/users';
import { SCENARIOS, type ScenarioReport } from '../../src/caller/scenarios';

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

  it('exits 1 with the reason when an expectation fails (a wrong password)', async () => {
    const [caller, callee] = await Promise.all([createUser(server), createUser(server)]);
    const run = await harness(['call', '--url', server.url, '--caller', `${caller.email}:wrong-password`, '--callee', pair(callee)]);
    expect(run.code).to.equal(1);
    expect(run.stdout).to.match(/FAIL/);
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

  it('exits 1 and says why when busy is run without a third user', async () => {
    const [caller, callee] = await Promise.all([createUser(server), createUser(server)]);
    const run = await harness(['call', '--url', server.url, '--caller', pair(caller), '--callee', pair(callee), '--scenario', 'busy', '--json']);
    expect(run.code).to.equal(1);
    expect((JSON.parse(run.stdout) as ScenarioReport).reason).to.match(/--third/);
  });
});
