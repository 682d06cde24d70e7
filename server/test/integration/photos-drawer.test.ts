// Ours (issue 27): several photos sent at once as one message (attachmentIds → attachments), and
// the room's drawer (GET /api/chat-room/media): photos, files and links, newest first, paged,
// members only, without deleted messages. On both databases, through a real server.
import crypto from 'node:crypto';
import { expect } from 'chai';
import sharp from 'sharp';
import { api, type Attachment, type ChatHistoryResponse, type MediaPage } from '@common/api';
import { app, topics } from '@common/destinations';
import { decodeChatMessage } from '@common/events';
import { LIMITS } from '@common/rules';
import type { RunningServer } from '../../src/main';
import type { ApiClient } from '../support/api-client';
import { forEachDatabase } from '../support/databases';
import { connectStomp, StompErrorFrame, type TestStomp } from '../support/stomp-client';
import { startTestServer } from '../support/test-server';
import { newLoggedInUser, type TestUser } from '../support/users';

interface Member { user: TestUser; client: ApiClient; stomp: TestStomp }

/** A small PNG of one colour: each is a distinct photo. */
const png = (n: number) => sharp({ create: { width: 16 + (n % 7), height: 12, channels: 3, background: { r: (n * 37) % 256, g: (n * 91) % 256, b: 40 } } }).png().toBuffer();

