// Benchmark part 4: GET /api/chat-room/chat-history p99 with 1 000 000 messages in MariaDB.
// A fresh database is migrated by the admin CLI, users are seeded, then rooms, members and
// messages go in directly with multi-row INSERTs (the chat feature's tables, see
// migrations/*_create_chat_tables.ts). The server runs pinned to core 0; this client, pinned to
// core 1, asks for history one request at a time, as members opening rooms and scrolling up.
//   node --import tsx bench/history.ts [--messages 1000000] [--rooms 100] [--requests 3000]
//     [--database mysql://root@127.0.0.1:3306/NAME]  reuse a database a run left loaded (--keep),
//     [--keep]                                        instead of loading a fresh one (90 s or more)
//     [--baseline-code DIR]  also run the server of another checkout (e.g. main before a change) on
//                            the same database, in blocks alternating with this one's
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import knexFactory from 'knex';
import { api } from '@common/api';
import { MessagesRepository } from '../server/src/features/chat/messages-repository';
import { ReactionsRepository } from '../server/src/features/chat/reactions-repository';
import { RoomsRepository } from '../server/src/features/chat/rooms-repository';
import { LIMITS } from '@common/rules';
import { login, type LoggedInUser } from '../protocol-harness/src/load/chat-rest';
import { LatencyHistogram } from '../protocol-harness/src/load/latency';
import { hottestFunctions } from './lib/cpu-profile';
import { processCpuMicros } from './lib/cpu-time';
import { KeepAliveGet } from './lib/keep-alive-get';
import { createBenchDatabase } from './lib/mariadb';
import { emitResult, upperGoal, type Figure, type PartResult } from './lib/result';
import { ROOT, startServer } from './lib/server-process';

