import type { Knex } from 'knex';

// Messages people can act on (docs/protocol.md, edit / delete / reply / reactions).
// - `edited_at_ms`, `deleted_at_ms`: an edit keeps the message's place; a deletion for everyone
//   empties `content` too, so the text is gone from the database, not only hidden.
// - `reply_to_id`: the message of the same room this one replies to (its quote is read live,
//   so an edited or deleted original shows as it is now).
// - `rooms.last_change_seq` and `messages.change_seq`: a per-room counter moved by every edit,
//   deletion and reaction, stamped on the message it changed. A client that was away asks for
//   the messages changed since the counter it last saw (history `changedSince`), one indexed
//   range per room, instead of re-reading everything on screen.
// - `message_reactions`: one row per (message, user, emoji). On MariaDB the emoji column is
//   compared in binary: utf8mb4_general_ci treats every character outside the BMP as equal,
//   which would make 👍 and 😂 the same key.
const isSqlite = (knex: Knex) => (knex.client as Knex.Client).config.client === 'better-sqlite3';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('messages', (t) => {
    t.bigInteger('edited_at_ms').nullable();
    t.bigInteger('deleted_at_ms').nullable();
    t.integer('reply_to_id').unsigned().nullable();
    t.integer('change_seq').unsigned().nullable();
    t.index(['room_id', 'change_seq']);
  });
  await knex.schema.alterTable('rooms', (t) => {
    t.integer('last_change_seq').unsigned().notNullable().defaultTo(0);
  });
  const sqlite = isSqlite(knex);
  await knex.schema.createTable('message_reactions', (t) => {
    t.integer('message_id').unsigned().notNullable().references('id').inTable('messages').onDelete('CASCADE');
    t.integer('user_id').unsigned().notNullable().references('id').inTable('users').onDelete('CASCADE');
    const emoji = t.string('emoji', 16).notNullable();
    if (!sqlite) emoji.collate('utf8mb4_bin');
    t.bigInteger('created_at_ms').notNullable();
    t.primary(['message_id', 'user_id', 'emoji']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('message_reactions');
  await knex.schema.alterTable('rooms', (t) => {
    t.dropColumn('last_change_seq');
  });
  await knex.schema.alterTable('messages', (t) => {
    t.dropIndex(['room_id', 'change_seq']);
    t.dropColumn('change_seq');
    t.dropColumn('reply_to_id');
    t.dropColumn('deleted_at_ms');
    t.dropColumn('edited_at_ms');
  });
}
