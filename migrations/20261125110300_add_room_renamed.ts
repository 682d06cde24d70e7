import type { Knex } from 'knex';

// Whether someone renamed the room (docs/protocol.md, chat-room/create and chatRoomName): a room
// no one renamed is named from the viewer's side, and starting a chat with someone who shares
// an unrenamed two-person room with you opens that room. Existing rooms count as renamed when
// they hold a rename message.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('rooms', (t) => {
    t.boolean('renamed').notNullable().defaultTo(false);
  });
  await knex('rooms')
    .whereIn('id', knex('messages').select('room_id').whereNull('sender_id').where((q) => q.where('system_event', 'like', '%"type":"renamed"%').orWhere('content', 'like', '%님이 채팅 이름을 %')))
    .update({ renamed: true });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('rooms', (t) => {
    t.dropColumn('renamed');
  });
}
