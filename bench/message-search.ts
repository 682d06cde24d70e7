// Benchmark part "message-search" (docs/architecture.md §6a): 1 000 000 messages of Korean
// sentences in 100 rooms of 10 members, on SQLite and on MariaDB; one member of 10 rooms
// searches through the engine the server uses (searchEngineFor) and, in the same run, through
// the scoped LIKE it replaced (fewer searches: it is slow). Prints p50/p99 per database for
// two-syllable words (the goal: p99 ≤ 50 ms), one syllable and longer phrases, the engine and
// the index's size, and the write cost of the index: message inserts through the real
// repository with and without it, on the loaded database.
//   node --import tsx bench/message-search.ts [--messages 1000000] [--searches 300] [--baseline-searches 30]
//   (SEARCH_BENCH_MESSAGES=50000 for a quick run.)
//   [--keep]  leave the loaded MariaDB database in place and print its URL;
//   [--database mysql://root@127.0.0.1:3306/NAME]  time searches on a database a --keep run
//             loaded (same --messages), instead of loading a fresh one (minutes at 1,000,000)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import type { Database as BetterSqlite } from 'better-sqlite3';
import { createDatabase, migrateLatest, type Knex } from '../server/src/db/knex';
import { messageGrams } from '../server/src/features/chat/message-grams';
import { indexWaiting } from '../server/src/features/chat/message-index-repository';
import { ScopedLikeSearch, searchEngineFor, type MessageSearchEngine } from '../server/src/features/chat/message-search-repository';
import { MessagesRepository } from '../server/src/features/chat/messages-repository';
import { createBenchDatabase } from './lib/mariadb';
import { emitResult, upperGoal, type Figure, type PartResult } from './lib/result';

const { values: args } = parseArgs({
  options: {
    messages: { type: 'string', default: process.env.SEARCH_BENCH_MESSAGES ?? '1000000' },
    searches: { type: 'string', default: '300' },
    'baseline-searches': { type: 'string', default: '30' },
    inserts: { type: 'string', default: '300' },
    only: { type: 'string', default: 'sqlite,mariadb' },
    keep: { type: 'boolean', default: false },
    database: { type: 'string' },
  },
});
const MESSAGES = Number(args.messages);
const SEARCHES = Number(args.searches);
const BASELINE_SEARCHES = Number(args['baseline-searches']);
const INSERTS = Number(args.inserts);
const ROOMS = 100;
const USERS = 100;
const GOAL_P99_MS = 50;

// Sentences people type in a work chat: a time, a subject with its particle, an object or a
// place, a verb with one of many endings, sometimes a second clause, an emoticon or a Latin
// word. Deterministic, so both databases hold the same text.
const TIMES = ['오늘', '내일', '어제', '아까', '방금', '이따가', '다음 주', '이번 주', '주말에', '월요일', '금요일', '저녁에', '점심때', '오전에', '오후에'];
const NOUNS = [
  '회의', '점심', '저녁', '프로젝트', '보고서', '일정', '고객', '서버', '배포', '사진', '여행', '운동', '자료', '발표', '계약', '예산',
  '디자인', '코드', '리뷰', '테스트', '출장', '휴가', '커피', '회식', '메일', '문서', '견적', '일정표', '기획안', '데이터', '로그', '장애',
  '팀장님', '선배', '동기', '교수님', '친구', '엄마', '아빠', '동생', '강아지', '고양이', '날씨', '버스', '지하철', '택시', '병원', '약속',
];
const PARTICLES = ['은', '는', '이', '가', '을', '를', '도', '만', '부터', '까지', '에서', '으로', '랑', '하고'];
const VERBS = [
  '확인했어요', '준비할게요', '어떻게 할까요', '끝났습니다', '미뤄졌어요', '좋아요', '다시 볼게요', '공유해 주세요', '보냈습니다',
  '받았어요', '정리했어요', '올렸습니다', '고쳤어요', '물어볼게요', '잊지 마세요', '늦을 것 같아요', '괜찮을까요', '필요해요',
  '취소됐어요', '바뀌었어요', '먹었어요', '갈까요', '했어요?', '맞나요?', '부탁드려요', '감사합니다', '수고하셨습니다',
];
const EXTRAS = ['진짜', '혹시', '그럼', '아마', '벌써', '조금', '다들', '먼저', '근데', '그래서', '아무튼', '정말', '혹시나', '일단', '빨리'];
const TAILS = ['', '', '', ' ㅋㅋ', ' ㅎㅎ', ' ㅠㅠ', '!', '.', '~', ' 👍', ' OK', ' PR 올렸어요', ' 10시', ' 3층'];

