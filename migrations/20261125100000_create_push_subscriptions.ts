import type { Knex } from 'knex';

// Web Push subscriptions, one per device (browser profile), each tied to the login session it
// was made in: logging out (or any end of that session) deletes it with the session. The
// endpoint is unique through its SHA-256 (a URL of up to 2048 characters is too long for a
// MariaDB unique index); subscribing the same endpoint again moves it to the new session.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('push_subscriptions', (t) => {
    t.increments('id').primary();
    t.integer('user_id').unsigned().notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.integer('session_id').unsigned().notNullable().references('id').inTable('sessions').onDelete('CASCADE');
    t.string('endpoint_hash', 64).notNullable().unique();
    t.text('endpoint').notNullable();
    t.string('p256dh', 100).notNullable();
    t.string('auth', 32).notNullable();
    t.bigInteger('created_at_ms').notNullable();
    t.index(['user_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('push_subscriptions');
}
