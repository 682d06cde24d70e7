import type { Knex } from 'knex';

// Profiles (docs/protocol.md, profile photos and status): every user object the API answers
// carries `photoVersion` and `statusMessage`, read with the user's row (no join on hot paths such
// as history). `photo_version` changes with every photo (null: none); the photo's bytes live in
// `user_photos`, one row per user, small and large together, written in the same transaction.
export async function up(knex: Knex): Promise<void> {
  const sqlite = (knex.client as Knex.Client).config.client === 'better-sqlite3';
  await knex.schema.alterTable('users', (t) => {
    t.string('photo_version', 32).nullable();
    t.string('status_message', 255).nullable();
  });
  await knex.schema.createTable('user_photos', (t) => {
    t.integer('user_id').unsigned().notNullable().primary().references('id').inTable('users').onDelete('CASCADE');
    t.string('version', 32).notNullable();
    t.string('content_type', 32).notNullable();
    if (sqlite) {
      t.binary('small').notNullable();
      t.binary('large').notNullable();
    } else {
      t.specificType('small', 'mediumblob').notNullable();
      t.specificType('large', 'mediumblob').notNullable();
    }
    t.bigInteger('created_at_ms').notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('user_photos');
  await knex.schema.alterTable('users', (t) => {
    t.dropColumn('photo_version');
    t.dropColumn('status_message');
  });
}