/** Two-syllable words the member searches for: nouns of the sentences and a few parts of words. */
const TWO = ['회의', '점심', '자료', '발표', '계약', '예산', '코드', '리뷰', '출장', '휴가', '커피', '메일', '문서', '견적', '날씨', '병원', '약속', '서버', '배포', '로그', '고객', '선배', '동기', '친구'];
const ONE = ['회', '점', '요', '커', '약', '메', '장', '휴', '일', '층', '택', '견'];
const LONGER = ['보고서', '프로젝트', '공유해 주세요', '일정표', '팀장님', '늦을 것 같아요', '회의는', '오늘 점심'];

function* sentences(seed: number): Generator<string> {
  let x = seed;
  const next = (n: number) => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return Math.floor((x / 2147483648) * n);
  };
  const pick = <T>(a: T[]) => a[next(a.length)];
  for (;;) {
    let s = `${next(3) === 0 ? `${pick(EXTRAS)} ` : ''}${pick(TIMES)} ${pick(NOUNS)}${pick(PARTICLES)} ${pick(VERBS)}`;
    if (next(3) === 0) s += ` ${pick(NOUNS)}${pick(PARTICLES)} ${pick(VERBS)}`;
    yield s + pick(TAILS);
  }
}

const isSqlite = (db: Knex) => (db.client as Knex.Client).config.client === 'better-sqlite3';

interface Loaded { seconds: number; indexRows: number }

/** Users, rooms, members, then messages and their index rows in bulk (the index exactly as the server writes it: messageGrams). */
async function load(db: Knex): Promise<Loaded> {
  const started = performance.now();
  const now = Date.now();
  await db.batchInsert('users', Array.from({ length: USERS }, (_, i) => ({ email: `s${i}@bench.test`, name: `사용자${i}` })), 200);
  await db.batchInsert('rooms', Array.from({ length: ROOMS }, (_, i) => ({ name: `방 ${i}`, created_at_ms: now, last_seq: Math.ceil(MESSAGES / ROOMS) })), 500);
  // Room r has users r*10 .. r*10+9 (mod 100) as members: user 1 is in 10 rooms.
  const members = [];
  for (let r = 0; r < ROOMS; r += 1) for (let k = 0; k < 10; k += 1) members.push({ room_id: r + 1, user_id: ((r + k * 10) % USERS) + 1, joined_at_ms: now });
  await db.batchInsert('room_members', members, 200);

  const text = sentences(7);
  const seqs = new Array<number>(ROOMS).fill(0);
  let indexRows = 0;
  const sqlite = isSqlite(db);
  // MariaDB: the index goes in without its key, then the key is built once, sorted (far faster
  // than 40 million inserts in key order into a 128 MiB buffer pool); the table ends the same.
  if (!sqlite) await db.raw('alter table message_bigrams drop primary key');
  const client = db.client as Knex.Client;
  const conn = sqlite ? ((await client.acquireConnection()) as BetterSqlite) : null;
  try {
    if (conn) conn.pragma('cache_size = -1000000');
    const insertMessage = conn?.prepare('insert into messages (id, room_id, seq, sender_id, content, created_at_ms) values (?, ?, ?, ?, ?, ?)');
    const insertGram = conn?.prepare('insert into message_bigrams (gram, room_id, message_id) values (?, ?, ?)');
    const BATCH = 2000;
    for (let done = 0; done < MESSAGES; done += BATCH) {
      const rows: Array<[number, number, number, number, string, number]> = [];
      for (let i = done; i < Math.min(MESSAGES, done + BATCH); i += 1) {
        const room = i % ROOMS;
        seqs[room] += 1;
        rows.push([i + 1, room + 1, seqs[room], ((room + (i % 10) * 10) % USERS) + 1, text.next().value as string, now + i]);
      }
      const grams: number[] = [];
      for (const r of rows) for (const g of messageGrams(r[4])) grams.push(g, r[1], r[0]);
      indexRows += grams.length / 3;
      if (conn) {
        conn.transaction(() => {
          for (const r of rows) insertMessage!.run(...r);
          for (let i = 0; i < grams.length; i += 3) insertGram!.run(grams[i], grams[i + 1], grams[i + 2]);
        })();
      } else {
        await db.raw(`insert into messages (id, room_id, seq, sender_id, content, created_at_ms) values ${rows.map(() => '(?, ?, ?, ?, ?, ?)').join(', ')}`, rows.flat());
        for (let i = 0; i < grams.length; i += 3 * 5000) {
          const part = grams.slice(i, i + 3 * 5000);
          await db.raw(`insert into message_bigrams (gram, room_id, message_id) values ${Array.from({ length: part.length / 3 }, () => '(?, ?, ?)').join(', ')}`, part);
        }
      }
    }
  } finally {
    if (conn) await client.releaseConnection(conn);
  }
  if (!sqlite) await db.raw('alter table message_bigrams add primary key (gram, room_id, message_id)');
  await db.raw(sqlite ? 'analyze' : 'analyze table messages, message_bigrams, room_members');
  return { seconds: (performance.now() - started) / 1000, indexRows };
}

