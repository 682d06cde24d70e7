import type { Knex } from 'knex';

// Issue 27, passing messages on (docs/protocol.md /app/forward-message, /app/hide-message,
// POST /api/chat-room/self):
// - `messages.forwarded`: the message was forwarded from another (shown as 전달됨).
// - `messages.forwarded_attachment_id`: the attachment a forwarded message references (the
//   original's, not a copy). Apart from `attachment_id`, which stays unique (an upload is sent
//   once); indexed so a deletion can tell whether any live message still shows the file.
// - `hidden_messages`: delete for me; a user's hidden messages are left out of what they read.
// - `rooms.self_user_id`: the user whose memo room (나와의 채팅) this is; unique, so concurrent
//   first uses make one room.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('messages', (t) => {
    t.boolean('forwarded').notNullable().defaultTo(false);
    t.integer('forwarded_attachment_id').unsigned().nullable().index();
  });
  await knex.schema.createTable('hidden_messages', (t) => {
    t.integer('user_id').unsigned().notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.integer('message_id').unsigned().notNullable().references('id').inTable('messages').onDelete('CASCADE');
    t.bigInteger('created_at_ms').notNullable();
    t.primary(['user_id', 'message_id']);
    t.index(['message_id']);
  });
  await knex.schema.alterTable('rooms', (t) => {
    t.integer('self_user_id').unsigned().nullable().unique();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('rooms', (t) => {
    t.dropUnique(['self_user_id']);
    t.dropColumn('self_user_id');
  });
  await knex.schema.dropTable('hidden_messages');
  await knex.schema.alterTable('messages', (t) => {
    t.dropIndex(['forwarded_attachment_id']);
    t.dropColumn('forwarded_attachment_id');
    t.dropColumn('forwarded');
  });
}
