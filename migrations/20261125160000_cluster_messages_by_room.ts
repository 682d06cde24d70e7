import type { Knex } from 'knex';

// On MariaDB a room's messages are stored together: InnoDB keeps a table's rows in the order of
// its primary key, and messages arrive interleaved across rooms, so with `id` as the key the 20
// messages of a page sat on 20 different pages of the table (100 rows after a seq on 100). Every
// history read (a page, before or after a seq) is a (room_id, seq) range: with that as the
// primary key it reads one or two pages. Measured on 1,000,000 messages in 100 rooms, with a
// buffer pool smaller than the table (MariaDB's default 128 MiB): 101 rows after a random seq,
// p50 1.7 → 0.6 ms and p99 6.5 → 1–2.8 ms, the statement alone (docs/benchmarks.md).
//
// `id` stays the messages' public identity, AUTO_INCREMENT, unique, and what replies, reactions
// and attachments point at; a lookup by id now goes through its unique index to the row. The
// (room_id, seq) unique index becomes the key itself. SQLite is left as it is: its tables are
// ordered by rowid, and `id` is that rowid (AUTOINCREMENT needs it).
const isSqlite = (knex: Knex) => (knex.client as Knex.Client).config.client === 'better-sqlite3';

export async function up(knex: Knex): Promise<void> {
  if (isSqlite(knex)) return;
  // One statement: `id` must stay indexed (AUTO_INCREMENT, and referenced by message_reactions)
  // and room_id too (messages_room_id_foreign) at every step.
  await knex.raw(`alter table messages
    drop primary key,
    add unique key messages_id_unique (id),
    add primary key (room_id, seq),
    drop index messages_room_id_seq_unique`);
}

export async function down(knex: Knex): Promise<void> {
  if (isSqlite(knex)) return;
  await knex.raw(`alter table messages
    add unique key messages_room_id_seq_unique (room_id, seq),
    drop primary key,
    add primary key (id),
    drop index messages_id_unique`);
}
