import type { Knex } from 'knex';

// Chat: rooms, their members (with each member's read marker) and messages. Times are epoch
// milliseconds from the server's injected clock, like the accounts tables. A message's
// auto-increment id is its order in the room; (room_id, id) serves history pages, the chat
// list's "last message" lookup and unread counts. (sender_id, client_msg_id) is unique so a
// client's retried SEND is stored once; system messages have no sender.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('rooms', (t) => {
    t.increments('id').primary();
    // Built from two names of up to 100 characters on creation; renames are at most 50.
    t.string('name', 255).notNullable();
    t.bigInteger('created_at_ms').notNullable();
    // The e-mail notification may go out once per room every 3 minutes, on any node.
    t.bigInteger('last_notified_at_ms').nullable();
  });
  await knex.schema.createTable('room_members', (t) => {
    t.integer('room_id').unsigned().notNullable().references('id').inTable('rooms').onDelete('CASCADE');
    t.integer('user_id').unsigned().notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.bigInteger('joined_at_ms').notNullable();
    t.integer('last_read_message_id').unsigned().nullable();
    t.bigInteger('last_read_at_ms').nullable();
    t.primary(['room_id', 'user_id']);
    t.index(['user_id']);
  });
  await knex.schema.createTable('messages', (t) => {
    t.increments('id').primary();
    t.integer('room_id').unsigned().notNullable().references('id').inTable('rooms').onDelete('CASCADE');
    t.integer('sender_id').unsigned().nullable().references('id').inTable('users');
    t.text('content').notNullable();
    t.integer('left_user_id').unsigned().nullable();
    t.string('added_user_email', 100).nullable();
    t.string('client_msg_id', 64).nullable();
    t.bigInteger('created_at_ms').notNullable();
    t.index(['room_id', 'id']);
    t.unique(['sender_id', 'client_msg_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('messages');
  await knex.schema.dropTable('room_members');
  await knex.schema.dropTable('rooms');
}
