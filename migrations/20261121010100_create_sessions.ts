import type { Knex } from 'knex';

// Login sessions. Only the SHA-256 of the cookie token is stored, so a database leak does not
// hand out live sessions; any server node can check a cookie. Times are epoch milliseconds
// from the server's injected clock, so the 14-day idle expiry can be tested by moving time.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('sessions', (t) => {
    t.increments('id').primary();
    t.string('token_hash', 64).notNullable().unique();
    t.integer('user_id').unsigned().notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.bigInteger('created_at_ms').notNullable();
    t.bigInteger('last_seen_at_ms').notNullable();
    t.index(['user_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('sessions');
}
