import type { Knex } from 'knex';

// Failed logins per address, counted within a sliding window by every node (login rate limit).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('login_failures', (t) => {
    t.increments('id').primary();
    t.string('email', 255).notNullable();
    t.bigInteger('failed_at_ms').notNullable();
    t.index(['email', 'failed_at_ms']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('login_failures');
}
