import { expect } from 'chai';
import { createDatabase, type Knex } from '../../src/db/knex';
import { migrationFiles } from '../../src/db/migration-files';
import { forEachDatabase } from '../support/databases';

forEachDatabase('the per-room seq migration', (db) => {
  let knex: Knex;
  after(async () => {
    await knex?.destroy();
  });

  it('numbers existing messages per room in id order, sets each room\'s counter and turns read markers into read positions', async () => {
    knex = createDatabase(db.url());
    const source = { migrationSource: migrationFiles() };
    // Up to the last migration before sequence numbers.
    for (;;) {
      const [, pending] = (await knex.migrate.list(source)) as [unknown, Array<{ file: string } | string>];
      const next = pending.map((p) => (typeof p === 'string' ? p : p.file))[0];
      if (next === undefined || next >= '20261125110000') break;
      await knex.migrate.up(source);
    }
    const [ann, ben] = [1, 2];
    await knex('users').insert([ann, ben].map((id) => ({ id, email: `u${id}@example.test`, name: `User ${id}` })));
    await knex('rooms').insert([{ id: 1, name: 'One', created_at_ms: 0 }, { id: 2, name: 'Two', created_at_ms: 0 }, { id: 3, name: 'Empty', created_at_ms: 0 }]);
    await knex('room_members').insert([
      { room_id: 1, user_id: ann, joined_at_ms: 0 }, { room_id: 1, user_id: ben, joined_at_ms: 0 },
      { room_id: 2, user_id: ann, joined_at_ms: 0 }, { room_id: 3, user_id: ann, joined_at_ms: 0 },
    ]);
    // Interleaved rooms: ids 1..7 → room 1 gets 1,3,5,7 and room 2 gets 2,4,6.
    for (let id = 1; id <= 7; id++) {
      await knex('messages').insert({ id, room_id: id % 2 ? 1 : 2, sender_id: id === 5 || id === 7 ? ben : ann, content: `m${id}`, created_at_ms: id });
    }
    // Ann read room 1 up to message 3 (its seq 2); Ben never marked it, but sent messages 5 and 7 (seqs 3 and 4).
    await knex('room_members').where({ room_id: 1, user_id: ann }).update({ last_read_message_id: 3, last_read_at_ms: 3 });

    await knex.migrate.latest(source);

    const seqs = (await knex('messages').select('id', 'room_id', 'seq').orderBy('id')).map((r: { id: number; room_id: number; seq: number }) => [Number(r.id), Number(r.room_id), Number(r.seq)]);
    expect(seqs).to.deep.equal([[1, 1, 1], [2, 2, 1], [3, 1, 2], [4, 2, 2], [5, 1, 3], [6, 2, 3], [7, 1, 4]]);
    const counters = (await knex('rooms').select('id', 'last_seq').orderBy('id')).map((r: { id: number; last_seq: number }) => [Number(r.id), Number(r.last_seq)]);
    expect(counters).to.deep.equal([[1, 4], [2, 3], [3, 0]]);
    const reads = (await knex('room_members').select('room_id', 'user_id', 'last_read_seq').orderBy(['room_id', 'user_id']))
      .map((r: { room_id: number; user_id: number; last_read_seq: number }) => [Number(r.room_id), Number(r.user_id), Number(r.last_read_seq)]);
    // Ann in room 2 sent every message there, so she has read it all.
    expect(reads).to.deep.equal([[1, ann, 2], [1, ben, 4], [2, ann, 3], [3, ann, 0]]);
  });
});
