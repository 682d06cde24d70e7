// Benchmark part 4: GET /api/chat-room/chat-history p99 with 1 000 000 messages in MariaDB.
// A fresh database is migrated by the admin CLI, users are seeded, then rooms, members and
// messages go in directly with multi-row INSERTs (the chat feature's tables, see
// migrations/*_create_chat_tables.ts). The server runs pinned to core 0; this client, pinned to
// core 1, asks for history one request at a time, as members opening rooms and scrolling up.
//   node --import tsx bench/history.ts [--messages 1000000] [--rooms 100] [--requests 3000]
//     [--database mysql://root@127.0.0.1:3306/NAME]  reuse a database a run left loaded (--keep),
//     [--keep]                                        instead of loading a fresh one (90 s or more)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import knexFactory from 'knex';
import { api } from '../common/api';
import { LIMITS } from '../common/rules';
import { login, type LoggedInUser } from '../protocol-harness/src/load/chat-rest';
import { LatencyHistogram } from '../protocol-harness/src/load/latency';
import { hottestFunctions } from './lib/cpu-profile';
import { processCpuMicros } from './lib/cpu-time';
import { createBenchDatabase } from './lib/mariadb';
import { emitResult, upperGoal, type PartResult } from './lib/result';
import { ROOT, startServer } from './lib/server-process';

const { values: args } = parseArgs({
  options: {
    messages: { type: 'string', default: '1000000' },
    rooms: { type: 'string', default: '100' },
    requests: { type: 'string', default: '3000' },
    database: { type: 'string' },
    keep: { type: 'boolean', default: false },
  },
});
const MESSAGES = Number(args.messages);
const ROOMS = Number(args.rooms);
const REQUESTS = Number(args.requests);
const MEMBERS_PER_ROOM = 10;
const USERS = 100;
const BATCH = 5000;
const GOAL_P99_MS = 5;
const PASSWORD = 'bench-history-pass';
const PREFIX = 'benchhist';

const PROFILE_DIR = path.join(ROOT, 'var', 'bench-profiles', 'history');

const log = (line: string) => process.stderr.write(`[history] ${line}\n`);

