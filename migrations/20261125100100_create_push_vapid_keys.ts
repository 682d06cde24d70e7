import type { Knex } from 'knex';

// The server's VAPID key pair when VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are unset: generated
// once by the first server that needs it and kept here (one row, id 1), so every node and every
// restart signs pushes with the same key and browsers' subscriptions stay valid.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('push_vapid_keys', (t) => {
    t.integer('id').unsigned().primary();
    t.string('public_key', 100).notNullable();
    t.string('private_key', 64).notNullable();
    t.bigInteger('created_at_ms').notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('push_vapid_keys');
}
