import { expect } from 'chai';
import { createDatabase, type Knex } from '../../src/db/knex';
import { changedRows, rowsOf } from '../../src/db/results';
import { updateFromValues } from '../../src/db/update-from-values';
import { forEachDatabase } from '../support/databases';

forEachDatabase('one UPDATE giving many keyed rows their own values (db/update-from-values)', (db) => {
  let knex: Knex;
  before(async () => {
    knex = createDatabase(db.url());
    await knex.schema.createTable('positions', (t) => {
      t.integer('room_id').notNullable();
      t.integer('user_id').notNullable();
      t.integer('seq').notNullable();
      t.bigInteger('at_ms').nullable();
      t.primary(['room_id', 'user_id']);
    });
  });
  after(async () => {
    await knex?.destroy();
  });

  it('moves each keyed row to its own values where the condition holds, and touches no other row', async () => {
    // 40 rooms of 10 members at seq 5, one without a time stamp.
    await knex('positions').insert(Array.from({ length: 400 }, (_x, i) => ({ room_id: Math.floor(i / 10), user_id: i, seq: 5, at_ms: i === 8 ? null : 1 })));
    const sqlite = knex.client.config.client === 'better-sqlite3';
    // 300 positions (a full batch of ReadMarkers): forward, backward, equal, and equal on the unstamped row.
    const rows = Array.from({ length: 300 }, (_x, i) => [Math.floor(i / 10), i, i % 3 === 0 ? 9 + i : i % 3 === 1 ? 4 : 5, 1000 + i]);
    const { sql, bindings } = updateFromValues(sqlite, {
      table: 'positions',
      columns: ['room_id', 'user_id', 'seq', 'at_ms'],
      rows,
      key: ['room_id', 'user_id'],
      set: [['seq', 'seq'], ['at_ms', 'at_ms']],
      where: 't.seq < v.seq or (t.seq = v.seq and t.at_ms is null)',
    });
    const moved = changedRows(await knex.raw(sql, bindings as Knex.RawBinding[]));

    const stored = rowsOf<{ user_id: number; seq: number; at_ms: number | null }>(await knex.raw('select user_id, seq, at_ms from positions order by user_id'));
    const expected = Array.from({ length: 400 }, (_x, i) => {
      if (i < 300 && i % 3 === 0) return { user_id: i, seq: 9 + i, at_ms: 1000 + i };
      if (i === 8) return { user_id: i, seq: 5, at_ms: 1008 }; // equal seq, time stamped once
      return { user_id: i, seq: 5, at_ms: 1 };
    });
    expect(stored.map((r) => ({ user_id: Number(r.user_id), seq: Number(r.seq), at_ms: r.at_ms === null ? null : Number(r.at_ms) }))).to.deep.equal(expected);
    expect(moved).to.equal(101);
  });
});