function pinSelf(cpus: string): boolean {
  try {
    execFileSync('taskset', ['-cp', cpus, String(process.pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Rooms of 10 members each (user ids taken round robin), and 1 000 000 messages spread evenly. */
async function load(url: string, userIds: number[]): Promise<{ members: number[][]; seconds: number }> {
  const db = knexFactory({ client: 'mysql2', connection: { uri: url } as never, pool: { min: 1, max: 1 } });
  const started = performance.now();
  try {
    const now = Date.now();
    const members: number[][] = [];
    await db.transaction(async (trx) => {
      const roomIds: number[] = [];
      for (let r = 0; r < ROOMS; r++) {
        const [id] = await trx('rooms').insert({ name: `bench room ${r + 1}`, created_at_ms: now - 86_400_000 });
        roomIds.push(id);
        members.push(Array.from({ length: MEMBERS_PER_ROOM }, (_x, k) => userIds[(r * MEMBERS_PER_ROOM + k) % userIds.length]));
      }
      await trx('room_members').insert(
        roomIds.flatMap((roomId, r) => members[r].map((userId) => ({ room_id: roomId, user_id: userId, joined_at_ms: now - 86_400_000 }))),
      );
      members.forEach((m, r) => m.unshift(roomIds[r])); // [roomId, ...memberIds]
    });
    for (let first = 0; first < MESSAGES; first += BATCH) {
      const rows = [];
      for (let i = first; i < Math.min(first + BATCH, MESSAGES); i++) {
        const [roomId, ...users] = members[i % ROOMS];
        rows.push({
          room_id: roomId,
          // Messages go round robin over the rooms: the i-th is its room's (i / ROOMS + 1)-th.
          seq: Math.floor(i / ROOMS) + 1,
          sender_id: users[(i / ROOMS) % MEMBERS_PER_ROOM | 0],
          content: `history message ${i}: the quick brown fox jumps over the lazy dog`,
          created_at_ms: now - (MESSAGES - i) * 50,
        });
      }
      await db('messages').insert(rows);
      if ((first / BATCH) % 40 === 0) log(`inserted ${first + rows.length} messages`);
    }
    await db.raw('update rooms set last_seq = (select coalesce(max(m.seq), 0) from messages m where m.room_id = rooms.id)');
    return { members, seconds: (performance.now() - started) / 1000 };
  } finally {
    await db.destroy();
  }
}

/** The rooms of a database loaded by an earlier run (--database), as load() answers them. */
async function loaded(url: string): Promise<number[][] | null> {
  const db = knexFactory({ client: 'mysql2', connection: { uri: url } as never, pool: { min: 0, max: 1 } });
  try {
    const [{ n }] = (await db('messages').count({ n: '*' })) as Array<{ n: number }>;
    if (Number(n) !== MESSAGES) return null;
    const rows: { room_id: number; user_id: number }[] = await db('room_members').select('room_id', 'user_id').orderBy(['room_id', 'joined_at_ms', 'user_id']);
    const byRoom = new Map<number, number[]>();
    for (const r of rows) byRoom.set(r.room_id, [...(byRoom.get(r.room_id) ?? []), r.user_id]);
    return [...byRoom].map(([roomId, users]) => [roomId, ...users]);
  } finally {
    await db.destroy();
  }
}

/** Which page to ask for in a room: ?page=n, or the keyset form ?beforeId=id the route also takes. */
type PageQuery = (roomId: number) => string;

async function messageIdRanges(url: string): Promise<Map<number, [number, number]>> {
  const db = knexFactory({ client: 'mysql2', connection: { uri: url } as never, pool: { min: 0, max: 1 } });
  try {
    const rows: { room_id: number; lo: number; hi: number }[] = await db('messages').select('room_id').min({ lo: 'id' }).max({ hi: 'id' }).groupBy('room_id');
    return new Map(rows.map((r) => [r.room_id, [Number(r.lo), Number(r.hi)]]));
  } finally {
    await db.destroy();
  }
}

async function measure(base: string, who: Map<number, LoggedInUser>, rooms: number[], pageFor: PageQuery, count: number, h = new LatencyHistogram()): Promise<LatencyHistogram> {
  for (let i = 0; i < count; i++) {
    const roomId = rooms[Math.floor(Math.random() * rooms.length)];
    const path = `${api.chatHistory}?chatRoomId=${roomId}&${pageFor(roomId)}`;
    const t0 = performance.now();
    const res = await fetch(base + path, { headers: { cookie: who.get(roomId)!.cookie } });
    await res.arrayBuffer();
    h.record((performance.now() - t0) * 1000);
    if (res.status !== 200) throw new Error(`${path}: HTTP ${res.status}`);
  }
  return h;
}

/**
 * The statements one history request makes, timed alone against the same database (the same
 * SQL the repositories build), so a missed goal can be traced to the query that costs it.
 */
async function queryBreakdown(url: string, members: number[][], pagesPerRoom: number, count = 300): Promise<string> {
  const db = knexFactory({ client: 'mysql2', connection: { uri: url } as never, pool: { min: 1, max: 1 } });
  const pick = () => members[Math.floor(Math.random() * members.length)];
  // The page as the repository asks for it: the seqs from the (room_id, seq) index, then only
  // those rows joined to their names.
  const page = (roomId: number, seqCondition: string, bindings: number[]) =>
    db.raw(
      `SELECT m.id, m.room_id, m.seq, m.sender_id, u.name AS sender_name, r.name AS room_name, m.content, m.created_at_ms, m.client_msg_id,
              m.left_user_id, m.added_user_email, m.system_event
         FROM messages m JOIN rooms r ON r.id = m.room_id LEFT JOIN users u ON u.id = m.sender_id
         JOIN (SELECT seq FROM messages WHERE room_id = ? AND ${seqCondition} ORDER BY seq DESC LIMIT 20) p ON p.seq = m.seq
        WHERE m.room_id = ? ORDER BY m.seq`,
      [roomId, ...bindings, roomId],
    );
  const lastSeq = '(SELECT CAST(last_seq AS SIGNED) FROM rooms WHERE id = ?)';
  const perRoom = pagesPerRoom * LIMITS.historyPageSize;
  const statements: [string, () => Promise<unknown>][] = [
    ['session lookup (once per 5 s per cookie now)', () => db.raw('SELECT id, user_id, last_seen_at_ms FROM sessions WHERE token_hash = ?', ['0'.repeat(64)])],
    [
      'members with read positions',
      () => db.raw('SELECT u.id, u.name, u.email, rm.last_read_seq, rm.last_read_at_ms FROM room_members rm JOIN users u ON u.id = rm.user_id WHERE rm.room_id = ? ORDER BY rm.joined_at_ms, u.id', [pick()[0]]),
    ],
    ['room name and counter', () => db.raw('SELECT name, last_seq, renamed FROM rooms WHERE id = ?', [pick()[0]])],
    ['newest page (seq range, join)', () => { const r = pick()[0]; return page(r, `seq <= ${lastSeq} - 0`, [r]); }],
    ['random page (seq range, join)', () => { const r = pick()[0]; return page(r, `seq <= ${lastSeq} - ?`, [r, Math.floor(Math.random() * pagesPerRoom) * LIMITS.historyPageSize]); }],
    ['before a random seq (join)', () => page(pick()[0], 'seq < ?', [1 + Math.floor(Math.random() * perRoom)])],
  ];
  const parts: string[] = [];
  try {
    for (const [name, run] of statements) {
      const h = new LatencyHistogram();
      for (let i = 0; i < count; i++) {
        const t0 = performance.now();
        await run();
        h.record((performance.now() - t0) * 1000);
      }
      const q = h.summary();
      parts.push(`${name} p50 ${q.p50Ms.toFixed(2)} ms, p99 ${q.p99Ms.toFixed(2)} ms`);
    }
  } finally {
    await db.destroy();
  }
  return `The statements of one request, timed alone from this process (${count} each; the members, room and page statements run at once): ${parts.join('; ')}.`;
}

async function main(): Promise<void> {
  const pinned = pinSelf('1');
  const database = args.database
    ? { name: args.database, url: args.database, drop: () => Promise.resolve() }
    : await createBenchDatabase('history');
  const env = { ...process.env, DATABASE_URL: database.url };
  let result: PartResult | undefined;
  try {
    const reused = args.database ? await loaded(database.url) : null;
    if (!reused) {
      execFileSync('npm', ['run', '--silent', 'admin', '--', 'migrate'], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'inherit'] });
      execFileSync('npm', ['run', '--silent', 'admin', '--', 'seed', '--users', String(USERS), '--password', PASSWORD, '--prefix', PREFIX], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'inherit'] });
    }
    const admin = knexFactory({ client: 'mysql2', connection: { uri: database.url } as never, pool: { min: 0, max: 1 } });
    const userIds: { id: number; email: string }[] = await admin('users').orderBy('id').select('id', 'email');
    await admin.destroy();
    const { members, seconds } = reused ? { members: reused, seconds: 0 } : await load(database.url, userIds.map((u) => u.id));
    log(reused ? `reusing the ${MESSAGES} messages of ${database.url}` : `loaded ${MESSAGES} messages in ${seconds.toFixed(1)} s`);

    fs.rmSync(PROFILE_DIR, { recursive: true, force: true });
    const server = await startServer({
      env: { DATABASE_URL: database.url },
      cpus: pinned ? '0' : undefined,
      nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`],
    });
    let serverCpuShare = 0;
    try {
      const emailOf = new Map(userIds.map((u) => [u.id, u.email]));
      const sessions = new Map<number, LoggedInUser>();
      const who = new Map<number, LoggedInUser>();
      for (const [roomId, firstMember] of members) {
        let user = sessions.get(firstMember);
        if (!user) sessions.set(firstMember, (user = await login(server.url, { email: emailOf.get(firstMember)!, password: PASSWORD })));
        who.set(roomId, user);
      }
      const rooms = members.map((m) => m[0]);
      const pagesPerRoom = Math.ceil(MESSAGES / ROOMS / LIMITS.historyPageSize);
      const newestPage: PageQuery = () => 'page=0';
      const randomPage: PageQuery = () => `page=${Math.floor(Math.random() * pagesPerRoom)}`;
      // Message ids of room r run from its first id in steps of ROOMS (inserted round robin).
      const idRange = await messageIdRanges(database.url);
      const randomBefore: PageQuery = (roomId) => {
        const [lo, hi] = idRange.get(roomId)!;
        return `beforeId=${lo + Math.floor(Math.random() * (hi - lo + 1))}`;
      };
      const perRoom = MESSAGES / ROOMS;
      const randomBeforeSeq: PageQuery = () => `beforeSeq=${1 + Math.floor(Math.random() * perRoom)}`;
      // Catching up from anywhere: up to 100 messages (fewer near the end).
      const randomAfterSeq: PageQuery = () => `afterSeq=${Math.floor(Math.random() * perRoom)}`;
      await measure(server.url, who, rooms, newestPage, Math.min(300, REQUESTS)); // warm-up: JIT, pools, buffer pool
      // The baseline, in the same run: the same server without the session cache
      // (SESSION_CACHE_TTL_MS=0), asked for the newest page in blocks alternating with ours.
      const uncached = await startServer({ env: { DATABASE_URL: database.url, SESSION_CACHE_TTL_MS: '0' }, cpus: pinned ? '0' : undefined });
      const withCache = new LatencyHistogram();
      const withoutCache = new LatencyHistogram();
      try {
        await measure(uncached.url, who, rooms, newestPage, Math.min(300, REQUESTS));
        for (let block = 0; block < 10; block++) {
          await measure(server.url, who, rooms, newestPage, Math.ceil(REQUESTS / 30), withCache);
          await measure(uncached.url, who, rooms, newestPage, Math.ceil(REQUESTS / 30), withoutCache);
        }
      } finally {
        await uncached.stop();
      }
      const cacheOn = withCache.summary();
      const cacheOff = withoutCache.summary();
      const t0 = performance.now();
      const cpu0 = processCpuMicros(server.pid);
      const newest = await measure(server.url, who, rooms, newestPage, REQUESTS);
      const older = await measure(server.url, who, rooms, randomPage, Math.ceil(REQUESTS / 3));
      const keyset = await measure(server.url, who, rooms, randomBefore, Math.ceil(REQUESTS / 3));
      const beforeSeq = (await measure(server.url, who, rooms, randomBeforeSeq, Math.ceil(REQUESTS / 3))).summary();
      const afterSeq = (await measure(server.url, who, rooms, randomAfterSeq, Math.ceil(REQUESTS / 3))).summary();
      const k = keyset.summary();
      serverCpuShare = (processCpuMicros(server.pid) - cpu0) / ((performance.now() - t0) * 1000);
      const n = newest.summary();
      const o = older.summary();
      result = {
        title: `History: GET ${api.chatHistory} with ${MESSAGES.toLocaleString('en-US')} messages in MariaDB`,
        figures: [
          { measure: 'p99, newest page (opening a room)', value: `${n.p99Ms.toFixed(2)} ms`, goal: `≤ ${GOAL_P99_MS} ms`, verdict: upperGoal(n.p99Ms, GOAL_P99_MS, 'ms') },
          { measure: 'p50 / p90 / max, newest page', value: `${n.p50Ms.toFixed(2)} / ${n.p90Ms.toFixed(2)} / ${n.maxMs.toFixed(2)} ms` },
          {
            measure: 'p99 / p50, newest page, alternating blocks with and without the session cache',
            value: `${cacheOn.p99Ms.toFixed(2)} / ${cacheOn.p50Ms.toFixed(2)} ms`,
            baseline: `${cacheOff.p99Ms.toFixed(2)} / ${cacheOff.p50Ms.toFixed(2)} ms (SESSION_CACHE_TTL_MS=0)`,
            ratio: `${(cacheOff.p50Ms / Math.max(cacheOn.p50Ms, 1e-6)).toFixed(2)}× faster at p50`,
          },
          { measure: `p99, a random page of ${pagesPerRoom} (scrolling up)`, value: `${o.p99Ms.toFixed(2)} ms`, goal: `≤ ${GOAL_P99_MS} ms`, verdict: upperGoal(o.p99Ms, GOAL_P99_MS, 'ms') },
          { measure: 'p50 / p90 / max, random page', value: `${o.p50Ms.toFixed(2)} / ${o.p90Ms.toFixed(2)} / ${o.maxMs.toFixed(2)} ms` },
          { measure: 'p99, 20 messages before a random id (?beforeId=, keyset)', value: `${k.p99Ms.toFixed(2)} ms`, goal: `≤ ${GOAL_P99_MS} ms`, verdict: upperGoal(k.p99Ms, GOAL_P99_MS, 'ms') },
          { measure: 'p50 / p90 / max, keyset page', value: `${k.p50Ms.toFixed(2)} / ${k.p90Ms.toFixed(2)} / ${k.maxMs.toFixed(2)} ms` },
          { measure: 'p99, 20 messages before a random seq (?beforeSeq=)', value: `${beforeSeq.p99Ms.toFixed(2)} ms`, goal: `≤ ${GOAL_P99_MS} ms`, verdict: upperGoal(beforeSeq.p99Ms, GOAL_P99_MS, 'ms') },
          { measure: 'p50 / p90 / max, beforeSeq', value: `${beforeSeq.p50Ms.toFixed(2)} / ${beforeSeq.p90Ms.toFixed(2)} / ${beforeSeq.maxMs.toFixed(2)} ms` },
          { measure: 'p99, up to 100 messages after a random seq (?afterSeq=, catching up)', value: `${afterSeq.p99Ms.toFixed(2)} ms`, goal: `≤ ${GOAL_P99_MS} ms`, verdict: upperGoal(afterSeq.p99Ms, GOAL_P99_MS, 'ms') },
          { measure: 'p50 / p90 / max, afterSeq', value: `${afterSeq.p50Ms.toFixed(2)} / ${afterSeq.p90Ms.toFixed(2)} / ${afterSeq.maxMs.toFixed(2)} ms` },
        ],
        notes: [
          `${MESSAGES.toLocaleString('en-US')} messages in ${ROOMS} rooms of ${MEMBERS_PER_ROOM} members (${(MESSAGES / ROOMS).toLocaleString('en-US')} per room), ${seconds ? `bulk-loaded with ${BATCH}-row INSERTs in ${seconds.toFixed(0)} s.` : "loaded by an earlier run (--database)."}`,
          `${n.count} requests for the newest page, ${o.count} for random pages and ${k.count} for keyset pages, ${beforeSeq.count} before a seq and ${afterSeq.count} after one, one at a time from ${sessions.size} logged-in members, after ${Math.min(300, REQUESTS)} warm-up requests; latency measured at the client (HTTP keep-alive, loopback). Every request also marks the room read, as the product does (a room already read writes nothing).`,
          'Before issue 11 (bench/results of 2026-11-21, same machine): p99 newest page 12.28 ms, random page 12.70 ms, beforeId 11.26 ms; each request then looked up its session cookie in the database, counted the room with COUNT(*), stepped over OFFSET rows for a deep page and wrote the read marker every time.',
          pinned ? 'Cores: server pinned to core 0, client to core 1, MariaDB unpinned.' : 'Cores: shared freely (taskset unavailable).',
        ],
      };
    } finally {
      await server.stop();
    }
    result.notes.push(await queryBreakdown(database.url, members, Math.ceil(MESSAGES / ROOMS / LIMITS.historyPageSize)));
    // The profile is written when the server exits.
    const hot = hottestFunctions(PROFILE_DIR, ROOT);
    result.notes.push(
      `The server used ${(serverCpuShare * 100).toFixed(0)}% of its core while measuring: the rest of each request's time is spent waiting (MariaDB, loopback).`,
      ...(hot.length ? [`Server profile (node --cpu-prof), top self time: ${hot.map((h) => `${h.name} ${h.selfPercent.toFixed(1)}%`).join('; ')}`] : []),
    );
  } finally {
    if (args.keep) log(`kept the database: --database ${database.url}`);
    else await database.drop();
  }
  if (result) emitResult(result);
}

main().then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`[history] failed: ${(err as Error).stack ?? err}\n`);
    process.exit(1);
  },
);
