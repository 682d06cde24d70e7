import type { Knex } from 'knex';

// A pending OAuth login remembers the client address that started it, so starts are limited per
// address; expired rows are deleted as new logins start.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('oauth_pending_logins', (t) => {
    t.string('client_address', 64).nullable();
    t.index(['client_address', 'expires_at_ms']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('oauth_pending_logins', (t) => {
    t.dropIndex(['client_address', 'expires_at_ms']);
    t.dropColumn('client_address');
  });
}
