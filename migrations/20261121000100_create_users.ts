import type { Knex } from 'knex';

// Users: every feature refers to users.id. E-mail is stored lower-cased and unique.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('users', (t) => {
    t.increments('id').primary();
    t.string('email', 100).notNullable().unique();
    t.string('name', 100).notNullable();
    // Null for accounts that only sign in through Google or Kakao.
    t.string('password_hash', 255).nullable();
    t.timestamp('created_at', { useTz: false }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: false }).notNullable().defaultTo(knex.fn.now());
    t.index(['name']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('users');
}
