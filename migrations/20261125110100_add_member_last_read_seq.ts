import type { Knex } from 'knex';

// Each member's read position as a seq (docs/protocol.md, "lastReadSeq"): every message of the
// room up to it is read by the member. It only moves forward. A member has read their own
// messages, so it is at least the seq of the newest message they sent. Filled from the old
// read marker (last_read_message_id, kept no longer) and from their own messages.
// last_read_at_ms stays: the chat list's lastReadAt (the spec's unread dot) is still its time.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('room_members', (t) => {
    t.integer('last_read_seq').unsigned().notNullable().defaultTo(0);
  });
  await knex.raw(`update room_members set last_read_seq = coalesce(
    (select m.seq from messages m where m.id = room_members.last_read_message_id and m.room_id = room_members.room_id), 0)`);
  await knex.raw(`update room_members set last_read_seq = (
      select max(m.seq) from messages m where m.sender_id = room_members.user_id and m.room_id = room_members.room_id)
    where last_read_seq < coalesce((
      select max(m.seq) from messages m where m.sender_id = room_members.user_id and m.room_id = room_members.room_id), 0)`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('room_members', (t) => {
    t.dropColumn('last_read_seq');
  });
}
