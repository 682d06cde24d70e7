import { expect } from 'chai';
import { createDatabase, type Knex } from '../../src/db/knex';
import { migrationFiles } from '../../src/db/migration-files';
import { forEachDatabase } from '../support/databases';

forEachDatabase('the attachment public id migration', (db) => {
  let knex: Knex;
  after(async () => {
    await knex?.destroy();
  });

  it('gives every existing upload a distinct opaque public id, so messages sent before keep their attachment', async () => {
    knex = createDatabase(db.url());
    const source = { migrationSource: migrationFiles() };
    // Up to the last migration before public ids.
    for (;;) {
      const [, pending] = (await knex.migrate.list(source)) as [unknown, Array<{ file: string } | string>];
      const next = pending.map((p) => (typeof p === 'string' ? p : p.file))[0];
      if (next === undefined || next >= '20261126100000') break;
      await knex.migrate.up(source);
    }
    await knex('users').insert({ id: 1, email: 'u1@example.test', name: 'User' });
    await knex('rooms').insert({ id: 1, name: 'One', created_at_ms: 0 });
    for (let id = 1; id <= 3; id += 1) {
      await knex('attachments').insert({
        id, room_id: 1, uploader_id: 1, name: `f${id}`, content_type: 'text/plain', size: 1, blob_key: `k${id}`, created_at_ms: id,
      });
    }

    await knex.migrate.latest(source);

    const ids = ((await knex('attachments').select('public_id').orderBy('id')) as Array<{ public_id: string }>).map((r) => r.public_id);
    expect(ids).to.have.length(3);
    for (const id of ids) expect(id).to.match(/^[A-Za-z0-9_-]{22}$/);
    expect(new Set(ids).size).to.equal(3);
  });
});
