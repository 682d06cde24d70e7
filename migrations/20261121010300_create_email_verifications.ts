import type { Knex } from 'knex';

// E-mail verification for sign-up. One row per address holds the current code (hashed with a
// per-code salt), its expiry and wrong tries, and, once verified, until when sign-up may use
// the address. Each send is also logged so the resend limit holds across nodes.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('email_verifications', (t) => {
    t.string('email', 100).primary();
    t.string('code_hash', 64).nullable();
    t.string('code_salt', 32).nullable();
    t.bigInteger('code_expires_at_ms').nullable();
    t.integer('failed_attempts').notNullable().defaultTo(0);
    t.bigInteger('verified_until_ms').nullable();
  });
  await knex.schema.createTable('email_verification_sends', (t) => {
    t.increments('id').primary();
    t.string('email', 100).notNullable();
    t.bigInteger('sent_at_ms').notNullable();
    t.index(['email', 'sent_at_ms']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('email_verification_sends');
  await knex.schema.dropTable('email_verifications');
}
