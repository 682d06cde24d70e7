// `harness load` run as an operator runs it, against a real server on a fresh database with
// users made by the admin CLI's seed; the report is checked against the database too.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { expect } from 'chai';
import type { LoadReport } from '../../src/load/report';
import type { RunningServer } from '../../../server/src/main';
import { forEachDatabase } from '../../../server/test/support/databases';
import { startTestServer } from '../../../server/test/support/test-server';

const ROOT = path.resolve(__dirname, '../../..');

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

function npmRun(script: string, args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile('npm', ['run', '--silent', script, '--', ...args], { cwd: ROOT, env: { ...process.env, ...env }, timeout: 150_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr });
    });
  });
}

function report(result: CliResult): LoadReport {
  const lines = result.stdout.trim().split('\n');
  expect(lines, `stdout: ${result.stdout}\nstderr: ${result.stderr}`).to.have.length(1);
  const parsed = JSON.parse(lines[0]) as LoadReport;
  for (const why of parsed.reconnects.samples) console.warn(`  (reconnected before CONNECTED: ${why})`);
  return parsed;
}

forEachDatabase('harness load in chat mode', (db) => {
  let server: RunningServer;
  const CLIENTS = 12;
  const ROOMS = 3;
  before(async () => {
    const seeded = await npmRun('admin', ['seed', '--users', String(CLIENTS), '--password', 'load-pass', '--prefix', 'harness'], { DATABASE_URL: db.url() });
    expect(seeded.code, seeded.stderr).to.equal(0);
    server = await startTestServer({ databaseUrl: db.url() });
  });
  after(async () => {
    await server?.stop();
  });

  it('logs seeded users in, fills rooms, and accounts for every message with nothing lost', async () => {
    const result = await npmRun('harness', [
      'load', '--url', server.url, '--users-prefix', 'harness', '--password', 'load-pass',
      '--clients', String(CLIENTS), '--rooms', String(ROOMS), '--rate', '40', '--duration', '2', '--json',
    ]);
    const r = report(result);
    expect(result.code, result.stderr).to.equal(0);
    expect(r.ok).to.equal(true);
    expect(r).to.include({ mode: 'chat', clients: CLIENTS, subscribed: CLIENTS, groups: ROOMS, connectionErrors: 0 });
    const c = r.counts;
    expect(c.sent).to.equal(80); // 40 msg/s × 2 s
    expect(c.acknowledged).to.equal(c.sent);
    // The sender receives its own message on the room topic too: rooms of 4 → 4 deliveries each.
    expect(c.expectedDeliveries).to.equal(c.sent * (CLIENTS / ROOMS));
    expect(c.delivered).to.equal(c.expectedDeliveries);
    expect(c).to.include({ lost: 0, duplicated: 0, outOfOrder: 0, unexpected: 0, rejected: 0 });
    expect(r.latency.count).to.equal(c.delivered);
    expect(r.latency.p50Ms).to.be.at.most(r.latency.p90Ms);
    expect(r.latency.p90Ms).to.be.at.most(r.latency.p99Ms);
    expect(r.latency.p99Ms).to.be.at.most(r.latency.maxMs);

    // What the server stored agrees with what the harness says it sent.
    const [{ n }] = await server.db('messages').whereNotNull('client_msg_id').count({ n: '*' });
    expect(Number(n)).to.equal(c.sent);
  });

  it('prints a table with the same counts when --json is not given', async () => {
    const result = await npmRun('harness', [
      'load', '--url', server.url, '--users-prefix', 'harness', '--password', 'load-pass',
      '--clients', '4', '--rooms', '2', '--rate', '10', '--duration', '1', '--no-progress',
    ]);
    expect(result.code, result.stderr).to.equal(0);
    expect(result.stdout).to.match(/sent\s+10\n/);
    expect(result.stdout).to.match(/expected deliveries\s+20\n/);
    expect(result.stdout).to.match(/delivered\s+20\n/);
    expect(result.stdout).to.match(/lost\s+0\n/);
    expect(result.stdout).to.match(/result: OK/);
  });

  it('fails with a message, not a report, when the users cannot log in', async () => {
    const result = await npmRun('harness', [
      'load', '--url', server.url, '--users-prefix', 'harness', '--password', 'wrong-pass',
      '--clients', '2', '--rooms', '1', '--rate', '1', '--duration', '1', '--json',
    ]);
    expect(result.code).to.equal(2);
    expect(result.stdout).to.equal('');
    expect(result.stderr).to.match(/login harness[12]@example\.test: HTTP 401/);
  });

  it('exits 2 saying how many seeded users there are when more clients are asked', async () => {
    const result = await npmRun('harness', [
      'load', '--url', server.url, '--users-prefix', 'harness', '--password', 'load-pass',
      '--clients', String(CLIENTS + 2), '--rooms', '1', '--rate', '1', '--duration', '1', '--json',
    ]);
    expect(result.code).to.equal(2);
    expect(result.stdout).to.equal('');
    expect(result.stderr).to.match(new RegExp(`only ${CLIENTS} users with prefix harness; ${CLIENTS + 2} asked \\(login harness${CLIENTS + 1}@example\\.test: HTTP 401`));
  });

  it('with --workers 3, a process per room, accounts for every message exactly as one process does', async () => {
    const [{ n: before }] = await server.db('messages').whereNotNull('client_msg_id').count({ n: '*' });
    const result = await npmRun('harness', [
      'load', '--url', server.url, '--users-prefix', 'harness', '--password', 'load-pass',
      '--clients', String(CLIENTS), '--rooms', String(ROOMS), '--rate', '30', '--duration', '2', '--workers', '3', '--json', '--no-progress',
    ]);
    const r = report(result);
    expect(result.code, result.stderr).to.equal(0);
    expect(r).to.include({ mode: 'chat', clients: CLIENTS, subscribed: CLIENTS, groups: ROOMS, connectionErrors: 0, ok: true });
    expect(r.counts).to.include({ sent: 60, acknowledged: 60, expectedDeliveries: 60 * (CLIENTS / ROOMS), delivered: 60 * (CLIENTS / ROOMS), lost: 0, duplicated: 0, outOfOrder: 0, unexpected: 0 });
    expect(r.latency.count).to.equal(r.counts.delivered);
    const [{ n: after }] = await server.db('messages').whereNotNull('client_msg_id').count({ n: '*' });
    expect(Number(after) - Number(before)).to.equal(60);
  });
});

