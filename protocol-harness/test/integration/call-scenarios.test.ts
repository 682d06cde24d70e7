// Every `harness call` scenario against a real server on port 0, with users made by the
// accounts code. The ring-timeout and peer-drop scenarios run on a server whose ring timeout and
// reconnect grace are shortened so they do not take 60 s or 30 s; every other scenario needs the
// call to keep ringing (a reload signs in again) or to survive a reload through its steps, so it
// runs on a server with a ring timeout and a grace no loaded machine reaches.
import { expect } from 'chai';
import type { RunningServer } from '../../../server/src/main';
import { forEachDatabase } from '../../../server/test/support/databases';
import { startTestServer } from '../../../server/test/support/test-server';
import { createUser } from '../../../server/test/support/users';
import { CALLEE_TONE_HZ, CALLER_TONE_HZ, runScenario, type ScenarioName, type ScenarioOptions } from '../../src/caller/scenarios';

// Their checks allow the server's timer ±20 %: 4 s leaves 800 ms for a loaded machine's delays.
const SHORT_RING_TIMEOUT_MS = 4000;
const RING_TIMEOUT_MS = 60_000;
const SHORT_GRACE_MS = 4000;
const GRACE_MS = 60_000;

forEachDatabase('harness call scenarios', (db) => {
  let server: RunningServer;
  /** The same database, ringing for 4 s only and keeping a dropped party's call 4 s: ring-timeout, peer-drop. */
  let shortRing: RunningServer;

  before(async () => {
    server = await startTestServer({ databaseUrl: db.url(), env: { CALL_RING_TIMEOUT_MS: String(RING_TIMEOUT_MS), CALL_RECONNECT_GRACE_MS: String(GRACE_MS) } });
    shortRing = await startTestServer({
      databaseUrl: db.url(),
      env: { CALL_RING_TIMEOUT_MS: String(SHORT_RING_TIMEOUT_MS), CALL_RECONNECT_GRACE_MS: String(SHORT_GRACE_MS) },
    });
  });

  after(async () => {
    await shortRing?.stop();
    await server?.stop();
  });

  async function attempt(scenario: ScenarioName, extra: Partial<ScenarioOptions> = {}) {
    const on = scenario === 'ring-timeout' || scenario === 'peer-drop' ? shortRing : server;
    const [caller, callee, third] = await Promise.all([
      createUser(on, { name: 'Caller' }),
      createUser(on, { name: 'Callee' }),
      createUser(on, { name: 'Third' }),
    ]);
    return runScenario(scenario, {
      url: on.url,
      caller,
      callee,
      third,
      ringTimeoutSeconds: (on === shortRing ? SHORT_RING_TIMEOUT_MS : RING_TIMEOUT_MS) / 1000,
      reconnectGraceSeconds: (on === shortRing ? SHORT_GRACE_MS : GRACE_MS) / 1000,
      ...extra,
    });
  }

  async function run(scenario: ScenarioName, extra: Partial<ScenarioOptions> = {}) {
    const report = await attempt(scenario, extra);
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

  it('peer-drop: when the callee’s connection drops, the caller is told, then receives connection-lost after the grace', async () => {
    const report = await run('peer-drop');
    expect(report.checks).to.include('caller receives peer-reconnecting when the callee’s connection drops');
    expect(report.checks).to.include('that hangup says the connection was lost');
    expect(report.lastReason.caller).to.equal('connection-lost');
    expect(report.timings.dropToConnectionLostMs).to.be.at.least(SHORT_GRACE_MS * 0.8);
  });

  it('video: both sides see the other’s moving picture and hear the other’s tone, with the set-up timed', async () => {
    const report = await run('video');
    const measured = JSON.stringify(report.video);
    for (const side of ['caller', 'callee'] as const) {
      const video = report.video?.[side];
      expect(video, measured).to.include({ seen: true, width: 320, height: 240 });
      expect(video!.framesReceived, measured).to.be.at.least(10);
      expect(video!.fps, measured).to.be.above(0);
      expect(video!.framesForeign, measured).to.equal(0);
      expect(report.audio?.[side].heard).to.equal(true);
    }
    expect(report.checks).to.include('incoming says it is a video call');
    expect(report.checks).to.include('accepted says it is a video call');
    expect(report.timings.initiateToFirstFrameMs).to.be.a('number');
    expect(report.timings.firstVideoFrameMs?.callee).to.be.a('number');
  });

  it('accept with --media video: an accepted call carries both cameras too', async () => {
    const report = await run('accept', { media: 'video' });
    expect(report.video?.caller.seen).to.equal(true);
    expect(report.video?.callee.seen).to.equal(true);
  });

  it('upgrade-to-video: a voice call renegotiates to video in both directions on the same connections', async () => {
    const report = await run('upgrade-to-video');
    expect(report.checks).to.include('callee receives the caller’s media-state');
    expect(report.checks).to.include('caller receives the callee’s offer');
    expect(report.checks).to.include('the upgrade kept each side’s connection');
    expect(report.video?.caller.seen).to.equal(true);
    expect(report.video?.callee.seen).to.equal(true);
    expect(report.timings.renegotiationMs).to.be.a('number');
  });

  it('reload-mid-call: the callee reloads, both are told to resume, and the tones are heard again', async () => {
    const report = await run('reload-mid-call');
    expect(report.checks).to.include('each resume gives that side its role in the call');
    expect(report.checks).to.include('the call never ended');
    expect(report.audio?.caller.heard).to.equal(true);
    expect(report.audio?.callee.heard).to.equal(true);
    expect(report.timings.reconnectToSoundMs).to.be.a('number');
    expect(report.lastReason.callee).to.equal(null);
  });

  it('reload-mid-call: the caller of a video call reloads, offers again from its resume, and both see video again', async () => {
    const report = await run('reload-mid-call', { reloader: 'caller', media: 'video' });
    expect(report.checks).to.include('each resume says the call is video');
    expect(report.video?.caller.seen).to.equal(true);
    expect(report.video?.callee.seen).to.equal(true);
  });

  it('network-change: an ICE restart with the socket open keeps the call and the tones', async () => {
    const report = await run('network-change');
    expect(report.checks).to.include('the offer carried new ICE credentials');
    expect(report.checks).to.include('the call kept each side’s connection');
    expect(report.audio?.caller.heard).to.equal(true);
  });

  it('ring-timeout fails when the server’s ring timeout is outside ±20 % of --ring-timeout', async () => {
    // The server rings for 4 s: 6 s expected is far too long, 2 s too short.
    for (const ringTimeoutSeconds of [6, 2]) {
      const report = await attempt('ring-timeout', { ringTimeoutSeconds });
      expect(report.ok, `--ring-timeout ${ringTimeoutSeconds}: ${report.checks.join(' / ')}`).to.equal(false);
      expect(report.reason).to.match(/came after the ring timeout of .* s \(±20 %\): measured \d+–\d+ ms, expected/);
    }
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
