import type { Knex } from 'knex';

// The call record (docs/protocol.md, GET /api/calls): one row per call attempt, written when the
// call ends, however it ends (a busy callee included). The id orders the record (newest last
// ended) and is the `before` cursor of GET /api/calls; each party reads their calls by the
// (caller_id, id) and (callee_id, id) indexes. `answered_at_ms` is null for a call nobody
// answered; `room_id` is the two people's room that got the record's system message.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('calls', (t) => {
    t.increments('id').primary();
    t.integer('caller_id').unsigned().notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.integer('callee_id').unsigned().notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.integer('room_id').unsigned().nullable().references('id').inTable('rooms').onDelete('SET NULL');
    t.string('media', 8).notNullable();
    t.string('outcome', 16).notNullable();
    t.bigInteger('started_at_ms').notNullable();
    t.bigInteger('answered_at_ms').nullable();
    t.bigInteger('ended_at_ms').notNullable();
    t.integer('duration_sec').unsigned().notNullable();
    t.index(['caller_id', 'id']);
    t.index(['callee_id', 'id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('calls');
}
