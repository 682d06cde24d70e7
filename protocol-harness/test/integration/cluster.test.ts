// The harness across the nodes of a real cluster: three server processes on MariaDB and a
// private Redis. Every `harness call` scenario with the caller signed in to one node, the callee
// to another and the third user to the third, so every signal and every piece of call state
// crosses nodes; and `harness load` with its clients spread over the three.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { expect } from 'chai';
import type { Knex } from '../../../server/src/db/knex';
import type { RunningServer } from '../../../server/src/main';
import { createMysqlDatabase, databaseOf, NodeProcess, TestRedis } from '../../../server/test/support/cluster';
import { connectStomp } from '../../../server/test/support/stomp-client';
import { createUser, loginClient } from '../../../server/test/support/users';
import { app, queues } from '@common/destinations';
import { runScenario, SCENARIOS, type ScenarioName } from '../../src/caller/scenarios';
import type { LoadReport } from '../../src/load/report';

const ROOT = path.resolve(__dirname, '../../..');

function npmRun(script: string, args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('npm', ['run', '--silent', script, '--', ...args], { cwd: ROOT, env: { ...process.env, ...env }, timeout: 150_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr });
    });
  });
}

// Long enough that every scenario's call is answered first on a loaded machine, and that the
// ring-timeout scenario's ±20 % check leaves a second for delays.
const RING_TIMEOUT_MS = 5000;
/** Long enough for reload-mid-call to come back, short enough for peer-drop to wait it out. */
const RECONNECT_GRACE_MS = 5000;

describe('the harness across three nodes (MariaDB, Redis)', function () {
  let database: { url: string; drop(): Promise<void> } | null = null;
  let redis: TestRedis | null = null;
  let db: Knex | null = null;
  let env: Record<string, string> = {};
  const nodes: NodeProcess[] = [];

  before(async function () {
    database = await createMysqlDatabase(this);
    redis = await TestRedis.start();
    env = { DATABASE_URL: database.url, REDIS_URL: redis.url, CALL_RING_TIMEOUT_MS: String(RING_TIMEOUT_MS), CALL_RECONNECT_GRACE_MS: String(RECONNECT_GRACE_MS), MAX_CONNECTIONS_PER_ADDRESS: '10000' };
    nodes.push(await NodeProcess.start(env));
    nodes.push(...(await Promise.all([NodeProcess.start(env), NodeProcess.start(env)])));
    db = databaseOf(database.url);
  });
  after(async () => {
    await Promise.all(nodes.map((n) => n.stop()));
    await db?.destroy();
    await redis?.stop();
    await database?.drop();
  });

  const user = (name: string) => createUser({ db } as RunningServer, { name });

  for (const scenario of SCENARIOS) {
    it(`${scenario}: caller on node 1, callee on node 2, third on node 3`, async () => {
      const [caller, callee, third] = await Promise.all([user('Caller'), user('Callee'), user('Third')]);
      const report = await runScenario(scenario as ScenarioName, {
        url: nodes[0].url,
        urls: nodes.map((n) => n.url),
        caller,
        callee,
        third,
        ringTimeoutSeconds: RING_TIMEOUT_MS / 1000,
        reconnectGraceSeconds: RECONNECT_GRACE_MS / 1000,
      });
      expect(report.ok, `${report.reason}\nafter: ${report.checks.join(' / ')}`).to.equal(true);
      // Said, never hidden: a socket the harness opened again after it dropped before CONNECTED.
      for (const why of report.reconnects) console.warn(`  (reconnected before CONNECTED: ${why})`);
    });
  }

  it('a ring timeout fires once, on another node, when the caller’s node died while ringing', async () => {
    const doomed = await NodeProcess.start(env);
    try {
      const [caller, callee] = await Promise.all([user('Caller'), user('Callee')]);
      const [callerClient, calleeClient] = await Promise.all([loginClient(doomed as never, caller), loginClient(nodes[1] as never, callee)]);
      const calleeStomp = await connectStomp(nodes[1], calleeClient.cookieHeader());
      const incoming = await calleeStomp.subscribe(queues.call('incoming', callee.userId));
      const hangups = await calleeStomp.subscribe(queues.call('hangup', callee.userId));
      const callerStomp = await connectStomp(doomed, callerClient.cookieHeader());
      await callerStomp.send(app.callInitiate, { targetUserId: callee.userId, userId: caller.userId });
      expect((await incoming.next()).json()).to.include({ userId: caller.userId });
      await doomed.stop('SIGKILL');
      expect((await hangups.next(RING_TIMEOUT_MS + 5000)).json()).to.include({ userId: caller.userId, reason: 'timeout' });
      // A second firing would come from another node's own timer: no event marks its absence.
      await hangups.nothingWithin(1000);
      await calleeStomp.disconnect();
    } finally {
      await doomed.stop('SIGKILL');
    }
  });

  it('harness load with a --url per node spreads its clients over them and loses, duplicates and reorders nothing', async () => {
    const clients = 30;
    const seeded = await npmRun('admin', ['seed', '--users', String(clients), '--password', 'load-pass', '--prefix', 'spread'], { DATABASE_URL: database!.url });
    expect(seeded.code, seeded.stderr).to.equal(0);
    // The drain ends as soon as every receipt and delivery is in; its length only bounds how slow a
    // loaded machine may be (5 s was too short at a load average of 20: deliveries took up to 6.7 s).
    const result = await npmRun('harness', [
      'load', ...nodes.flatMap((n) => ['--url', n.url]), '--users-prefix', 'spread', '--password', 'load-pass',
      '--clients', String(clients), '--rooms', '5', '--rate', '100', '--duration', '3', '--drain', '60', '--json', '--no-progress',
    ]);
    // A refused or dropped connection is explained in the nodes' logs (errors and warnings): show them with it.
    const nodeLogs = nodes.map((n) => `${n.url}:\n${n.output.join('').slice(-2000)}`).join('\n');
    expect(result.code, `${result.stderr}${result.stdout}\n${nodeLogs}`).to.equal(0);
    const report = JSON.parse(result.stdout.trim()) as LoadReport;
    for (const why of report.reconnects.samples) console.warn(`  (reconnected before CONNECTED: ${why})`);
    expect(report, nodeLogs).to.include({ ok: true, clients, subscribed: clients, connectionErrors: 0 });
    expect(report.counts.acknowledged).to.equal(report.counts.sent);
    expect(report.counts.delivered).to.equal(report.counts.expectedDeliveries);
    expect(report.counts).to.include({ lost: 0, duplicated: 0, outOfOrder: 0 });
  });
});
