import type { Knex } from 'knex';

// Whether the user lets others see that they are typing (docs/protocol.md, /app/typing and
// /api/user/preferences). On unless the user turns it off in the settings.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => {
    t.boolean('send_typing').notNullable().defaultTo(true);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => {
    t.dropColumn('send_typing');
  });
}
