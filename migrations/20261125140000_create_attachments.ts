import type { Knex } from 'knex';

// Photos and files (docs/protocol.md, attachments).
// - `attachments`: one row per upload, in the room it was uploaded to, by its uploader. A
//   message carries at most one (`messages.attachment_id`, unique: an attachment is sent once).
//   `blob_key` names its bytes in the blob store (and `thumb_key` its thumbnail's, for images).
// - `attachment_chunks`: the database blob store's rows (the default store): a file in pieces of
//   at most 256 KiB, in order `n`, so that every node of a cluster reads the same files and no
//   row comes near MariaDB's max_allowed_packet. MEDIUMBLOB on MariaDB (BLOB stops at 64 KiB).
const isSqlite = (knex: Knex) => (knex.client as Knex.Client).config.client === 'better-sqlite3';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('attachments', (t) => {
    t.increments('id').primary();
    t.integer('room_id').unsigned().notNullable().references('id').inTable('rooms').onDelete('CASCADE');
    t.integer('uploader_id').unsigned().notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.string('name', 255).notNullable();
    t.string('content_type', 127).notNullable();
    t.bigInteger('size').notNullable();
    t.string('blob_key', 64).notNullable();
    t.string('thumb_key', 64).nullable();
    t.integer('width').unsigned().nullable();
    t.integer('height').unsigned().nullable();
    t.bigInteger('created_at_ms').notNullable();
    t.index(['uploader_id', 'created_at_ms']);
  });
  await knex.schema.alterTable('messages', (t) => {
    t.integer('attachment_id').unsigned().nullable().unique();
  });
  const sqlite = isSqlite(knex);
  await knex.schema.createTable('attachment_chunks', (t) => {
    t.string('blob_key', 64).notNullable();
    t.integer('n').unsigned().notNullable();
    if (sqlite) t.binary('data').notNullable();
    else t.specificType('data', 'mediumblob').notNullable();
    t.primary(['blob_key', 'n']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('attachment_chunks');
  await knex.schema.alterTable('messages', (t) => {
    t.dropUnique(['attachment_id']);
    t.dropColumn('attachment_id');
  });
  await knex.schema.dropTable('attachments');
}
