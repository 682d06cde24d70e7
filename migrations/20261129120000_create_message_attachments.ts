import type { Knex } from 'knex';

// Issue 27, several photos at once and the room's drawer (docs/protocol.md, attachments and the
// drawer):
// - `message_attachments`: every attachment a message sends, in order (`position` from 0): an
//   album of up to 30 photos, or the one attachment of `messages.attachment_id` (which still names
//   the first, for the original client). `room_id` and `kind` ('photo' or 'file') are the
//   message's room and the attachment's kind, kept here so the drawer of a room is one range of
//   the index (room_id, kind, message_id, position, attachment_id), newest first. The index holds
//   every column the drawer reads of the row: MariaDB then reads the page as a range of it (with
//   a column outside it, it chose to read the whole (room_id, kind) prefix backwards and filter,
//   10 ms and more for a page deep in a room of 100,000 messages). Rows go with their attachment
//   (removed with a message deleted for everyone) and with their message.
// - `message_links`: which of a room's messages hold an http(s) URL (the drawer's links; the URL
//   is read from the text), kept when the text is edited, removed when it is deleted; index
//   (room_id, message_id), which holds the whole row.
// Messages sent before this migration are backfilled.
const URL_IN_TEXT = /\bhttps?:\/\/[^\s<>"'`\u3000]+/i;
const TRAILING = /[.,;:!?'"\u3001\u3002)\]}]+$/;

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('message_attachments', (t) => {
    t.integer('message_id').unsigned().notNullable().references('id').inTable('messages').onDelete('CASCADE');
    t.integer('position').unsigned().notNullable();
    t.integer('attachment_id').unsigned().notNullable().references('id').inTable('attachments').onDelete('CASCADE');
    t.integer('room_id').unsigned().notNullable();
    t.string('kind', 8).notNullable();
    t.primary(['message_id', 'position']);
    t.index(['attachment_id']);
    t.index(['room_id', 'kind', 'message_id', 'position', 'attachment_id'], 'message_attachments_drawer');
  });
  await knex.schema.createTable('message_links', (t) => {
    t.integer('message_id').unsigned().notNullable().primary().references('id').inTable('messages').onDelete('CASCADE');
    t.integer('room_id').unsigned().notNullable();
    t.index(['room_id', 'message_id'], 'message_links_drawer');
  });
  await knex.raw(`insert into message_attachments (message_id, position, attachment_id, room_id, kind)
    select m.id, 0, a.id, m.room_id, case when a.content_type like 'image/%' and a.thumb_key is not null then 'photo' else 'file' end
    from messages m join attachments a on a.id = m.attachment_id where m.deleted_at_ms is null`);
  // Links of older messages, a batch at a time (the URL is found in JS, as the server finds it).
  let after = 0;
  for (;;) {
    const rows = (await knex('messages').select('id', 'room_id', 'content').where('id', '>', after).whereNotNull('sender_id').whereNull('deleted_at_ms')
      .where('content', 'like', '%http%').orderBy('id').limit(1000)) as Array<{ id: number; room_id: number; content: string }>;
    if (rows.length === 0) break;
    const links = rows.flatMap((r) => {
      const found = URL_IN_TEXT.exec(r.content)?.[0].replace(TRAILING, '');
      return found && found.length <= 2048 && /^https?:\/\/[^/?#]/i.test(found) ? [{ message_id: r.id, room_id: r.room_id }] : [];
    });
    if (links.length > 0) await knex('message_links').insert(links);
    after = Number(rows.at(-1)!.id);
  }
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('message_links');
  await knex.schema.dropTable('message_attachments');
}
