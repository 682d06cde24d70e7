import type { Knex } from 'knex';

// Login attempts and verification-code sends remember the client address they came from, so the
// limits also hold per address across accounts (credential stuffing, mail to many addresses).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('login_failures', (t) => {
    t.string('client_address', 64).nullable();
    t.index(['client_address', 'failed_at_ms']);
  });
  await knex.schema.alterTable('email_verification_sends', (t) => {
    t.string('client_address', 64).nullable();
    t.index(['client_address', 'sent_at_ms']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('email_verification_sends', (t) => {
    t.dropIndex(['client_address', 'sent_at_ms']);
    t.dropColumn('client_address');
  });
  await knex.schema.alterTable('login_failures', (t) => {
    t.dropIndex(['client_address', 'failed_at_ms']);
    t.dropColumn('client_address');
  });
}
