// Every `harness call` scenario against a real server on port 0, with users made by the
// accounts code. The ring-timeout scenarios run on a server whose ring timeout is shortened so
// they do not take 60 s; every other scenario needs the call to keep ringing through its steps
// (a reload signs in again), so it runs on a server with a ring timeout no loaded machine reaches.
import { expect } from 'chai';
import type { RunningServer } from '../../../server/src/main';
import { forEachDatabase } from '../../../server/test/support/databases';
import { startTestServer } from '../../../server/test/support/test-server';
import { createUser } from '../../../server/test/support/users';
import { CALLEE_TONE_HZ, CALLER_TONE_HZ, runScenario, type ScenarioName, type ScenarioOptions } from '../../src/caller/scenarios';

const SHORT_RING_TIMEOUT_MS = 1500;
const RING_TIMEOUT_MS = 60_000;

forEachDatabase('harness call scenarios', (db) => {
  let server: RunningServer;
  /** The same database, ringing for 1.5 s only: for the ring-timeout scenarios. */
  let shortRing: RunningServer;

  before(async () => {
    server = await startTestServer({ databaseUrl: db.url(), env: { CALL_RING_TIMEOUT_MS: String(RING_TIMEOUT_MS) } });
    shortRing = await startTestServer({ databaseUrl: db.url(), env: { CALL_RING_TIMEOUT_MS: String(SHORT_RING_TIMEOUT_MS) } });
  });

  after(async () => {
    await shortRing?.stop();
    await server?.stop();
  });

  async function run(scenario: ScenarioName, extra: Partial<ScenarioOptions> = {}) {
    const on = scenario === 'ring-timeout' ? shortRing : server;
    const [caller, callee, third] = await Promise.all([
      createUser(on, { name: 'Caller' }),
      createUser(on, { name: 'Callee' }),
      createUser(on, { name: 'Third' }),
    ]);
    const report = await runScenario(scenario, {
      url: on.url,
      caller,
      callee,
      third,
      ringTimeoutSeconds: (on === shortRing ? SHORT_RING_TIMEOUT_MS : RING_TIMEOUT_MS) / 1000,
      ...extra,
    });
    expect(report.ok, `${report.reason}\nafter: ${report.checks.join(' / ')}`).to.equal(true);
    for (const why of report.reconnects) console.warn(`  (reconnected before CONNECTED: ${why})`);
    expect(report.reason).to.equal(null);
    return report;
  }

  it('accept: both sides connect, each hears the other’s tone, and the hang-up reaches the callee', async () => {
    const report = await run('accept', { holdSeconds: 1 });
    // The measurements with a failure: which side, how much sound, what frequency, what share.
    const measured = JSON.stringify(report.audio);
    expect(report.audio?.caller, measured).to.include({ heard: true, expectedHz: CALLEE_TONE_HZ });
    expect(report.audio?.callee, measured).to.include({ heard: true, expectedHz: CALLER_TONE_HZ });
    expect(Math.abs(report.audio!.caller.frequencyHz! - CALLEE_TONE_HZ)).to.be.at.most(CALLEE_TONE_HZ * 0.05);
    expect(Math.abs(report.audio!.callee.frequencyHz! - CALLER_TONE_HZ)).to.be.at.most(CALLER_TONE_HZ * 0.05);
    expect(report.timings.initiateToIncomingMs).to.be.a('number');
    expect(report.timings.acceptToConnectedMs?.caller).to.be.a('number');
    expect(report.timings.initiateToConnectedMs).to.be.a('number');
    expect(report.timings.firstAudioFrameMs?.callee).to.be.a('number');
    expect(report.checks).to.include('callee receives the caller’s hangup');
  });

  it('reject: the caller is told the callee rejected', async () => {
    const report = await run('reject');
    expect(report.checks).to.include('caller receives rejected from the callee');
  });

  it('hangup-while-ringing: the callee is told, and a late accept reaches nobody', async () => {
    const report = await run('hangup-while-ringing');
    expect(report.checks).to.include('an accept after the hang-up reaches nobody');
  });

  it('busy: a third user calling someone who rings or talks is answered busy', async () => {
    const report = await run('busy');
    expect(report.checks.filter((c) => c === 'that rejection says busy')).to.have.length(3);
  });

  it('ring-timeout: an unanswered call ends with a hangup to both sides', async () => {
    const report = await run('ring-timeout');
    expect(report.checks).to.include("caller's hangup says the ring timed out");
    expect(report.checks).to.include("callee's hangup says the ring timed out");
  });

  it('peer-drop: when the callee’s connection drops, the caller receives a hangup', async () => {
    const report = await run('peer-drop');
    expect(report.checks).to.include('that hangup says the peer disconnected');
  });

  it('unavailable: a call to a user with no open connection ends at once, saying why', async () => {
    const report = await run('unavailable');
    expect(report.checks).to.include('that hangup says the callee is unavailable');
    expect(report.lastReason).to.deep.equal({ caller: 'unavailable', callee: null });
  });

  it('reload-while-ringing: the call survives the callee reloading, and the reloaded page rings', async () => {
    const report = await run('reload-while-ringing');
    expect(report.checks).to.include('the reloaded callee is rung again');
    expect(report.lastReason.caller).to.equal('rejected');
  });

  it('reports each side\'s last reason: a ring timeout on both', async () => {
    const report = await run('ring-timeout');
    expect(report.lastReason).to.deep.equal({ caller: 'timeout', callee: 'timeout' });
  });

  it('busy without a third user fails with a reason instead of passing', async () => {
    const [caller, callee] = await Promise.all([createUser(server), createUser(server)]);
    const report = await runScenario('busy', { url: server.url, caller, callee });
    expect(report.ok).to.equal(false);
    expect(report.reason).to.match(/needs a third user/);
  });
});
