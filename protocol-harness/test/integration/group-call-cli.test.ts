// `harness call --scenario group` as QA runs it: a separate process against a real server with
// its embedded Janus and users made by the admin CLI's seed. Six participants hear each other;
// the seventh past GROUP_CALL_MAX is refused 'full'; a leave and rejoin is heard again; a call
// held with --hold reports what each participant sent and is still heard at its end. Janus
// missing: a loud skip, a failure under CI.
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { RunningServer } from '../../../server/src/main';
import { IN_CI } from '../../../server/test/support/databases';
import { startTestServer } from '../../../server/test/support/test-server';
import type { GroupScenarioReport } from '../../src/caller/group-scenario';

const ROOT = path.resolve(__dirname, '../../..');
const PARTICIPANTS = 6;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function run(command: string, args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd: ROOT, env: { ...process.env, ...env }, timeout: 150_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr });
    });
  });
}

const harness = (args: string[]) => run(process.execPath, ['--import', 'tsx', 'protocol-harness/src/cli.ts', ...args]);

describe('harness call --scenario group', function () {
  let server: RunningServer;
  let dir = '';

  before(async function () {
    let installed = false;
    try {
      installed = execFileSync('janus', ['--help'], { encoding: 'utf8' }).includes('janus');
    } catch {
      installed = false;
    }
    if (!installed) {
      const message = 'janus is not installed (apt-get install janus)';
      if (IN_CI) throw new Error(`${message}: CI must run every test`);
      console.warn(`\n  !!! SKIPPING the group-call harness: ${message}\n`);
      this.skip();
    }
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'group-cli-'));
    const databaseUrl = `sqlite:${path.join(dir, 'db.sqlite3')}`;
    const seeded = await run('npm', ['run', '--silent', 'admin', '--', 'seed', '--users', String(PARTICIPANTS + 1), '--password', 'group-pass', '--prefix', 'grp'], { DATABASE_URL: databaseUrl });
    expect(seeded.code, seeded.stderr).to.equal(0);
    server = await startTestServer({ databaseUrl, env: { GROUP_CALL_MAX: String(PARTICIPANTS) } });
  });

  after(async () => {
    await server?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  const groupRun = async (scenario: string): Promise<GroupScenarioReport> => {
    const result = await harness(['call', '--url', server.url, '--scenario', scenario, '--participants', String(PARTICIPANTS), '--users-prefix', 'grp', '--password', 'group-pass', '--json']);
    expect(result.code, result.stdout + result.stderr).to.equal(0);
    return JSON.parse(result.stdout) as GroupScenarioReport;
  };

  it(`passes with ${PARTICIPANTS} participants who each hear every other, reporting the heard matrix and join times`, async () => {
    const report = await groupRun('group');
    expect(report).to.include({ scenario: 'group', ok: true, reason: null, participants: PARTICIPANTS });
    expect(Object.keys(report.heard)).to.have.length(PARTICIPANTS);
    for (const row of Object.values(report.heard)) expect(Object.values(row)).to.deep.equal(Array(PARTICIPANTS - 1).fill(true));
    expect(report.joinMs.each).to.have.length(PARTICIPANTS);
    expect(report.joinMs.p50).to.be.a('number');
    expect(report.joinMs.p95).to.be.a('number');
    // Join time is the first sound of the last other participant; the meter confirms each tone later.
    expect(report.confirmedMs.each).to.have.length(PARTICIPANTS);
    expect(report.timeline.map((t) => t.userId)).to.have.length(PARTICIPANTS);
    for (const t of report.timeline) {
      for (const step of ['joinedMs', 'publishSentMs', 'publishAnswerMs', 'publisherConnectedMs', 'firstSubscribeOfferMs', 'subscriberConnectedMs', 'firstHeardMs', 'allHeardMs', 'allConfirmedMs'] as const) {
        expect(t[step], `${step} of ${t.userId}`).to.be.a('number');
      }
      expect(t.joinedMs!).to.be.at.most(t.publishSentMs!);
      expect(t.publishSentMs!).to.be.at.most(t.publishAnswerMs!);
      expect(t.firstHeardMs!).to.be.at.most(t.allHeardMs!);
      expect(t.allHeardMs!).to.be.below(t.allConfirmedMs!);
      expect(t.subscribeOffers).to.be.at.least(1);
    }
    console.log(`      join → every other heard with ${PARTICIPANTS}: p50 ${report.joinMs.p50} ms, p95 ${report.joinMs.p95} ms (tones confirmed: p50 ${report.confirmedMs.p50} ms)`);
  });

  it('holds the call with --hold, reporting each participant\'s outbound audio, everyone still heard at its end', async () => {
    const result = await harness(['call', '--url', server.url, '--scenario', 'group', '--participants', '3', '--hold', '2', '--users-prefix', 'grp', '--password', 'group-pass', '--json']);
    expect(result.code, result.stdout + result.stderr).to.equal(0);
    const report = JSON.parse(result.stdout) as GroupScenarioReport;
    expect(report.ok, report.reason ?? '').to.equal(true);
    expect(report.hold!.everyoneHeard).to.equal(true);
    expect(report.hold!.ms).to.be.at.least(2000);
    expect(report.hold!.outboundAudioBps).to.have.length(3);
    // Opus from wrtc's RTCAudioSource: tens of kbit/s each, never nothing.
    for (const bps of report.hold!.outboundAudioBps) expect(bps).to.be.within(8_000, 200_000);
  });

  it('refuses the participant past GROUP_CALL_MAX as full', async () => {
    const report = await groupRun('group-full');
    expect(report).to.include({ ok: true, refusal: 'full' });
  });

  it('hears a participant again after they leave and rejoin', async () => {
    const report = await groupRun('group-rejoin');
    expect(report.ok, report.reason ?? '').to.equal(true);
    expect(report.rejoinMs).to.be.a('number');
  });
});
