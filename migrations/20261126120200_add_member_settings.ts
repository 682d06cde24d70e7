import type { Knex } from 'knex';

// Per-room settings of each member (docs/protocol.md, PATCH /api/chat-room/settings): a muted
// room raises no Web Push for its messages; pinned rooms come first in the member's chat list.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('room_members', (t) => {
    t.boolean('muted').notNullable().defaultTo(false);
    t.boolean('pinned').notNullable().defaultTo(false);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('room_members', (t) => {
    t.dropColumn('muted');
    t.dropColumn('pinned');
  });
}
