// `harness load --reconnect` through a Redis outage, and through a node's death: node processes on
// MariaDB and a private Redis, the clients spread over them. Redis is killed while messages flow and started again;
// messages stored meanwhile on one node never cross to the other's clients over the bus, so
// they reach them only because each node tells its clients to catch up when its bus is back
// (docs/protocol.md "Catching up after a bus outage") and the harness does, as the browser does.
// A node killed mid-run: its sessions reopen on the other node (--url per node, no load balancer)
// with the browser's backoff and catch up from history.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { expect } from 'chai';
import type { Knex } from '../../../server/src/db/knex';
import { createMysqlDatabase, databaseOf, NodeProcess, TestRedis } from '../../../server/test/support/cluster';
import { waitFor } from '../../../server/test/support/wait';
import type { LoadReport } from '../../src/load/report';

const ROOT = path.resolve(__dirname, '../../..');
const RATE = 20;
const DURATION = 10;

function npmRun(script: string, args: string[], env: Record<string, string> = {}): { done: Promise<{ code: number; stdout: string; stderr: string }> } {
  const child = spawn('npm', ['run', '--silent', script, '--', ...args], { cwd: ROOT, env: { ...process.env, ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return { done: new Promise((resolve) => child.on('exit', (code) => resolve({ code: code ?? 1, stdout, stderr }))) };
}

describe('harness load --reconnect through a Redis outage and a node death (MariaDB, Redis)', function () {
  let database: { url: string; drop(): Promise<void> } | null = null;
  let redis: TestRedis | null = null;
  let db: Knex | null = null;
  const nodes: NodeProcess[] = [];

  before(async function () {
    database = await createMysqlDatabase(this);
    redis = await TestRedis.start();
    const env = { DATABASE_URL: database.url, REDIS_URL: redis.url, MAX_CONNECTIONS_PER_ADDRESS: '10000' };
    nodes.push(await NodeProcess.start(env));
    nodes.push(await NodeProcess.start(env));
    db = databaseOf(database.url);
  });
  after(async () => {
    await Promise.all(nodes.map((n) => n.stop()));
    await db?.destroy();
    await redis?.stop();
    await database?.drop();
  });

  const stored = async () => Number((await db!('messages').count({ n: '*' }))[0].n);
  const busDown = async () => (await Promise.all(nodes.map(async (n) => ((await (await fetch(`${n.url}/healthz`)).json()) as { bus?: string }).bus))).every((b) => b === 'down');

  it('loses nothing: members on the other node catch up on what was stored while the bus was down', async () => {
    const clients = 12;
    const seeded = await npmRun('admin', ['seed', '--users', String(clients), '--password', 'load-pass', '--prefix', 'resync'], { DATABASE_URL: database!.url }).done;
    expect(seeded.code, seeded.stderr).to.equal(0);
    const run = npmRun('harness', [
      'load', ...nodes.flatMap((n) => ['--url', n.url]), '--users-prefix', 'resync', '--password', 'load-pass', '--reconnect',
      '--clients', String(clients), '--rooms', '3', '--rate', String(RATE), '--duration', String(DURATION), '--drain', '60', '--json', '--no-progress',
    ]);
    const before = await stored();
    // The outage from early in the run until its last message is stored: nothing sent afterwards
    // shows a gap, so only the resync can bring the tail to the other node's members.
    await waitFor(async () => (await stored()) >= before + 40, { what: 'messages flowing', timeoutMs: 60_000, everyMs: 100 });
    await redis!.stop();
    await waitFor(busDown, { what: 'both nodes to see the bus down', everyMs: 100 });
    await waitFor(async () => (await stored()) >= before + RATE * DURATION, { what: 'every message of the run stored', timeoutMs: 90_000, everyMs: 100 });
    await redis!.start();

    const result = await run.done;
    const nodeLogs = nodes.map((n) => `${n.url}:\n${n.output.join('').slice(-2000)}`).join('\n');
    expect(result.code, `${result.stderr}${result.stdout}\n${nodeLogs}`).to.equal(0);
    const report = JSON.parse(result.stdout.trim()) as LoadReport;
    expect(report.counts).to.include({ lost: 0, duplicated: 0, outOfOrder: 0 });
    expect(report.counts.delivered).to.equal(report.counts.expectedDeliveries);
  });

  it('a node killed mid-run: its sessions fail over to the other node and catch up', async () => {
    const clients = 12;
    const seeded = await npmRun('admin', ['seed', '--users', String(clients), '--password', 'load-pass', '--prefix', 'failover'], { DATABASE_URL: database!.url }).done;
    expect(seeded.code, seeded.stderr).to.equal(0);
    const doomed = await NodeProcess.start({ DATABASE_URL: database!.url, REDIS_URL: redis!.url, MAX_CONNECTIONS_PER_ADDRESS: '10000' });
    const run = npmRun('harness', [
      'load', '--url', nodes[0].url, '--url', doomed.url, '--users-prefix', 'failover', '--password', 'load-pass', '--reconnect',
      '--clients', String(clients), '--rooms', '3', '--rate', String(RATE), '--duration', String(DURATION), '--drain', '60', '--json', '--no-progress',
    ]);
    try {
      const before = await stored();
      await waitFor(async () => (await stored()) >= before + 40, { what: 'messages flowing', timeoutMs: 60_000, everyMs: 100 });
      await doomed.stop('SIGKILL');
      const result = await run.done;
      const report = JSON.parse(result.stdout.trim()) as LoadReport;
      const detail = JSON.stringify({ code: result.code, counts: report.counts, loss: report.loss, errors: report.errorSamples });
      expect(report.counts, detail).to.include({ duplicated: 0, outOfOrder: 0, rejected: 0 });
      // Nothing acknowledged is missing: what may miss is a SEND the dead node never answered,
      // each at most once per member of its room.
      expect(report.counts.lost, detail).to.be.at.most((report.loss?.unacknowledgedMissing ?? 0) * (clients / 3));
      expect(report.connectionErrors, detail).to.equal(0);
    } finally {
      await doomed.stop('SIGKILL');
    }
  });
});