/** Bytes of the index table (SQLite's dbstat; MariaDB's information_schema after ANALYZE). */
async function indexBytes(db: Knex): Promise<number> {
  if (isSqlite(db)) {
    const r: Array<{ b: number }> = await db.raw("select sum(pgsize) as b from dbstat where name = 'message_bigrams'");
    return Number(r[0].b);
  }
  const [rows] = (await db.raw("select data_length + index_length as b from information_schema.tables where table_schema = database() and table_name = 'message_bigrams'")) as [Array<{ b: number }>];
  return Number(rows[0].b);
}

interface Timing { p50: number; p99: number; n: number }

async function time(engine: MessageSearchEngine, words: string[], n: number): Promise<Timing> {
  const times: number[] = [];
  for (let i = 0; i < n; i += 1) {
    const started = performance.now();
    const hits = await engine.search(words[i % words.length], { userId: 1, limit: 21 });
    times.push(performance.now() - started);
    if (i < words.length && hits.length === 0) throw new Error(`"${words[i]}" found nothing with ${engine.name}: the data or the engine is wrong`);
  }
  times.sort((a, b) => a - b);
  const q = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))];
  return { p50: q(0.5), p99: q(0.99), n };
}

/**
 * Messages a second stored one per transaction through MessagesRepository.insertMany, and with
 * their index rows written after it as MessageIndexer writes them (indexWaiting, a transaction of
 * its own): what a searchable message costs the database against a message alone (alternating
 * blocks, so load noise hits both). The server does both in batches, beside each other.
 */
async function insertCost(db: Knex): Promise<{ withIndex: number; without: number }> {
  const repo = new MessagesRepository(db);
  const text = sentences(99);
  const spent = { with: 0, without: 0 };
  const done = { with: 0, without: 0 };
  const left: number[] = [];
  for (let block = 0; block < 10; block += 1) {
    for (const kind of ['with', 'without'] as const) {
      const started = performance.now();
      for (let i = 0; i < INSERTS / 10; i += 1) {
        const [stored] = await repo.insertMany([{ roomId: 2, senderId: 11, content: text.next().value as string, clientMsgId: null, leftUserId: null, addedUserEmail: null, systemEvent: null, atMs: Date.now() }]);
        if (kind === 'with') await indexWaiting(db, [stored.id]);
        else left.push(stored.id);
      }
      spent[kind] += performance.now() - started;
      done[kind] += INSERTS / 10;
    }
  }
  // Not timed: a database kept for the next run (--keep) holds no message waiting.
  for (let i = 0; i < left.length; i += 500) await indexWaiting(db, left.slice(i, i + 500));
  return { withIndex: (done.with / spent.with) * 1000, without: (done.without / spent.without) * 1000 };
}

const ms = (t: Timing) => `p99 ${t.p99.toFixed(1)} / p50 ${t.p50.toFixed(1)} ms`;

/** A database an earlier --keep run loaded: its index rows are counted, nothing is loaded. */
async function alreadyLoaded(db: Knex): Promise<Loaded> {
  const [{ n }] = await db('message_bigrams').count<Array<{ n: number | string }>>({ n: '*' });
  return { seconds: 0, indexRows: Number(n) };
}

