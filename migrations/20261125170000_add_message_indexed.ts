import type { Knex } from 'knex';

// The search index is written after a message's commit, not inside it (docs/architecture.md
// §6a): its ~30 rows a message were most of the message transaction, and only one of those is in
// flight at a time. `indexed` says whether a message's grams are in message_bigrams; a person's
// message is stored with 0 and set to 1 in the transaction that writes its rows. Search reads the
// few messages still at 0 with LIKE, so a message is found from its commit on, as before.
// Existing messages were indexed by 20261125140000_create_message_bigrams's backfill: 1.
// (indexed, room_id) finds the ones waiting, in all rooms (the indexer) or in a user's (search).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('messages', (t) => {
    t.boolean('indexed').notNullable().defaultTo(true);
    t.index(['indexed', 'room_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('messages', (t) => {
    t.dropIndex(['indexed', 'room_id']);
    t.dropColumn('indexed');
  });
}
