import type { Knex } from 'knex';

// The search index of messages (docs/architecture.md §6a): one row per (gram, room, message) for
// every distinct gram of a message's text, a gram being one non-space character (for
// one-syllable searches) or two adjacent ones (two syllables and more), folded to lower case and
// encoded as one integer (server/src/features/chat/message-grams.ts). The primary key is the
// whole row, gram first: a search reads, for each of the user's rooms, one gram's newest
// message ids straight from the key, and nothing else. Written in the transaction that stores,
// edits or deletes the message; system and deleted messages have no rows.
//
// The existing messages are indexed here. Migrations are compiled one file each (no imports
// from server/), so the gram rules are copied below, frozen as they were; a unit test keeps
// them equal to the server's.
const isSqlite = (knex: Knex) => (knex.client as Knex.Client).config.client === 'better-sqlite3';

const PLANE = 0x110000;
const SPACES = new Set([
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006,
  0x2007, 0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff,
]);

export function backfillGrams(content: string): number[] {
  const cps: number[] = [];
  for (const ch of content) {
    const cp = ch.codePointAt(0)!;
    if (cp >= 0xac00 && cp <= 0xd7a3) {
      cps.push(cp);
      continue;
    }
    const lower = [...ch.toLowerCase()];
    cps.push(lower.length === 1 ? lower[0].codePointAt(0)! : cp);
  }
  const grams = new Set<number>();
  for (let i = 0; i < cps.length; i += 1) {
    if (SPACES.has(cps[i])) continue;
    grams.add(cps[i]);
    if (i + 1 < cps.length && !SPACES.has(cps[i + 1])) grams.add(cps[i] * PLANE + cps[i + 1]);
  }
  return [...grams];
}

export async function up(knex: Knex): Promise<void> {
  if (isSqlite(knex)) {
    // WITHOUT ROWID: the key is the table, no second copy of the three integers.
    await knex.raw(
      'create table message_bigrams (gram integer not null, room_id integer not null, message_id integer not null, primary key (gram, room_id, message_id)) without rowid',
    );
  } else {
    await knex.schema.createTable('message_bigrams', (t) => {
      t.bigInteger('gram').unsigned().notNullable();
      t.integer('room_id').unsigned().notNullable();
      t.integer('message_id').unsigned().notNullable();
      t.primary(['gram', 'room_id', 'message_id']);
    });
  }
  for (let after = 0; ; ) {
    const rows = (await knex('messages')
      .select('id', 'room_id', 'content')
      .where('id', '>', after)
      .whereNotNull('sender_id')
      .whereNull('deleted_at_ms')
      .orderBy('id')
      .limit(2000)) as Array<{ id: number; room_id: number; content: string }>;
    if (rows.length === 0) break;
    after = Number(rows[rows.length - 1].id);
    const index = rows.flatMap((r) => backfillGrams(r.content).flatMap((gram) => [gram, Number(r.room_id), Number(r.id)]));
    // Plain multi-row VALUES (knex writes SQLite's as a compound SELECT, limited to 500 terms).
    for (let i = 0; i < index.length; i += 3000) {
      const part = index.slice(i, i + 3000);
      await knex.raw(`insert into message_bigrams (gram, room_id, message_id) values ${Array.from({ length: part.length / 3 }, () => '(?, ?, ?)').join(', ')}`, part);
    }
  }
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('message_bigrams');
}
