import type { Knex } from 'knex';

// Issue 26's rest (docs/protocol.md, People): who blocked whom, each room's notice, the members
// a message mentions, and a private past.
// - `blocks`: one-sided rows (user → blocked); the blocked person is never told.
// - `room_notices`: at most one per room, a message of that room; goes with the room.
// - `messages.mentions`: the mentioned members' ids, comma-separated (null when none), read
//   with the message; `message_mentions` holds the same per member and seq, so the chat list
//   finds "an unread message mentions me" along its primary key.
// - `room_members.visible_from_seq`: the first seq the member may read; 0 (everything) for
//   every member already in a room, so members present before this migration keep everything.
// - `room_members.hidden`: the room is left out of the member's chat list (a new 1:1 opened by
//   someone the member blocked) until the member opens it themselves.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('blocks', (t) => {
    t.integer('user_id').unsigned().notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.integer('blocked_id').unsigned().notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.bigInteger('created_at_ms').notNullable();
    t.primary(['user_id', 'blocked_id']);
    // "Who blocked this person" (a message's fan-out, calls).
    t.index(['blocked_id', 'user_id']);
  });
  await knex.schema.createTable('room_notices', (t) => {
    t.integer('room_id').unsigned().notNullable().primary().references('id').inTable('rooms').onDelete('CASCADE');
    t.integer('message_id').unsigned().notNullable();
    t.integer('set_by').unsigned().nullable().references('id').inTable('users').onDelete('SET NULL');
    t.bigInteger('set_at_ms').notNullable();
    t.index(['message_id']);
  });
  await knex.schema.alterTable('messages', (t) => {
    t.string('mentions', 600).nullable();
  });
  await knex.schema.createTable('message_mentions', (t) => {
    t.integer('user_id').unsigned().notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.integer('room_id').unsigned().notNullable().references('id').inTable('rooms').onDelete('CASCADE');
    t.integer('seq').unsigned().notNullable();
    t.primary(['user_id', 'room_id', 'seq']);
    t.index(['room_id']);
  });
  await knex.schema.alterTable('room_members', (t) => {
    t.integer('visible_from_seq').unsigned().notNullable().defaultTo(0);
    t.boolean('hidden').notNullable().defaultTo(false);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('room_members', (t) => {
    t.dropColumn('visible_from_seq');
    t.dropColumn('hidden');
  });
  await knex.schema.dropTable('message_mentions');
  await knex.schema.alterTable('messages', (t) => {
    t.dropColumn('mentions');
  });
  await knex.schema.dropTable('room_notices');
  await knex.schema.dropTable('blocks');
}