async function measure(label: string, db: Knex, reuse = false): Promise<{ figures: Figure[]; notes: string[] }> {
  await migrateLatest(db);
  const loaded = reuse ? await alreadyLoaded(db) : await load(db);
  const engine = searchEngineFor(db);
  const baseline = new ScopedLikeSearch(db);
  await time(engine, TWO, TWO.length); // warm the caches, as a running server's are
  const two = await time(engine, TWO, SEARCHES);
  const one = await time(engine, ONE, Math.max(ONE.length, Math.floor(SEARCHES / 3)));
  const longer = await time(engine, LONGER, Math.max(LONGER.length, Math.floor(SEARCHES / 3)));
  const likeTwo = await time(baseline, TWO, BASELINE_SEARCHES);
  const likeOne = await time(baseline, ONE, Math.max(ONE.length, Math.floor(BASELINE_SEARCHES / 3)));
  const bytes = await indexBytes(db);
  const inserts = await insertCost(db);
  const line = `${label}: ${MESSAGES} messages, engine "${engine.name}" (${loaded.indexRows} index rows, ${(bytes / 2 ** 20).toFixed(0)} MiB), two syllables ${ms(two)}, one syllable ${ms(one)}, longer ${ms(longer)}; baseline "${baseline.name}" two ${ms(likeTwo)}, one ${ms(likeOne)}; inserts ${inserts.withIndex.toFixed(0)}/s with the index, ${inserts.without.toFixed(0)}/s without; loaded in ${loaded.seconds.toFixed(0)} s`;
  console.log(line);
  return {
    figures: [
      {
        measure: `${label}: two-syllable search, ${MESSAGES} messages, member of 10 of ${ROOMS} rooms (${engine.name})`,
        value: ms(two), baseline: `${ms(likeTwo)} (${baseline.name}, ${likeTwo.n} searches)`,
        ratio: `${(likeTwo.p99 / two.p99).toFixed(1)}× faster at p99`, goal: `p99 ≤ ${GOAL_P99_MS} ms`, verdict: upperGoal(two.p99, GOAL_P99_MS, 'ms'),
      },
      { measure: `${label}: one-syllable search`, value: ms(one), baseline: `${ms(likeOne)} (${baseline.name})` },
      { measure: `${label}: longer keywords (bigrams intersected, re-checked with LIKE)`, value: ms(longer) },
      { measure: `${label}: index size (message_bigrams)`, value: `${(bytes / 2 ** 20).toFixed(0)} MiB, ${loaded.indexRows} rows (${(loaded.indexRows / MESSAGES).toFixed(1)} a message)` },
      {
        measure: `${label}: message inserts, one per transaction (MessagesRepository.insertMany, then indexWaiting as MessageIndexer does)`,
        value: `${inserts.withIndex.toFixed(0)}/s with the index`, baseline: `${inserts.without.toFixed(0)}/s without`,
        ratio: `${(inserts.without / inserts.withIndex).toFixed(2)}× the time`,
      },
    ],
    notes: [line],
  };
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'letschat-search-'));
  const result: PartResult = {
    title: 'Message search (GET /api/search/messages engine)',
    figures: [],
    notes: [
      `${MESSAGES} generated Korean sentences in ${ROOMS} rooms of 10 members; user 1 (in 10 rooms) searches through the engine directly (no HTTP), one search at a time, ${SEARCHES} two-syllable searches after a warm-up; the scoped LIKE baseline ${BASELINE_SEARCHES} searches.`,
      'Insert cost: the real repository, one message per transaction, alternating blocks with and without the index on the loaded database.',
    ],
  };
  const wanted = new Set(args.only.split(','));
  try {
    if (wanted.has('sqlite')) {
      const sqlite = createDatabase(`sqlite:${path.join(dir, 'bench.sqlite3')}`);
      try {
        const r = await measure('sqlite', sqlite);
        result.figures.push(...r.figures);
        result.notes.push(...r.notes);
      } finally {
        await sqlite.destroy();
      }
    }
    if (wanted.has('mariadb')) {
      const maria = args.database ? { url: args.database, drop: () => Promise.resolve() } : await createBenchDatabase('search');
      const mysql = createDatabase(maria.url);
      try {
        const r = await measure('mariadb', mysql, args.database !== undefined);
        result.figures.push(...r.figures);
        result.notes.push(...r.notes);
      } finally {
        await mysql.destroy();
        if (args.keep) console.log(`kept the loaded database: --database ${maria.url}`);
        else await maria.drop();
      }
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  emitResult(result);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
