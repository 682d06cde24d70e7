// Benchmark part: the room's drawer (issue 27), GET /api/chat-room/media, in a room of 100 000
// messages in MariaDB: photos (alone and in albums of 5), files and links among them. A fresh
// database is migrated by the admin CLI, two users are seeded, then the room, its messages,
// attachments and the drawer's rows (message_attachments, message_links) go in with multi-row
// INSERTs. The server runs pinned to core 0; this client, pinned to core 1, asks one request at
// a time: each kind's newest page (opening a tab) and pages before a random item (scrolling).
// Beside it, in the same run: the statement a drawer without its own index would make (the
// room's messages joined to their attachment, newest first), timed alone like ours.
//   node --import tsx bench/drawer.ts [--messages 100000] [--requests 2000]
import { execFileSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import knexFactory, { type Knex } from 'knex';
import { api, type MediaKind } from '@common/api';
import { MediaRepository } from '../server/src/features/chat/media-repository';
import { MEDIA_PAGE_SIZE } from '../server/src/features/chat/room-media';
import { login } from '../protocol-harness/src/load/chat-rest';
import { LatencyHistogram } from '../protocol-harness/src/load/latency';
import { KeepAliveGet } from './lib/keep-alive-get';
import { createBenchDatabase } from './lib/mariadb';
import { emitResult, upperGoal, type Figure, type PartResult } from './lib/result';
import { ROOT, startServer } from './lib/server-process';

const { values: args } = parseArgs({
  options: {
    messages: { type: 'string', default: '100000' },
    requests: { type: 'string', default: '2000' },
  },
});
const MESSAGES = Number(args.messages);
const REQUESTS = Number(args.requests);
const BATCH = 2000;
const GOAL_P99_MS = 10;
const PASSWORD = 'bench-drawer-pass';
const PREFIX = 'benchdrawer';
const ALBUM = 5;

const log = (line: string) => process.stderr.write(`[drawer] ${line}\n`);

function pinSelf(cpus: string): boolean {
  try {
    execFileSync('taskset', ['-cp', cpus, String(process.pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** What message i of the room sends: every 10th a photo, every 100th (from the 5th) an album, every 20th (from the 3rd) a file, every 7th a link. */
const sendsOf = (i: number): { photos: number; file: boolean; link: boolean } => ({
  photos: i % 100 === 5 ? ALBUM : i % 10 === 0 ? 1 : 0,
  file: i % 20 === 3,
  link: i % 7 === 0,
});

/** The room of two members and its MESSAGES messages, ids from 1 (a fresh database). */
async function load(url: string, userIds: [number, number]): Promise<{ roomId: number; seconds: number; counts: Record<MediaKind, number> }> {
  const db = knexFactory({ client: 'mysql2', connection: { uri: url } as never, pool: { min: 1, max: 1 } });
  const started = performance.now();
  const counts: Record<MediaKind, number> = { photo: 0, file: 0, link: 0 };
  try {
    const now = Date.now();
    const [roomId] = await db('rooms').insert({ name: 'bench drawer room', created_at_ms: now - 86_400_000 });
    await db('room_members').insert(userIds.map((userId) => ({ room_id: roomId, user_id: userId, joined_at_ms: now - 86_400_000 })));
    let attachmentId = 0;
    for (let first = 0; first < MESSAGES; first += BATCH) {
      const messages = [];
      const attachments = [];
      const links = [];
      const drawer: Array<{ message_id: number; position: number; attachment_id: number; room_id: number; kind: string }> = [];
      for (let i = first; i < Math.min(first + BATCH, MESSAGES); i++) {
        const id = i + 1;
        const sends = sendsOf(i);
        const ids: Array<{ id: number; kind: 'photo' | 'file' }> = [];
        for (let p = 0; p < sends.photos; p++) ids.push({ id: ++attachmentId, kind: 'photo' });
        if (sends.file && ids.length === 0) ids.push({ id: ++attachmentId, kind: 'file' });
        for (const a of ids) {
          attachments.push({
            id: a.id, public_id: `bench${String(a.id).padStart(17, '0')}`, room_id: roomId, uploader_id: userIds[i % 2], name: a.kind === 'photo' ? `photo ${a.id}.jpg` : `file ${a.id}.pdf`,
            content_type: a.kind === 'photo' ? 'image/jpeg' : 'application/pdf', size: 100_000, blob_key: `bench-${a.id}`, thumb_key: a.kind === 'photo' ? `bench-t-${a.id}` : null,
            width: a.kind === 'photo' ? 1200 : null, height: a.kind === 'photo' ? 900 : null, created_at_ms: now - (MESSAGES - i) * 50,
          });
        }
        ids.forEach((a, position) => drawer.push({ message_id: id, position, attachment_id: a.id, room_id: roomId, kind: a.kind }));
        counts.photo += sends.photos;
        if (ids.some((a) => a.kind === 'file')) counts.file += 1;
        const url = `https://example.com/page/${i}`;
        if (sends.link) {
          links.push({ message_id: id, room_id: roomId });
          counts.link += 1;
        }
        messages.push({
          id, room_id: roomId, seq: i + 1, sender_id: userIds[i % 2], indexed: 1,
          content: sends.link ? `look at ${url} please` : `drawer message ${i}: the quick brown fox jumps over the lazy dog`,
          attachment_id: ids[0]?.id ?? null, created_at_ms: now - (MESSAGES - i) * 50,
        });
      }
      if (attachments.length > 0) await db('attachments').insert(attachments);
      await db('messages').insert(messages);
      if (drawer.length > 0) await db('message_attachments').insert(drawer);
      if (links.length > 0) await db('message_links').insert(links);
      if ((first / BATCH) % 10 === 0) log(`inserted ${first + messages.length} messages`);
    }
    await db('rooms').where({ id: roomId }).update({ last_seq: MESSAGES });
    return { roomId, seconds: (performance.now() - started) / 1000, counts };
  } finally {
    await db.destroy();
  }
}

/** A `before` cursor at a random place of the room: a message id, with a position for photos. */
function randomCursor(kind: MediaKind): string {
  const id = 1 + Math.floor(Math.random() * MESSAGES);
  return kind === 'photo' ? `${id}.${Math.floor(Math.random() * ALBUM)}` : String(id);
}

async function measure(client: KeepAliveGet, cookie: string, roomId: number, kind: MediaKind, random: boolean, count: number): Promise<LatencyHistogram> {
  const h = new LatencyHistogram();
  for (let i = 0; i < count; i++) {
    const path = `${api.roomMedia}?chatRoomId=${roomId}&kind=${kind}${random ? `&before=${randomCursor(kind)}` : ''}`;
    const t0 = performance.now();
    const res = await client.get(path, { cookie });
    h.record((performance.now() - t0) * 1000);
    if (res.status !== 200) throw new Error(`${path}: HTTP ${res.status}`);
  }
  return h;
}

/** Waits (up to 2 minutes) until InnoDB has written out most of what the bulk load left dirty (as bench/history.ts). */
async function settle(url: string): Promise<{ seconds: number; dirtyPercent: number }> {
  const db = knexFactory({ client: 'mysql2', connection: { uri: url } as never, pool: { min: 0, max: 1 } });
  const started = performance.now();
  try {
    for (;;) {
      const [rows] = (await db.raw("SHOW GLOBAL STATUS WHERE Variable_name IN ('Innodb_buffer_pool_pages_dirty', 'Innodb_buffer_pool_pages_total')")) as unknown as [Array<{ Variable_name: string; Value: string }>];
      const value = (name: string) => Number(rows.find((r) => r.Variable_name === name)?.Value ?? 0);
      const dirtyPercent = (100 * value('Innodb_buffer_pool_pages_dirty')) / Math.max(value('Innodb_buffer_pool_pages_total'), 1);
      const seconds = (performance.now() - started) / 1000;
      if (dirtyPercent < 10 || seconds > 120) return { seconds, dirtyPercent };
      await new Promise((r) => setTimeout(r, 1000));
    }
  } finally {
    await db.destroy();
  }
}

/** The plan of a statement (EXPLAIN: table type key rows). */
async function planOf(db: Knex, run: () => Promise<unknown>): Promise<string> {
  const seen: { sql: string; bindings: unknown[] }[] = [];
  const listen = (q: { sql: string; bindings?: unknown[] }) => seen.push({ sql: q.sql, bindings: q.bindings ?? [] });
  db.on('query', listen);
  await run();
  db.removeListener('query', listen);
  const plans: string[] = [];
  for (const q of seen) {
    const [rows] = (await db.raw(`EXPLAIN ${q.sql}`, q.bindings as never)) as unknown as [Array<{ table: string; type: string; key: string | null; rows: number; Extra?: string }>];
    plans.push(rows.map((r) => `${r.table} ${r.type} ${r.key ?? '-'} ${r.rows}${r.Extra ? ` (${r.Extra})` : ''}`).join(', '));
  }
  return plans.join(' | ');
}

/** Times two statements alone from this process, in blocks alternating between them (a shared machine's load falls on both). */
async function alternating(runs: [() => Promise<unknown>, () => Promise<unknown>], count: number): Promise<Array<{ p50: number; p99: number }>> {
  const hs = [new LatencyHistogram(), new LatencyHistogram()];
  for (let block = 0; block < 10; block++) {
    for (const [k, run] of runs.entries()) {
      for (let i = 0; i < Math.ceil(count / 10); i++) {
        const t0 = performance.now();
        await run();
        hs[k].record((performance.now() - t0) * 1000);
      }
    }
  }
  return hs.map((h) => ({ p50: h.summary().p50Ms, p99: h.summary().p99Ms }));
}

async function main(): Promise<void> {
  const pinned = pinSelf('1');
  const database = await createBenchDatabase('drawer');
  const env = { ...process.env, DATABASE_URL: database.url };
  let result: PartResult | undefined;
  try {
    execFileSync('npm', ['run', '--silent', 'admin', '--', 'migrate'], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'inherit'] });
    execFileSync('npm', ['run', '--silent', 'admin', '--', 'seed', '--users', '2', '--password', PASSWORD, '--prefix', PREFIX], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'inherit'] });
    const admin = knexFactory({ client: 'mysql2', connection: { uri: database.url } as never, pool: { min: 0, max: 1 } });
    const users: { id: number; email: string }[] = await admin('users').orderBy('id').select('id', 'email');
    await admin.destroy();
    const { roomId, seconds, counts } = await load(database.url, [users[0].id, users[1].id]);
    log(`loaded ${MESSAGES} messages (${counts.photo} photos, ${counts.file} files, ${counts.link} links) in ${seconds.toFixed(1)} s`);
    const settled = await settle(database.url);
    log(`InnoDB dirty pages ${settled.dirtyPercent.toFixed(1)}% after waiting ${settled.seconds.toFixed(0)} s`);

    const server = await startServer({ env: { DATABASE_URL: database.url }, cpus: pinned ? '0' : undefined });
    const figures: Figure[] = [];
    try {
      const member = await login(server.url, { email: users[0].email, password: PASSWORD });
      const client = new KeepAliveGet(server.url);
      await measure(client, member.cookie, roomId, 'photo', true, Math.min(300, REQUESTS)); // warm-up: JIT, pools, buffer pool
      const kinds: Array<{ kind: MediaKind; random: boolean; label: string }> = [
        { kind: 'photo', random: false, label: 'photos, newest page (opening the drawer)' },
        { kind: 'photo', random: true, label: 'photos before a random item (scrolling)' },
        { kind: 'file', random: false, label: 'files, newest page' },
        { kind: 'file', random: true, label: 'files before a random item' },
        { kind: 'link', random: false, label: 'links, newest page' },
        { kind: 'link', random: true, label: 'links before a random item' },
      ];
      for (const k of kinds) {
        const q = (await measure(client, member.cookie, roomId, k.kind, k.random, Math.ceil(REQUESTS / kinds.length))).summary();
        figures.push({
          measure: `p99, ${k.label}`, value: `${q.p99Ms.toFixed(2)} ms (p50 ${q.p50Ms.toFixed(2)}, max ${q.maxMs.toFixed(2)})`,
          goal: `≤ ${GOAL_P99_MS} ms`, verdict: upperGoal(q.p99Ms, GOAL_P99_MS, 'ms'),
        });
      }
    } finally {
      await server.stop();
    }
    // The statement alone, ours beside a drawer without its own rows and index.
    const db = knexFactory({ client: 'mysql2', connection: { uri: database.url } as never, pool: { min: 1, max: 1 } });
    let breakdown = '';
    try {
      const repo = new MediaRepository(db);
      const reader = { userId: users[0].id, visibleFromSeq: 0, blocked: [] };
      const count = Math.min(300, REQUESTS);
      const page = MEDIA_PAGE_SIZE + 1;
      const oursRun = () => repo.page(roomId, 'photo', reader, { messageId: 1 + Math.floor(Math.random() * MESSAGES), position: 0 }, page);
      // Without message_attachments: the room's messages newest first, joined to their attachment and kept when it is a photo.
      const naiveRun = () => db('messages as m').join('attachments as at', 'at.id', 'm.attachment_id')
        .select('m.id', 'm.seq', 'at.public_id', 'at.name').where('m.room_id', roomId).whereNull('m.deleted_at_ms').whereNotNull('at.thumb_key')
        .where('m.id', '<', 1 + Math.floor(Math.random() * MESSAGES)).orderBy('m.id', 'desc').limit(page);
      const plans = { ours: await planOf(db, oursRun), naive: await planOf(db, naiveRun) };
      const [ours, naive] = await alternating([oursRun, naiveRun], count);
      figures.push({
        measure: 'p99 / p50 of the photo page\'s statement alone, before a random message',
        value: `${ours.p99.toFixed(2)} / ${ours.p50.toFixed(2)} ms`,
        baseline: `${naive.p99.toFixed(2)} / ${naive.p50.toFixed(2)} ms (the room's messages joined to their attachment, newest first; no album's other photos)`,
        ratio: `${(naive.p50 / Math.max(ours.p50, 1e-6)).toFixed(2)}× at p50`,
      });
      breakdown = `Plans (EXPLAIN: table type key rows): ours [${plans.ours}]; baseline [${plans.naive}]. Measured once InnoDB had written out the load (dirty pages ${settled.dirtyPercent.toFixed(1)}% after ${settled.seconds.toFixed(0)} s).`;
    } finally {
      await db.destroy();
    }
    result = {
      title: `The room's drawer: GET ${api.roomMedia} in a room of ${MESSAGES.toLocaleString('en-US')} messages (MariaDB)`,
      figures,
      notes: [
        `One room of two members, ${MESSAGES.toLocaleString('en-US')} messages: ${counts.photo.toLocaleString('en-US')} photos (alone, and in albums of ${ALBUM}), ${counts.file.toLocaleString('en-US')} files, ${counts.link.toLocaleString('en-US')} links; bulk-loaded with ${BATCH}-row INSERTs in ${seconds.toFixed(0)} s.`,
        `${REQUESTS} requests, one at a time over one kept-alive connection (loopback), ${MEDIA_PAGE_SIZE} items a page, after ${Math.min(300, REQUESTS)} warm-up requests. Each request checks the session and membership, reads the reader's blocks and the page.`,
        breakdown,
        pinned ? 'Cores: server pinned to core 0, client to core 1, MariaDB unpinned.' : 'Cores: shared freely (taskset unavailable).',
      ],
    };
  } finally {
    await database.drop();
  }
  emitResult(result);
}

main().then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`[drawer] failed: ${(err as Error).stack ?? err}\n`);
    process.exit(1);
  },
);
