import type { Knex } from 'knex';

// Issue 27, voice messages (docs/protocol.md, attachments): an attachment uploaded with
// kind=voice keeps its kind, its length in milliseconds and its waveform (64 levels 0..255, as
// 128 hex digits), all read by the server with ffmpeg at upload. Null for every other attachment.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('attachments', (t) => {
    t.string('kind', 10).nullable();
    t.integer('duration_ms').unsigned().nullable();
    t.string('waveform', 128).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('attachments', (t) => {
    t.dropColumn('waveform');
    t.dropColumn('duration_ms');
    t.dropColumn('kind');
  });
}
