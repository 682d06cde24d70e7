// Relay-only calls through a real coturn started by the test with the server's TURN_SECRET:
// the time-limited credentials from GET /api/call/ice-servers must be ones coturn accepts.
import crypto from 'node:crypto';
import { expect } from 'chai';
import type { RunningServer } from '../../../server/src/main';
import { requireCoturn, startCoturn, type Coturn } from '../../../server/test/support/coturn';
import { forEachDatabase } from '../../../server/test/support/databases';
import { startTestServer } from '../../../server/test/support/test-server';
import { createUser } from '../../../server/test/support/users';
import { runScenario } from '../../src/caller/scenarios';

forEachDatabase('relay-only calls through coturn', (db) => {
  const secret = crypto.randomBytes(16).toString('hex');
  let coturn: Coturn | undefined;
  let server: RunningServer | undefined;

  before(async function () {
    requireCoturn(this);
    coturn = await startCoturn(secret);
    server = await startTestServer({ databaseUrl: db.url(), env: { TURN_URLS: coturn.urls.join(','), TURN_SECRET: secret, TURN_TTL: '600' } });
  });

  after(async () => {
    await server?.stop();
    await coturn?.stop();
  });

  it('connects through the TURN relay and carries each side’s tone to the other', async () => {
    const [caller, callee] = await Promise.all([createUser(server!), createUser(server!)]);
    const report = await runScenario('accept', { url: server!.url, caller, callee, relayOnly: true });
    expect(report.ok, `${report.reason}\ncoturn log:\n${coturn!.log().slice(-1500)}`).to.equal(true);
    expect(report.paths?.caller?.local).to.equal('relay');
    expect(report.paths?.callee?.local).to.equal('relay');
    expect(report.audio?.caller.heard).to.equal(true);
    expect(report.audio?.callee.heard).to.equal(true);
  });

  it('carries a video call through the relay: each side sees the other’s picture (the bench’s video set-up)', async () => {
    const [caller, callee] = await Promise.all([createUser(server!), createUser(server!)]);
    const report = await runScenario('video', { url: server!.url, caller, callee, relayOnly: true });
    expect(report.ok, `${report.reason}\ncoturn log:\n${coturn!.log().slice(-1500)}`).to.equal(true);
    expect(report.paths?.caller?.local).to.equal('relay');
    expect(report.video?.caller.seen).to.equal(true);
    expect(report.video?.callee.seen).to.equal(true);
    expect(report.timings.initiateToFirstFrameMs).to.be.a('number');
  });

  it('resumes a call through the relay after a reload (the bench’s resume)', async () => {
    const [caller, callee] = await Promise.all([createUser(server!), createUser(server!)]);
    const report = await runScenario('reload-mid-call', { url: server!.url, caller, callee, relayOnly: true });
    expect(report.ok, `${report.reason}\ncoturn log:\n${coturn!.log().slice(-1500)}`).to.equal(true);
    expect(report.timings.reconnectToSoundMs).to.be.a('number');
  });

  it('network-change: when the relayed path is lost, the caller restarts ICE by itself and the call recovers', async () => {
    const [caller, callee] = await Promise.all([createUser(server!), createUser(server!)]);
    // Pausing coturn cuts every relayed path at once, the sockets stay open: a network change.
    const pathCut = { cut: () => void process.kill(coturn!.pid, 'SIGSTOP'), restore: () => void process.kill(coturn!.pid, 'SIGCONT') };
    const report = await runScenario('network-change', { url: server!.url, caller, callee, relayOnly: true, pathCut, stepTimeoutMs: 30_000 });
    expect(report.ok, `${report.reason}\ncoturn log:\n${coturn!.log().slice(-1500)}`).to.equal(true);
    expect(report.checks).to.include('the caller restarts ICE by itself once its connection stays disconnected');
    expect(report.checks).to.include('the answer carried new ICE credentials');
  });

  it('does not connect when the server’s TURN secret is not coturn’s, so the credentials are really checked', async () => {
    const wrong = await startTestServer({ databaseUrl: db.url(), env: { TURN_URLS: coturn!.urls.join(','), TURN_SECRET: 'not-the-secret' } });
    try {
      const [caller, callee] = await Promise.all([createUser(wrong), createUser(wrong)]);
      const report = await runScenario('accept', { url: wrong.url, caller, callee, relayOnly: true, stepTimeoutMs: 8000 });
      expect(report.ok).to.equal(false);
      expect(report.reason).to.match(/connection (reaches connected|did not fail)/);
    } finally {
      await wrong.stop();
    }
  });
});
