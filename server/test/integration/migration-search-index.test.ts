import { expect } from 'chai';
import { createDatabase, type Knex } from '../../src/db/knex';
import { migrationFiles } from '../../src/db/migration-files';
import { searchEngineFor } from '../../src/features/chat/message-search-repository';
import { forEachDatabase } from '../support/databases';

forEachDatabase('the search index migration', (db) => {
  let knex: Knex;
  after(async () => {
    await knex?.destroy();
  });

  it('indexes the messages already stored, people\'s and not deleted ones only, so they are found at once', async () => {
    knex = createDatabase(db.url());
    const source = { migrationSource: migrationFiles() };
    // Up to the last migration before the index.
    for (;;) {
      const [, pending] = (await knex.migrate.list(source)) as [unknown, Array<{ file: string } | string>];
      const next = pending.map((p) => (typeof p === 'string' ? p : p.file))[0];
      if (next === undefined || next >= '20261125140000') break;
      await knex.migrate.up(source);
    }
    await knex('users').insert([1, 2].map((id) => ({ id, email: `u${id}@example.test`, name: `User ${id}` })));
    await knex('rooms').insert([{ id: 1, name: 'One', created_at_ms: 0, last_seq: 2004 }, { id: 2, name: 'Two', created_at_ms: 0, last_seq: 1 }]);
    await knex('room_members').insert([{ room_id: 1, user_id: 1, joined_at_ms: 0 }, { room_id: 2, user_id: 2, joined_at_ms: 0 }]);
    // More than one backfill batch (2000 messages).
    const many = Array.from({ length: 2001 }, (_, i) => ({ id: i + 1, room_id: 1, seq: i + 1, sender_id: 2, content: `메시지 ${i}`, created_at_ms: i }));
    for (let i = 0; i < many.length; i += 500) await knex('messages').insert(many.slice(i, i + 500));
    await knex('messages').insert([
      { id: 3000, room_id: 1, seq: 2002, sender_id: 1, content: 'Old 회의록', created_at_ms: 1 },
      { id: 3001, room_id: 1, seq: 2003, sender_id: 1, content: '', deleted_at_ms: 5, created_at_ms: 2 },
      { id: 3002, room_id: 1, seq: 2004, sender_id: null, content: '회의 system', created_at_ms: 3 },
      { id: 3003, room_id: 2, seq: 1, sender_id: 2, content: '남의 회의', created_at_ms: 4 },
    ]);

    await knex.migrate.latest(source);

    const engine = searchEngineFor(knex);
    const contents = async (keyword: string, userId = 1) => (await engine.search(keyword, { userId, limit: 21 })).map((h) => h.content);
    expect(await contents('회의')).to.deep.equal(['Old 회의록']);
    expect(await contents('old')).to.deep.equal(['Old 회의록']);
    expect(await contents('2000')).to.deep.equal(['메시지 2000']);
    expect(await contents('메시지 0')).to.deep.equal(['메시지 0']);
    expect(await contents('회의', 2)).to.deep.equal(['남의 회의']);
    const rows = await knex('message_bigrams').whereIn('message_id', [3001, 3002]).count({ n: '*' });
    expect(Number(rows[0].n)).to.equal(0);
  });
});
