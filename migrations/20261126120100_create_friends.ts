import type { Knex } from 'knex';

// Friends (docs/protocol.md, friends): one row per (user, friend), one-sided as in KakaoTalk
// (adding someone does not add you to their list); `favourite` puts them in the favourites.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('friends', (t) => {
    t.integer('user_id').unsigned().notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.integer('friend_id').unsigned().notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.boolean('favourite').notNullable().defaultTo(false);
    t.bigInteger('created_at_ms').notNullable();
    t.primary(['user_id', 'friend_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('friends');
}
