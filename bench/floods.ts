// The neighbour's chat latency while one node takes the floods of docs/architecture.md §3a:
// 100 sockets of 5 users each sending 1 MiB of packed frames at once, then a sender resending a
// stored clientMsgId 100 times a second. Prints the neighbour's SEND → RECEIPT figures idle and
// during each flood, as JSON. Short (about 20 s); not part of `make bench`.
//   npx tsx bench/floods.ts                 (MariaDB at BENCH_MYSQL_URL, a database of its own)
//   FLOOD_DB=sqlite npx tsx bench/floods.ts
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRoom, inChildProcess, login, neighbour, type PackedResult } from './lib/floods';
import { createBenchDatabase } from './lib/mariadb';
import { ROOT, startServer } from './lib/server-process';

const PASSWORD = 'flood password';
const PREFIX = 'flood';
const FLOOD_USERS = 5;
const SOCKETS_PER_USER = 20;
const DUPLICATES_PER_SECOND = 100;
const DUPLICATE_SECONDS = 8;

/** FLOOD_ONLY=packed or duplicates runs one flood. */
const ONLY = process.env.FLOOD_ONLY ?? '';

/** The neighbour: a SEND every FLOOD_NEIGHBOUR_EVERY_MS ms (25) from FLOOD_NEIGHBOUR_SOCKETS sockets in turn (8, at most 20). */
const NEIGHBOUR_EVERY_MS = Number(process.env.FLOOD_NEIGHBOUR_EVERY_MS ?? 25);
const NEIGHBOUR_SOCKETS = Number(process.env.FLOOD_NEIGHBOUR_SOCKETS ?? 8);

const METRICS_TOKEN = 'floods';

/** Messages committed and the transactions that committed them, so far (from /metrics). */
async function commits(url: string): Promise<{ messages: number; transactions: number }> {
  const text = await (await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  const metric = (name: string) => Number(text.split('\n').find((l) => l.startsWith(`${name} `))?.split(' ')[1] ?? NaN);
  return { messages: metric('letschat_messages_stored_total'), transactions: metric('letschat_message_batch_seconds_count') };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'letschat-floods-'));
  const mariadb = process.env.FLOOD_DB === 'sqlite' ? null : await createBenchDatabase('floods');
  const env = { DATABASE_URL: mariadb?.url ?? `sqlite:${path.join(dir, 'floods.sqlite3')}`, MAIL_DIR: path.join(dir, 'mail'), METRICS_TOKEN };
  try {
    execFileSync(process.execPath, ['--import', 'tsx', 'server/src/cli/admin.ts', 'seed', '--users', String(FLOOD_USERS + 4), '--password', PASSWORD, '--prefix', PREFIX], {
      cwd: ROOT, env: { ...process.env, ...env }, stdio: 'ignore',
    });
    const server = await startServer({ env, nodeArgs: process.env.FLOOD_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.FLOOD_PROF}`] : [] });
    // The server's PUBLIC_URL (localhost): the origin its CSRF and WebSocket checks expect.
    const url = `http://localhost:${server.port}`;
    try {
      const users = await Promise.all(Array.from({ length: FLOOD_USERS + 4 }, (_, i) => login(url, `${PREFIX}${i + 1}@example.test`, PASSWORD)));
      const [near, nearPeer, dup, dupPeer] = users.slice(FLOOD_USERS);
      const nearRoom = await createRoom(url, near.cookie, { userId: nearPeer.userId, name: `${PREFIX}${FLOOD_USERS + 2}` });
      const dupRoom = await createRoom(url, dup.cookie, { userId: dupPeer.userId, name: `${PREFIX}${FLOOD_USERS + 4}` });
      const probe = await neighbour(url, near.cookie, nearRoom, NEIGHBOUR_EVERY_MS, NEIGHBOUR_SOCKETS);
      probe.mark('idle');
      await sleep(3000);
      const idle = probe.window('idle');

      const report: Record<string, unknown> = { database: mariadb ? 'mariadb' : 'sqlite', idle };
      if (ONLY !== 'duplicates') {
        probe.mark('connecting');
        // The neighbour's window starts once the flooders' 100 connections are made.
        const packed = await inChildProcess<PackedResult>('packed', { url, cookies: users.slice(0, FLOOD_USERS).map((u) => u.cookie), perUser: SOCKETS_PER_USER }, () => probe.mark('packed'));
        await sleep(500);
        report.packed = { ...packed, neighbour: probe.window('packed'), neighbourFromConnecting: probe.window('connecting') };
        // The neighbour's backlog drains before the next flood.
        await sleep(2000);
      }
      if (ONLY !== 'packed') {
        probe.mark('duplicates');
        const before = await commits(url);
        const duplicates = await inChildProcess<object>('duplicates', { url, cookie: dup.cookie, roomId: dupRoom, rate: DUPLICATES_PER_SECOND, until: Date.now() + DUPLICATE_SECONDS * 1000 });
        const after = await commits(url);
        // Messages stored per transaction meanwhile: one a transaction once the writer fell back.
        const stored = { messages: after.messages - before.messages, transactions: after.transactions - before.transactions };
        report.duplicates = { ...duplicates, stored, neighbour: probe.window('duplicates') };
      }
      report.neighbourClosed = probe.closed();
      await probe.stop();
      process.stdout.write(JSON.stringify(report, null, 2) + '\n');
    } finally {
      await server.stop();
    }
  } finally {
    await mariadb?.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`floods: ${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
