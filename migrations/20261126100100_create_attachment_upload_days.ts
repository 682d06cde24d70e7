import type { Knex } from 'knex';

// The daily upload quota (docs/operations.md, ATTACHMENTS_DAILY_QUOTA_BYTES): bytes each user
// stored on each UTC day (`day` as yyyymmdd). Counted here rather than summed from `attachments`,
// whose rows go when a message is deleted: deleting must not give the quota back.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('attachment_upload_days', (t) => {
    t.integer('user_id').unsigned().notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.integer('day').unsigned().notNullable();
    t.bigInteger('bytes').notNullable();
    t.primary(['user_id', 'day']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('attachment_upload_days');
}