const { values: args } = parseArgs({
  options: {
    messages: { type: 'string', default: '1000000' },
    rooms: { type: 'string', default: '100' },
    requests: { type: 'string', default: '3000' },
    database: { type: 'string' },
    keep: { type: 'boolean', default: false },
    'baseline-code': { type: 'string' },
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
/** Opens the servers' GET /metrics: the server-side time of each request, beside the client's. */
const METRICS_TOKEN = 'bench-history-metrics';

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
    const [{ n }] = await db('messages').count<Array<{ n: number }>>({ n: '*' });
    if (Number(n) !== MESSAGES) return null;
    const rows = await db('room_members').select<{ room_id: number; user_id: number }[]>('room_id', 'user_id').orderBy(['room_id', 'joined_at_ms', 'user_id']);
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

/**
 * A random message of the room, as a client asks for the page before the oldest message it holds:
 * the room's ids run from its first in steps of ROOMS (inserted round robin), and an id between
 * them would be another room's.
 */
function randomIdOf(idRange: Map<number, [number, number]>, roomId: number): number {
  const [lo, hi] = idRange.get(roomId)!;
  return lo + ROOMS * Math.floor(Math.random() * (Math.floor((hi - lo) / ROOMS) + 1));
}

/**
 * How many history requests the server has answered in under 1 ms and under 5 ms, and in all,
 * from its own request-duration histogram (the handler's time: cookie, queries, building the
 * answer; not the loopback or this client's wait for a core).
 */
function gitHead(root: string): string {
  try {
    return execFileSync('git', ['-C', root, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    return 'unknown commit';
  }
}

async function serverTimes(base: string): Promise<{ within1: number; within5: number; all: number }> {
  const res = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  const text = await res.text();
  const bucket = (le: string) => {
    const line = text.split('\n').find((l) => l.startsWith('letschat_http_request_duration_seconds_bucket{') && l.includes(`le="${le}"`) && l.includes(`route="${api.chatHistory}"`) && l.includes('status="200"'));
    return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
  };
  return { within1: bucket('0.001'), within5: bucket('0.005'), all: bucket('+Inf') };
}

/** The share of the requests between two readings the server answered within 1 and 5 ms. */
function serverShare(before: Awaited<ReturnType<typeof serverTimes>>, after: Awaited<ReturnType<typeof serverTimes>>): string {
  const all = after.all - before.all;
  const pct = (n: number) => `${((100 * n) / Math.max(all, 1)).toFixed(1)}%`;
  return `${pct(after.within1 - before.within1)} ≤ 1 ms, ${pct(after.within5 - before.within5)} ≤ 5 ms (of ${all})`;
}

/**
 * Waits (up to 3 minutes) until InnoDB has written out most of what the bulk load left dirty in
 * its buffer pool: a database in use is not flushing 200 MB it was just given, and measured
 * during that flush the first kind of request paid for it (newest page p99 5.3 ms right after the
 * load, 3.5 ms on the same database settled, 2026-11-25).
 */
async function settle(url: string): Promise<{ seconds: number; dirtyPercent: number }> {
  const db = knexFactory({ client: 'mysql2', connection: { uri: url } as never, pool: { min: 0, max: 1 } });
  const started = performance.now();
  try {
    for (;;) {
      const [rows] = (await db.raw("SHOW GLOBAL STATUS WHERE Variable_name IN ('Innodb_buffer_pool_pages_dirty', 'Innodb_buffer_pool_pages_total')")) as unknown as [Array<{ Variable_name: string; Value: string }>];
      const value = (name: string) => Number(rows.find((r) => r.Variable_name === name)?.Value ?? 0);
      const dirtyPercent = (100 * value('Innodb_buffer_pool_pages_dirty')) / Math.max(value('Innodb_buffer_pool_pages_total'), 1);
      const seconds = (performance.now() - started) / 1000;
      if (dirtyPercent < 10 || seconds > 180) return { seconds, dirtyPercent };
      await new Promise((r) => setTimeout(r, 1000));
    }
  } finally {
    await db.destroy();
  }
}

/** One kept-alive connection per server, as a browser keeps one. */
const clients = new Map<string, KeepAliveGet>();

async function measure(base: string, who: Map<number, LoggedInUser>, rooms: number[], pageFor: PageQuery, count: number, h = new LatencyHistogram()): Promise<LatencyHistogram> {
  let client = clients.get(base);
  if (!client) clients.set(base, (client = new KeepAliveGet(base)));
  for (let i = 0; i < count; i++) {
    const roomId = rooms[Math.floor(Math.random() * rooms.length)];
    const path = `${api.chatHistory}?chatRoomId=${roomId}&${pageFor(roomId)}`;
    const t0 = performance.now();
    const res = await client.get(path, { cookie: who.get(roomId)!.cookie });
    h.record((performance.now() - t0) * 1000);
    if (res.status !== 200) throw new Error(`${path}: HTTP ${res.status}`);
  }
  return h;
}

/**
 * The statements one history request makes, made by the repositories themselves against the
 * same database and timed alone, each with its plan (EXPLAIN: table, access type, key, rows
 * examined), so a missed goal can be traced to the statement that costs it.
 */
async function queryBreakdown(url: string, members: number[][], idRange: Map<number, [number, number]>, count = 300): Promise<string> {
  const db = knexFactory({ client: 'mysql2', connection: { uri: url } as never, pool: { min: 1, max: 1 } });
  const rooms = new RoomsRepository(db);
  const messages = new MessagesRepository(db);
  const reactions = new ReactionsRepository(db, messages);
  const perRoom = MESSAGES / ROOMS;
  const page = LIMITS.historyPageSize;
  const room = () => members[Math.floor(Math.random() * members.length)][0];
  const below = (n: number) => 1 + Math.floor(Math.random() * n);
  const statements: [string, () => Promise<unknown>][] = [
    ['session lookup (once per 5 s per cookie)', () => db.raw('SELECT id, user_id, last_seen_at_ms FROM sessions WHERE token_hash = ?', ['0'.repeat(64)])],
    ['room with its members and read positions', () => rooms.withMembers(room())],
    ['newest page', () => messages.page(room(), { page: 0 }, page)],
    ['random page', () => messages.page(room(), { page: Math.floor(Math.random() * (perRoom / page)) }, page)],
    ['before a random seq', () => messages.page(room(), { beforeSeq: below(perRoom) }, page)],
    ['after a random seq (101 rows)', () => messages.page(room(), { afterSeq: below(perRoom) - 1 }, LIMITS.catchUpPageSize + 1)],
    ['before a random id', () => { const r = room(); return messages.page(r, { beforeId: randomIdOf(idRange, r) }, page); }],
    // (Only in a room whose change counter ever moved; the bench's rooms never did.)
    ['reactions of a page, by its messages', () => { const r = room(); const last = randomIdOf(idRange, r); return reactions.of(Array.from({ length: page }, (_, i) => last - i * ROOMS)); }],
  ];
  const parts: string[] = [];
  try {
    for (const [name, run] of statements) {
      const seen: { sql: string; bindings: unknown[] }[] = [];
      const listen = (q: { sql: string; bindings?: unknown[] }) => seen.push({ sql: q.sql, bindings: q.bindings ?? [] });
      db.on('query', listen);
      await run();
      db.removeListener('query', listen);
      const plans: string[] = [];
      for (const q of seen) {
        const [rows] = (await db.raw(`EXPLAIN ${q.sql}`, q.bindings as never)) as unknown as [Array<{ table: string; type: string; key: string | null; rows: number }>];
        plans.push(rows.map((r) => `${r.table} ${r.type} ${r.key ?? '-'} ${r.rows}`).join(', '));
      }
      const h = new LatencyHistogram();
      for (let i = 0; i < count; i++) {
        const t0 = performance.now();
        await run();
        h.record((performance.now() - t0) * 1000);
      }
      const q = h.summary();
      parts.push(`${name}: p50 ${q.p50Ms.toFixed(2)} ms, p99 ${q.p99Ms.toFixed(2)} ms [${plans.join(' | ')}]`);
    }
  } finally {
    await db.destroy();
  }
  return `The statements of one request, made by the repositories and timed alone from this process (${count} each; the room-with-members statement and the page run at once, on two connections), with EXPLAIN [table type key rows]: ${parts.join('; ')}.`;
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
    const settled = await settle(database.url);
    log(`InnoDB dirty pages ${settled.dirtyPercent.toFixed(1)}% after waiting ${settled.seconds.toFixed(0)} s`);

    fs.rmSync(PROFILE_DIR, { recursive: true, force: true });
    const server = await startServer({
      env: { DATABASE_URL: database.url, METRICS_TOKEN },
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
      const randomBefore: PageQuery = (roomId) => `beforeId=${randomIdOf(idRange, roomId)}`;
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
      const kinds: { label: string; pageFor: PageQuery; count: number }[] = [
        { label: 'newest page (opening a room)', pageFor: newestPage, count: REQUESTS },
        { label: `a random page of ${pagesPerRoom} (scrolling up)`, pageFor: randomPage, count: Math.ceil(REQUESTS / 3) },
        { label: '20 messages before a random id (?beforeId=, the keyset form before seq)', pageFor: randomBefore, count: Math.ceil(REQUESTS / 3) },
        { label: '20 messages before a random seq (?beforeSeq=)', pageFor: randomBeforeSeq, count: Math.ceil(REQUESTS / 3) },
        { label: 'up to 100 messages after a random seq (?afterSeq=, catching up)', pageFor: randomAfterSeq, count: Math.ceil(REQUESTS / 3) },
      ];
      const t0 = performance.now();
      const cpu0 = processCpuMicros(server.pid);
      const measured: { q: ReturnType<LatencyHistogram['summary']>; serverSide: string }[] = [];
      for (const kind of kinds) {
        const before = await serverTimes(server.url);
        const q = (await measure(server.url, who, rooms, kind.pageFor, kind.count)).summary();
        measured.push({ q, serverSide: serverShare(before, await serverTimes(server.url)) });
      }
      serverCpuShare = (processCpuMicros(server.pid) - cpu0) / ((performance.now() - t0) * 1000);
      const figures: Figure[] = [];
      kinds.forEach((kind, i) => {
        const { q, serverSide } = measured[i];
        figures.push(
          { measure: `p99, ${kind.label}`, value: `${q.p99Ms.toFixed(2)} ms`, goal: `≤ ${GOAL_P99_MS} ms`, verdict: upperGoal(q.p99Ms, GOAL_P99_MS, 'ms') },
          { measure: 'p50 / p90 / max at the client; answered by the server within', value: `${q.p50Ms.toFixed(2)} / ${q.p90Ms.toFixed(2)} / ${q.maxMs.toFixed(2)} ms; ${serverSide}` },
        );
      });
      figures.push({
        measure: 'p99 / p50, newest page, alternating blocks with and without the session cache',
        value: `${cacheOn.p99Ms.toFixed(2)} / ${cacheOn.p50Ms.toFixed(2)} ms`,
        baseline: `${cacheOff.p99Ms.toFixed(2)} / ${cacheOff.p50Ms.toFixed(2)} ms (SESSION_CACHE_TTL_MS=0)`,
        ratio: `${(cacheOff.p50Ms / Math.max(cacheOn.p50Ms, 1e-6)).toFixed(2)}× faster at p50`,
      });
      // The code before a change, on the same database and cores, in blocks alternating with
      // this code's: on a shared machine only such a comparison says what the change did.
      if (args['baseline-code']) {
        const root = path.resolve(args['baseline-code']);
        const base = await startServer({ root, env: { DATABASE_URL: database.url, METRICS_TOKEN }, cpus: pinned ? '0' : undefined });
        try {
          await measure(base.url, who, rooms, newestPage, Math.min(300, REQUESTS));
          for (const kind of kinds) {
            const ours = new LatencyHistogram();
            const theirs = new LatencyHistogram();
            const [ours0, theirs0] = [await serverTimes(server.url), await serverTimes(base.url)];
            for (let block = 0; block < 5; block++) {
              await measure(server.url, who, rooms, kind.pageFor, Math.ceil(kind.count / 10), ours);
              await measure(base.url, who, rooms, kind.pageFor, Math.ceil(kind.count / 10), theirs);
            }
            const [o, t] = [ours.summary(), theirs.summary()];
            figures.push({
              measure: `p99 / p50, ${kind.label}, alternating blocks with the baseline code; server within`,
              value: `${o.p99Ms.toFixed(2)} / ${o.p50Ms.toFixed(2)} ms; ${serverShare(ours0, await serverTimes(server.url))}`,
              baseline: `${t.p99Ms.toFixed(2)} / ${t.p50Ms.toFixed(2)} ms; ${serverShare(theirs0, await serverTimes(base.url))} (${path.basename(root)} at ${gitHead(root)})`,
              ratio: `${(t.p50Ms / Math.max(o.p50Ms, 1e-6)).toFixed(2)}× at p50`,
            });
          }
        } finally {
          await base.stop();
        }
      }
      const [n, o, k, beforeSeq, afterSeq] = measured.map((m) => m.q);
      result = {
        title: `History: GET ${api.chatHistory} with ${MESSAGES.toLocaleString('en-US')} messages in MariaDB`,
        figures,
        notes: [
          `${MESSAGES.toLocaleString('en-US')} messages in ${ROOMS} rooms of ${MEMBERS_PER_ROOM} members (${(MESSAGES / ROOMS).toLocaleString('en-US')} per room), ${seconds ? `bulk-loaded with ${BATCH}-row INSERTs in ${seconds.toFixed(0)} s.` : "loaded by an earlier run (--database)."} Measured once InnoDB had written out the load (dirty pages ${settled.dirtyPercent.toFixed(1)}% of its buffer pool after ${settled.seconds.toFixed(0)} s).`,
          `${n.count} requests for the newest page, ${o.count} for random pages and ${k.count} for keyset pages, ${beforeSeq.count} before a seq and ${afterSeq.count} after one, one at a time from ${sessions.size} logged-in members, after ${Math.min(300, REQUESTS)} warm-up requests; latency measured at the client (node:http over one kept-alive connection, loopback). Every request also marks the room read, as the product does (a room already read writes nothing).`,
          'Before rooms were clustered by room and history read in one statement (bench/results of 2026-11-21, same machine): p99 newest page 12.28 ms, random page 12.70 ms, beforeId 11.26 ms; each request then looked up its session cookie in the database, counted the room with COUNT(*), stepped over OFFSET rows for a deep page and wrote the read marker every time.',
          pinned ? 'Cores: server pinned to core 0, client to core 1, MariaDB unpinned.' : 'Cores: shared freely (taskset unavailable).',
        ],
      };
    } finally {
      await server.stop();
    }
    result.notes.push(await queryBreakdown(database.url, members, await messageIdRanges(database.url)));
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
