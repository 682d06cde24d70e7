// Message search, measured (not yet a part of `make bench`, see docs/architecture.md "Searching
// messages"): Korean sentences in 100 rooms of 10 members, one member of 10 rooms searching
// two-syllable words through the engine the server uses, on SQLite and on MariaDB. Prints p50
// and p99 per database and the engine's name.
//   node --import tsx bench/message-search.ts [--messages 200000] [--searches 200]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { createDatabase, migrateLatest, type Knex } from '../server/src/db/knex';
import { ScopedLikeSearch } from '../server/src/features/chat/message-search-repository';
import { createBenchDatabase } from './lib/mariadb';

const { values: args } = parseArgs({ options: { messages: { type: 'string', default: '200000' }, searches: { type: 'string', default: '200' } } });
const MESSAGES = Number(args.messages);
const SEARCHES = Number(args.searches);
const ROOMS = 100;
const USERS = 100;

const SUBJECTS = ['오늘', '내일', '회의', '점심', '저녁', '주말', '프로젝트', '보고서', '일정', '고객', '서버', '배포', '사진', '여행', '운동'];
const VERBS = ['확인했어요', '준비할게요', '어떻게 할까요', '끝났습니다', '미뤄졌어요', '좋아요', '다시 볼게요', '공유해 주세요'];
const EXTRAS = ['진짜', '혹시', '그럼', '아마', '벌써', '조금', '다들', '먼저'];
/** A deterministic generator, so both databases hold the same text. */
function* sentences(seed: number): Generator<string> {
  let x = seed;
  const pick = <T>(a: T[]) => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return a[x % a.length];
  };
  for (;;) yield `${pick(EXTRAS)} ${pick(SUBJECTS)} ${pick(VERBS)} ${pick(SUBJECTS)}도 ${pick(VERBS)}`;
}

async function load(db: Knex): Promise<void> {
  await db.batchInsert('users', Array.from({ length: USERS }, (_, i) => ({ email: `s${i}@bench.test`, name: `사용자${i}` })), 200);
  const now = Date.now();
  await db.batchInsert('rooms', Array.from({ length: ROOMS }, (_, i) => ({ name: `방 ${i}`, created_at_ms: now, last_seq: MESSAGES / ROOMS })), 500);
  // Room r has users r*10 .. r*10+9 (mod 100) as members: user 1 is in 10 rooms.
  const members = [];
  for (let r = 0; r < ROOMS; r += 1) for (let k = 0; k < 10; k += 1) members.push({ room_id: r + 1, user_id: ((r + k * 10) % USERS) + 1, joined_at_ms: now });
  await db.batchInsert('room_members', members, 200);
  const text = sentences(7);
  const seqs = new Array<number>(ROOMS).fill(0);
  for (let done = 0; done < MESSAGES; done += 5000) {
    const rows = [];
    for (let i = done; i < Math.min(MESSAGES, done + 5000); i += 1) {
      const room = i % ROOMS;
      seqs[room] += 1;
      rows.push({ room_id: room + 1, seq: seqs[room], sender_id: ((room + (i % 10) * 10) % USERS) + 1, content: text.next().value, created_at_ms: now + i });
    }
    await db.batchInsert('messages', rows, 200);
  }
}

async function measure(label: string, db: Knex): Promise<void> {
  const engine = new ScopedLikeSearch(db);
  const times: number[] = [];
  for (let i = 0; i < SEARCHES; i += 1) {
    const started = performance.now();
    await engine.search(SUBJECTS[i % SUBJECTS.length].slice(0, 2), { userId: 1, limit: 21 });
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const q = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))].toFixed(1);
  console.log(`${label}: ${MESSAGES} messages, engine "${engine.name}", p50 ${q(0.5)} ms, p99 ${q(0.99)} ms over ${SEARCHES} searches of a two-syllable word`);
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'letschat-search-'));
  const sqlite = createDatabase(`sqlite:${path.join(dir, 'bench.sqlite3')}`);
  const maria = await createBenchDatabase('search');
  const mysql = createDatabase(maria.url);
  try {
    for (const [label, db] of [['sqlite', sqlite], ['mariadb', mysql]] as const) {
      await migrateLatest(db);
      await load(db);
      await measure(label, db);
    }
  } finally {
    await sqlite.destroy();
    await mysql.destroy();
    await maria.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

void main();
