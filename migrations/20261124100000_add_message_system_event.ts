import type { Knex } from 'knex';

// System messages carry their structured form (common/api.ts SystemEvent) beside the Korean
// text the original client parses: our client renders from it. JSON text; null on user
// messages and on system messages stored before this change.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('messages', (t) => {
    t.text('system_event').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('messages', (t) => {
    t.dropColumn('system_event');
  });
}
