import type { Knex } from 'knex';

// OAuth: identities link a provider's subject to a user; pending logins keep the PKCE verifier
// of a one-time state (stored hashed) until the provider redirects back, on whichever node.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('oauth_identities', (t) => {
    t.increments('id').primary();
    t.string('provider', 16).notNullable();
    t.string('subject', 255).notNullable();
    t.integer('user_id').unsigned().notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.bigInteger('created_at_ms').notNullable();
    t.unique(['provider', 'subject']);
    t.index(['user_id']);
  });
  await knex.schema.createTable('oauth_pending_logins', (t) => {
    t.string('state_hash', 64).primary();
    t.string('provider', 16).notNullable();
    t.string('code_verifier', 128).notNullable();
    t.bigInteger('expires_at_ms').notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('oauth_pending_logins');
  await knex.schema.dropTable('oauth_identities');
}
