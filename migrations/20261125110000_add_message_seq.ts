import type { Knex } from 'knex';

// Per-room sequence numbers (docs/protocol.md, "seq"). Each message gets `seq`, gap-free from 1
// in its room; `rooms.last_seq` is the room's counter, taken under the room's row lock inside
// the transaction that stores the message, so commit order is seq order (an auto-increment id
// is handed out at insert, not at commit). Existing messages are numbered in id order.
//
// The unique key of a retried SEND becomes (sender, room, clientMsgId): the same clientMsgId in
// another room is another message. History, the chat list's newest message and unread counts
// all go through (room_id, seq), which replaces the (room_id, id) index.
const isSqlite = (knex: Knex) => (knex.client as Knex.Client).config.client === 'better-sqlite3';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('rooms', (t) => {
    t.integer('last_seq').unsigned().notNullable().defaultTo(0);
  });
  await knex.schema.alterTable('messages', (t) => {
    t.integer('seq').unsigned().nullable();
  });
  // Both engines have window functions (SQLite ≥ 3.25, MariaDB ≥ 10.2): one pass, not one
  // correlated count per row.
  const numbered = 'select id, row_number() over (partition by room_id order by id) as rn from messages';
  if (isSqlite(knex)) await knex.raw(`update messages set seq = x.rn from (${numbered}) as x where x.id = messages.id`);
  else await knex.raw(`update messages m join (${numbered}) x on x.id = m.id set m.seq = x.rn`);
  if (!isSqlite(knex)) await knex.raw('alter table messages modify seq int unsigned not null');
  await knex.schema.alterTable('messages', (t) => {
    t.unique(['room_id', 'seq']);
    t.unique(['sender_id', 'room_id', 'client_msg_id']);
  });
  await knex.raw('update rooms set last_seq = coalesce((select max(m.seq) from messages m where m.room_id = rooms.id), 0)');
  await knex.schema.alterTable('messages', (t) => {
    t.dropUnique(['sender_id', 'client_msg_id']);
    t.dropIndex(['room_id', 'id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('messages', (t) => {
    t.index(['room_id', 'id']);
    t.unique(['sender_id', 'client_msg_id']);
  });
  await knex.schema.alterTable('messages', (t) => {
    t.dropUnique(['sender_id', 'room_id', 'client_msg_id']);
    t.dropUnique(['room_id', 'seq']);
    t.dropColumn('seq');
  });
  await knex.schema.alterTable('rooms', (t) => {
    t.dropColumn('last_seq');
  });
}
