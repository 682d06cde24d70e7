import crypto from 'node:crypto';
import type { Knex } from 'knex';

// Attachments are named on the wire and in URLs by an opaque public id (docs/protocol.md,
// attachments): 128 random bits in base64url (22 characters), so that ids say nothing of how
// many files there are and cannot be walked. The sequential `id` stays the key that
// messages.attachment_id points to. Uploads made before this get their public id here, so old
// messages keep working (under their new addresses). Left nullable: SQLite cannot add a NOT NULL
// column without a default; the service always writes one, and the unique index keeps them apart.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('attachments', (t) => {
    t.string('public_id', 22).nullable().unique();
    // The sweep of unsent uploads walks every user's oldest uploads (docs/architecture.md).
    t.index(['created_at_ms']);
  });
  for (;;) {
    const rows = (await knex('attachments').select('id').whereNull('public_id').limit(500)) as Array<{ id: number }>;
    if (rows.length === 0) break;
    for (const { id } of rows) await knex('attachments').where({ id }).update({ public_id: crypto.randomBytes(16).toString('base64url') });
  }
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('attachments', (t) => {
    t.dropIndex(['created_at_ms']);
    t.dropUnique(['public_id']);
    t.dropColumn('public_id');
  });
}