forEachDatabase('several photos at once and the room\'s drawer', (db) => {
  let server: RunningServer;
  const open: TestStomp[] = [];

  before(async () => {
    server = await startTestServer({ databaseUrl: db.url() });
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((s) => s.disconnect().catch(() => {})));
  });
  after(async () => {
    await server?.stop();
  });

  const member = async (name: string): Promise<Member> => {
    const { user, client } = await newLoggedInUser(server, { name });
    const stomp = await connectStomp(server, client.cookieHeader());
    open.push(stomp);
    return { user, client, stomp };
  };
  const roomOf = async (a: Member, b: Member): Promise<number> => (await a.client.post(api.roomCreate, { targetUserId: b.user.userId })).body.chatRoomId as number;
  const uploaded = async (m: Member, roomId: number, body: Buffer, type: string, name: string): Promise<Attachment> => {
    const res = await fetch(`${server.url}${api.attachmentUpload}?chatRoomId=${roomId}`, {
      method: 'POST',
      headers: { cookie: m.client.cookieHeader(), 'content-type': type, 'x-file-name': encodeURIComponent(name) },
      body: new Uint8Array(body),
    });
    expect(res.status, await res.clone().text()).to.equal(200);
    return (await res.json()) as Attachment;
  };
  const photos = async (m: Member, roomId: number, count: number, from = 0): Promise<Attachment[]> => {
    const out: Attachment[] = [];
    for (let i = 0; i < count; i += 1) out.push(await uploaded(m, roomId, await png(from + i), 'image/png', `p${from + i}.png`));
    return out;
  };
  const get = (m: Member, path: string) => fetch(server.url + path, { headers: { cookie: m.client.cookieHeader() } });
  const refusal = async (m: Member, body: object): Promise<string> => {
    const stomp = await connectStomp(server, m.client.cookieHeader());
    open.push(stomp);
    try {
      await stomp.send(app.privateMessage, body);
    } catch (err) {
      if (err instanceof StompErrorFrame) return err.frame.headers.message ?? '';
      throw err;
    }
    throw new Error('expected the server to refuse with an ERROR frame');
  };
  /** Sends and answers the message as the room's topic delivered it. */
  const send = async (m: Member, roomId: number, body: object) => {
    const inbox = await m.stomp.subscribe(topics.privateChat(roomId));
    try {
      await m.stomp.send(app.privateMessage, { chatRoomId: roomId, content: '', ...body });
      return decodeChatMessage((await inbox.next()).json(), roomId)!;
    } finally {
      inbox.unsubscribe();
    }
  };
  const drawer = (m: Member, roomId: number, kind: string, before?: string) =>
    m.client.get<MediaPage>(`${api.roomMedia}?chatRoomId=${roomId}&kind=${kind}${before === undefined ? '' : `&before=${encodeURIComponent(before)}`}`);

  it('sends up to 30 photos as one message: in order on the topic and in history, the first as `attachment`; deleting it removes them all', async () => {
    const a = await member('Alice');
    const b = await member('Bob');
    const roomId = await roomOf(a, b);
    const album = await photos(a, roomId, 3);
    const inbox = await b.stomp.subscribe(topics.privateChat(roomId));
    await a.stomp.send(app.privateMessage, { chatRoomId: roomId, content: '여행', attachmentIds: album.map((p) => p.attachmentId) });
    const live = decodeChatMessage((await inbox.next()).json(), roomId)!;
    expect(live.attachments).to.deep.equal(album);
    expect(live.attachment).to.deep.equal(album[0]);
    expect(live.content).to.equal('여행');
    // Sent: every photo of it is the room's now (the other member reads them), none an unsent upload.
    for (const p of album) expect((await get(b, p.url)).status).to.equal(200);
    expect(await refusal(a, { chatRoomId: roomId, content: '', attachmentIds: [album[1].attachmentId, (await photos(a, roomId, 1, 10))[0].attachmentId] })).to.match(/sent already/);

    const history = (await b.client.get<ChatHistoryResponse>(`${api.chatHistory}?chatRoomId=${roomId}&page=0`)).body;
    const inHistory = history.messages.find((m) => m.messageId === live.messageId)!;
    expect(inHistory.attachments).to.deep.equal(album);
    expect(inHistory.attachment).to.deep.equal(album[0]);

    await a.stomp.send(app.deleteMessage, { chatRoomId: roomId, messageId: live.messageId });
    for (const p of album) expect((await get(b, p.url)).status).to.equal(404);
    expect(await server.db('attachments').whereIn('public_id', album.map((p) => p.attachmentId))).to.deep.equal([]);
    const after = (await b.client.get<ChatHistoryResponse>(`${api.chatHistory}?chatRoomId=${roomId}&page=0`)).body;
    const deleted = after.messages.find((m) => m.messageId === live.messageId)!;
    expect(deleted.deleted).to.equal(true);
    expect(deleted.attachments).to.equal(undefined);
    expect(deleted.attachment).to.equal(undefined);
    expect((await drawer(b, roomId, 'photo')).body.items).to.deep.equal([]);
  });

  it('sends 30 photos at once and refuses 31, a file among photos, someone else\'s upload, another room\'s, a photo named twice, and both fields', async () => {
    const a = await member('Alice');
    const b = await member('Bob');
    const c = await member('Carol');
    const roomId = await roomOf(a, b);
    const otherRoom = await roomOf(a, c);
    const album = await photos(a, roomId, LIMITS.photosPerMessage);
    const ids = album.map((p) => p.attachmentId);
    const unknown = crypto.randomBytes(16).toString('base64url');
    expect(await refusal(a, { chatRoomId: roomId, content: '', attachmentIds: [...ids, unknown] })).to.match(/at most 30/);
    const text = await uploaded(a, roomId, Buffer.from('hello'), 'text/plain', 'note.txt');
    expect(await refusal(a, { chatRoomId: roomId, content: '', attachmentIds: [ids[0], text.attachmentId] })).to.match(/only photos/);
    const bobs = (await photos(b, roomId, 1, 40))[0];
    expect(await refusal(a, { chatRoomId: roomId, content: '', attachmentIds: [ids[0], bobs.attachmentId] })).to.match(/uploader/);
    const elsewhere = (await photos(a, otherRoom, 1, 41))[0];
    expect(await refusal(a, { chatRoomId: roomId, content: '', attachmentIds: [ids[0], elsewhere.attachmentId] })).to.match(/another room/);
    expect(await refusal(a, { chatRoomId: roomId, content: '', attachmentIds: [ids[0], ids[1], ids[0]] })).to.match(/twice/);
    expect(await refusal(a, { chatRoomId: roomId, content: '', attachmentIds: [ids[0], unknown] })).to.match(/no such attachment/);
    expect(await refusal(a, { chatRoomId: roomId, content: '', attachmentIds: [ids[1]], attachmentId: ids[0] })).to.match(/not both/);
    expect(await refusal(a, { chatRoomId: roomId, content: '', attachmentIds: [] })).to.match(/attachmentIds/);
    // Nothing of the refused ones was sent: all 30 go in one message.
    const sent = await send(a, roomId, { attachmentIds: ids });
    expect(sent.attachments?.map((p) => p.attachmentId)).to.deep.equal(ids);
  });

  it('answers the drawer\'s photos newest first a page of 50, then the rest by its cursor; files and links apart; deleted messages left out', async () => {
    const a = await member('Alice');
    const b = await member('Bob');
    const roomId = await roomOf(a, b);
    const first = await photos(a, roomId, 30);
    const m1 = await send(a, roomId, { attachmentIds: first.map((p) => p.attachmentId) });
    const link = await send(b, roomId, { content: '이거 봐 https://example.com/a?b=1.' });
    const second = await photos(a, roomId, 21, 30);
    const m2 = await send(a, roomId, { attachmentIds: second.map((p) => p.attachmentId) });
    const file = await send(b, roomId, { attachmentId: (await uploaded(b, roomId, Buffer.from('%PDF-1.4'), 'application/pdf', '계약서.pdf')).attachmentId });
    const single = await send(b, roomId, { attachmentId: (await photos(b, roomId, 1, 60))[0].attachmentId });
    await send(a, roomId, { content: 'no link here' });
    const edited = await send(a, roomId, { content: 'http://old.example/x' });
    await a.stomp.send(app.editMessage, { chatRoomId: roomId, messageId: edited.messageId, content: 'now https://new.example/y' });
    const gone = await send(a, roomId, { content: 'https://deleted.example/' });
    await a.stomp.send(app.deleteMessage, { chatRoomId: roomId, messageId: gone.messageId });

    const newestFirst = [single.attachment!, ...[...second].reverse(), ...[...first].reverse()];
    const page1 = (await drawer(b, roomId, 'photo')).body;
    expect(page1.hasMore).to.equal(true);
    expect(page1.items.map((i) => i.attachment)).to.deep.equal(newestFirst.slice(0, 50));
    expect(page1.items[0]).to.include({ messageId: single.messageId, seq: single.seq, senderId: b.user.userId, senderName: 'Bob', cursor: `${single.messageId}.0` });
    expect(page1.items[1]).to.include({ messageId: m2.messageId, cursor: `${m2.messageId}.20` });
    const page2 = (await drawer(b, roomId, 'photo', page1.items.at(-1)!.cursor)).body;
    expect(page2.hasMore).to.equal(false);
    expect(page2.items.map((i) => i.attachment)).to.deep.equal(newestFirst.slice(50));
    expect(page2.items.map((i) => i.messageId)).to.deep.equal([m1.messageId, m1.messageId]);
    // Before a message: all of it and what is older.
    expect((await drawer(b, roomId, 'photo', String(m2.messageId))).body.items.map((i) => i.attachment)).to.deep.equal([...first].reverse());

    const files = (await drawer(a, roomId, 'file')).body;
    expect(files).to.deep.equal({ hasMore: false, items: [{ ...files.items[0], attachment: file.attachment, messageId: file.messageId }] });
    expect(files.items[0].attachment!.name).to.equal('계약서.pdf');

    const links = (await drawer(a, roomId, 'link')).body;
    expect(links.hasMore).to.equal(false);
    expect(links.items.map((i) => [i.messageId, i.url, i.cursor])).to.deep.equal([
      [edited.messageId, 'https://new.example/y', String(edited.messageId)],
      [link.messageId, 'https://example.com/a?b=1', String(link.messageId)],
    ]);
    expect((await drawer(a, roomId, 'link', String(edited.messageId))).body.items.map((i) => i.messageId)).to.deep.equal([link.messageId]);

    // Deleting the newest album takes it out of the drawer.
    await a.stomp.send(app.deleteMessage, { chatRoomId: roomId, messageId: m2.messageId });
    const afterDelete = (await drawer(b, roomId, 'photo')).body;
    expect(afterDelete.items.map((i) => i.attachment)).to.deep.equal([single.attachment!, ...[...first].reverse()]);
  });

  it('forwards an album whole (every photo readable in the other room, in its drawer), keeps the photos while the forward shows them, and leaves out of the drawer what the reader hid', async () => {
    const a = await member('Alice');
    const b = await member('Bob');
    const c = await member('Carol');
    const source = await roomOf(a, b);
    const target = await roomOf(b, c);
    const album = await photos(a, source, 3, 80);
    const original = await send(a, source, { content: '앨범', attachmentIds: album.map((p) => p.attachmentId) });
    const inbox = await c.stomp.subscribe(topics.privateChat(target));
    await b.stomp.send(app.forwardMessage, { messageId: original.messageId, chatRoomIds: [target] });
    const forward = decodeChatMessage((await inbox.next()).json(), target)!;
    expect(forward.forwarded).to.equal(true);
    expect(forward.attachments).to.deep.equal(album);
    expect(forward.attachment).to.deep.equal(album[0]);
    // Carol is in the forward's room only: she reads every photo of it, and her drawer lists them.
    for (const p of album) expect((await get(c, p.url)).status, p.url).to.equal(200);
    const listed = (await drawer(c, target, 'photo')).body.items.map((i) => i.attachment?.attachmentId);
    expect(listed).to.deep.equal(album.map((p) => p.attachmentId).reverse());

    // The original deleted: the forward still shows them, so they stay.
    await a.stomp.send(app.deleteMessage, { chatRoomId: source, messageId: original.messageId });
    await a.stomp.roundTrip();
    for (const p of album) expect((await get(c, p.url)).status, p.url).to.equal(200);

    // Carol hides the forward: gone from her drawer, still in Bob's.
    await c.stomp.send(app.hideMessage, { messageId: forward.messageId });
    await c.stomp.roundTrip();
    expect((await drawer(c, target, 'photo')).body.items).to.deep.equal([]);
    expect((await drawer(b, target, 'photo')).body.items).to.have.length(3);
  });

  it('refuses the drawer to a non-member (403), a bad kind or cursor (400)', async () => {
    const a = await member('Alice');
    const b = await member('Bob');
    const c = await member('Carol');
    const roomId = await roomOf(a, b);
    await send(a, roomId, { attachmentIds: (await photos(a, roomId, 2)).map((p) => p.attachmentId) });
    expect((await drawer(c, roomId, 'photo')).status).to.equal(403);
    expect((await drawer(c, 999_999, 'photo')).status).to.equal(403);
    expect((await drawer(a, roomId, 'video')).status).to.equal(400);
    expect((await c.client.get(`${api.roomMedia}?chatRoomId=${roomId}`)).status).to.equal(400);
    expect((await drawer(a, roomId, 'photo', 'abc')).status).to.equal(400);
    expect((await drawer(a, roomId, 'photo', '12.x')).status).to.equal(400);
    expect((await drawer(a, roomId, 'photo')).body.items).to.have.length(2);
    expect((await fetch(`${server.url}${api.roomMedia}?chatRoomId=${roomId}&kind=photo`)).status).to.equal(401);
  });

  it('reads a page of the drawer along its index: the plan names message_attachments_drawer and message_links_drawer', async () => {
    const { MediaRepository } = await import('../../src/features/chat/media-repository');
    const seen: Array<{ sql: string; bindings: unknown[] }> = [];
    const listen = (q: { sql: string; bindings: unknown[] }) => { if (/from .message_(attachments|links)/.test(q.sql)) seen.push(q); };
    server.db.on('query', listen);
    try {
      const repo = new MediaRepository(server.db);
      await repo.page(1, 'photo', { userId: 1, visibleFromSeq: 5, blocked: [7] }, { messageId: 100, position: 3 }, 51);
      await repo.page(1, 'link', { userId: 1, visibleFromSeq: 0, blocked: [] }, { messageId: 100 }, 51);
    } finally {
      server.db.removeListener('query', listen);
    }
    expect(seen).to.have.length(2);
    for (const [q, index] of [[seen[0], 'message_attachments_drawer'], [seen[1], 'message_links_drawer']] as const) {
      const plan = JSON.stringify(db.kind === 'sqlite'
        ? await server.db.raw(`explain query plan ${q.sql}`, q.bindings as never[])
        : await server.db.raw(`explain ${q.sql}`, q.bindings as never[]));
      expect(plan, plan).to.include(index);
      expect(plan, 'no sort beyond the index').to.not.match(/filesort|TEMP B-TREE/i);
    }
  });
});
