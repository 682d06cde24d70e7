import { expect } from 'chai';
import { createDatabase, type Knex } from '../../src/db/knex';
import { migrationFiles } from '../../src/db/migration-files';
import { forEachDatabase } from '../support/databases';

forEachDatabase('the drawer migration (message_attachments, message_links)', (db) => {
  let knex: Knex;
  after(async () => {
    await knex?.destroy();
  });

  it('files the attachments and links of messages sent before it: photos and files apart, deleted messages and texts without a link left out', async () => {
    knex = createDatabase(db.url());
    const source = { migrationSource: migrationFiles() };
    for (;;) {
      const [, pending] = (await knex.migrate.list(source)) as [unknown, Array<{ file: string } | string>];
      const next = pending.map((p) => (typeof p === 'string' ? p : p.file))[0];
      if (next === undefined || next >= '20261129120000') break;
      await knex.migrate.up(source);
    }
    await knex('users').insert({ id: 1, email: 'u1@example.test', name: 'User' });
    await knex('rooms').insert({ id: 1, name: 'One', created_at_ms: 0, last_seq: 5 });
    const attachment = (id: number, type: string, thumb: string | null) => ({
      id, public_id: `p${id}`.padEnd(22, 'x'), room_id: 1, uploader_id: 1, name: `f${id}`, content_type: type, size: 1, blob_key: `k${id}`, thumb_key: thumb, created_at_ms: id,
    });
    await knex('attachments').insert([attachment(1, 'image/png', 't1'), attachment(2, 'application/pdf', null), attachment(3, 'image/png', 't3')]);
    const message = (id: number, content: string, extra: object = {}) => ({ id, room_id: 1, seq: id, sender_id: 1, content, created_at_ms: id, ...extra });
    await knex('messages').insert([
      message(1, '', { attachment_id: 1 }),
      message(2, 'see https://example.com/x.', { attachment_id: 2 }),
      message(3, 'no link, just http words'),
      message(4, '', { attachment_id: 3, deleted_at_ms: 9 }),
      message(5, 'https://gone.example/', { deleted_at_ms: 9 }),
    ]);

    await knex.migrate.latest(source);

    expect(await knex('message_attachments').select('message_id', 'position', 'attachment_id', 'room_id', 'kind').orderBy('message_id')).to.deep.equal([
      { message_id: 1, position: 0, attachment_id: 1, room_id: 1, kind: 'photo' },
      { message_id: 2, position: 0, attachment_id: 2, room_id: 1, kind: 'file' },
    ]);
    expect(await knex('message_links').select('message_id', 'room_id')).to.deep.equal([{ message_id: 2, room_id: 1 }]);
  });
});
