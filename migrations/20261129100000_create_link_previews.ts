import type { Knex } from 'knex';

// Issue 27, link previews (docs/protocol.md, link previews; docs/architecture.md):
// - `link_previews`: the cache, one row per URL (by the SHA-256 of the URL as found), a preview
//   or a failure (`ok` false: fetched again only after a while). `public_id` names the row in
//   the image's address: 128 random bits, so previews cannot be walked. The image is ours: the
//   page's image fetched once and re-encoded as a small WebP, kept in the row (at most a few
//   tens of KiB); the row is read without it except by the image route.
// - `message_link_previews`: which preview a message shows (history reads it by message id).
const isSqlite = (knex: Knex) => (knex.client as Knex.Client).config.client === 'better-sqlite3';

export async function up(knex: Knex): Promise<void> {
  const sqlite = isSqlite(knex);
  await knex.schema.createTable('link_previews', (t) => {
    t.increments('id').primary();
    t.string('url_hash', 64).notNullable().unique();
    t.string('public_id', 22).notNullable().unique();
    t.string('url', 2048).notNullable();
    t.boolean('ok').notNullable();
    t.string('title', 300).nullable();
    t.string('description', 600).nullable();
    t.string('site_name', 100).nullable();
    if (sqlite) t.binary('image').nullable();
    else t.specificType('image', 'mediumblob').nullable();
    t.string('image_type', 40).nullable();
    t.bigInteger('fetched_at_ms').notNullable();
  });
  await knex.schema.createTable('message_link_previews', (t) => {
    t.integer('message_id').unsigned().notNullable().primary().references('id').inTable('messages').onDelete('CASCADE');
    t.integer('preview_id').unsigned().notNullable().references('id').inTable('link_previews').onDelete('CASCADE');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('message_link_previews');
  await knex.schema.dropTable('link_previews');
}
