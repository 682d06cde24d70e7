// Attachments' limits (docs/architecture.md §3a, docs/operations.md): quotas of unsent bytes and
// of bytes a day, the sweep of unsent uploads on a timer, unsent uploads private to their
// uploader, opaque ids, and a per-user download rate. Small limits and a clock the test moves.
import { expect } from 'chai';
import sharp from 'sharp';
import { api, type Attachment } from '@common/api';
import { app, topics } from '@common/destinations';
import type { RunningServer } from '../../src/main';
import type { ApiClient } from '../support/api-client';
import { forEachDatabase } from '../support/databases';
import { connectStomp, type TestStomp } from '../support/stomp-client';
import { startTestServer } from '../support/test-server';
import { newLoggedInUser, type TestUser } from '../support/users';
import { waitFor } from '../support/wait';

interface Member { user: TestUser; client: ApiClient }

const UNSENT_QUOTA = 1000;
const DAILY_QUOTA = 2000;
const TTL_MS = 60_000;
const BURST = 5;

forEachDatabase('attachment limits', (db) => {
  let server: RunningServer;
  // The server's clock: moved by the tests (the day's quota, the sweep's age, the download rate).
  let now = Date.UTC(2026, 10, 26, 12, 0, 0);
  const open: TestStomp[] = [];

  before(async () => {
    server = await startTestServer({
      databaseUrl: db.url(),
      clock: () => now,
      env: {
        ATTACHMENTS_UNSENT_QUOTA_BYTES: String(UNSENT_QUOTA),
        ATTACHMENTS_DAILY_QUOTA_BYTES: String(DAILY_QUOTA),
        ATTACHMENTS_UNSENT_TTL_MS: String(TTL_MS),
        ATTACHMENTS_SWEEP_INTERVAL_MS: '50',
        ATTACHMENT_DOWNLOAD_BURST: String(BURST),
        ATTACHMENT_DOWNLOADS_PER_SECOND: '1',
      },
    });
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((s) => s.disconnect().catch(() => {})));
  });
  after(async () => {
    await server?.stop();
  });

  const member = async (name: string): Promise<Member> => newLoggedInUser(server, { name });
  const roomOf = async (a: Member, b: Member): Promise<number> => (await a.client.post(api.roomCreate, { targetUserId: b.user.userId })).body.chatRoomId as number;
  const upload = (m: Member, roomId: number, bytes: number) =>
    fetch(`${server.url}${api.attachmentUpload}?chatRoomId=${roomId}`, {
      method: 'POST',
      headers: { cookie: m.client.cookieHeader(), 'content-type': 'text/plain', 'x-file-name': 'f.txt' },
      body: new Uint8Array(Buffer.alloc(bytes, 'x')),
    });
  const uploaded = async (m: Member, roomId: number, bytes: number): Promise<Attachment> => {
    const res = await upload(m, roomId, bytes);
    expect(res.status, await res.clone().text()).to.equal(200);
    return (await res.json()) as Attachment;
  };
  const send = async (m: Member, roomId: number, att: Attachment) => {
    const stomp = await connectStomp(server, m.client.cookieHeader());
    open.push(stomp);
    const inbox = await stomp.subscribe(topics.privateChat(roomId));
    await stomp.send(app.privateMessage, { chatRoomId: roomId, content: '', attachmentId: att.attachmentId });
    await inbox.next();
  };
  const get = (m: Member, path: string, headers: Record<string, string> = {}) => fetch(server.url + path, { headers: { cookie: m.client.cookieHeader(), ...headers } });
  const rowOf = (att: Attachment) => server.db('attachments').where({ public_id: att.attachmentId }).first();

  it('refuses uploads past the unsent quota with 413 (declared or counted), and past the day\'s with 429 until midnight UTC', async () => {
    const a = await member('Quota');
    const b = await member('Quota Friend');
    const roomId = await roomOf(a, b);
    const first = await uploaded(a, roomId, 600);
    const over = await upload(a, roomId, 600);
    expect(over.status).to.equal(413);
    const refusal = (await over.json()) as { error: string; message: string };
    expect(refusal.error).to.equal('quota_exceeded');
    expect(refusal.message).to.match(/not sent yet may hold at most/);
    // Nothing of the refused upload is kept.
    expect(Number((await server.db('attachments').where({ uploader_id: a.user.userId }).count({ n: '*' }).first())?.n)).to.equal(1);

    // Sending frees the unsent quota; the day's keeps counting.
    await send(a, roomId, first);
    const second = await uploaded(a, roomId, 600);
    await send(a, roomId, second);
    const third = await uploaded(a, roomId, 600); // 1800 bytes today
    await send(a, roomId, third);
    const tooMuchToday = await upload(a, roomId, 300);
    expect(tooMuchToday.status).to.equal(429);
    expect(((await tooMuchToday.json()) as { message: string }).message).to.match(/a day/);
    expect(Number(tooMuchToday.headers.get('retry-after'))).to.equal(12 * 3600); // noon to midnight UTC
    expect((await uploaded(a, roomId, 150)).size, 'what fits in the day still goes').to.equal(150);

    // Another user has quotas of their own; with no length declared, the bytes are counted as
    // they come and the upload refused once past the quota, nothing kept.
    const c = await member('Quota Other');
    const otherRoom = await roomOf(c, b);
    await uploaded(c, otherRoom, 900);
    const pieces = [Buffer.alloc(80, 'y'), Buffer.alloc(80, 'y')];
    const chunked = await fetch(`${server.url}${api.attachmentUpload}?chatRoomId=${otherRoom}`, {
      method: 'POST',
      headers: { cookie: c.client.cookieHeader(), 'content-type': 'text/plain', 'x-file-name': 'g.txt' },
      body: new ReadableStream({ pull(ctl) { const p = pieces.shift(); if (p) ctl.enqueue(new Uint8Array(p)); else ctl.close(); } }),
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).to.equal(413);
    expect(Number((await server.db('attachments').where({ uploader_id: c.user.userId }).count({ n: '*' }).first())?.n)).to.equal(1);

    // The next UTC day starts afresh (the unsent 150 bytes still count against the unsent quota).
    now += 12 * 3600_000;
    const tomorrow = await uploaded(a, roomId, 800);
    await send(a, roomId, tomorrow);
    now -= 12 * 3600_000;
  });

  it('sweeps uploads never sent on its timer, whoever made them, and keeps those sent', async () => {
    const a = await member('Sweep');
    const b = await member('Sweep Friend');
    const roomId = await roomOf(a, b);
    const sent = await uploaded(a, roomId, 100);
    await send(a, roomId, sent);
    const draftA = await uploaded(a, roomId, 100);
    const draftB = await uploaded(b, roomId, 100);
    const keys = [(await rowOf(draftA)).blob_key as string, (await rowOf(draftB)).blob_key as string];
    const chunks = async () => Number((await server.db('attachment_chunks').whereIn('blob_key', keys).count({ n: '*' }).first())?.n);
    expect(await chunks()).to.equal(2);

    // Nobody uploads again: the timer alone removes them once they are older than the age.
    now += TTL_MS + 1;
    // The sweep removes a row, then its bytes (a crash between leaves bytes, never a row without them).
    await waitFor(async () => (await rowOf(draftA)) === undefined && (await rowOf(draftB)) === undefined, 'both unsent uploads swept');
    await waitFor(async () => (await chunks()) === 0, 'their bytes removed too');
    expect(await rowOf(sent), 'the sent one stays').to.not.equal(undefined);
    expect((await get(b, sent.url)).status).to.equal(200);
    expect((await get(a, draftA.url)).status).to.equal(404);
  });

  it('lets only its uploader download an upload not sent yet; members get 404 until it is sent', async () => {
    now += 10_000; // a fresh download bucket
    const a = await member('Drafter');
    const b = await member('Peeker');
    const roomId = await roomOf(a, b);
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: { r: 1, g: 2, b: 3 } } }).png().toBuffer();
    const res = await fetch(`${server.url}${api.attachmentUpload}?chatRoomId=${roomId}`, {
      method: 'POST', headers: { cookie: a.client.cookieHeader(), 'content-type': 'image/png', 'x-file-name': 'p.png' }, body: new Uint8Array(png),
    });
    const draft = (await res.json()) as Attachment;
    expect(draft.thumbnailUrl).to.be.a('string');
    expect((await get(b, draft.url)).status).to.equal(404);
    expect((await get(b, draft.thumbnailUrl!)).status).to.equal(404);
    expect((await get(b, draft.url, { range: 'bytes=0-0' })).status).to.equal(404);
    expect((await get(a, draft.url)).status).to.equal(200);
    expect((await get(a, draft.thumbnailUrl!)).status).to.equal(200);
    await send(a, roomId, draft);
    expect((await get(b, draft.url)).status).to.equal(200);
    expect((await get(b, draft.thumbnailUrl!)).status).to.equal(200);
  });

  it('names attachments by opaque random ids: 22 characters of base64url, not the row\'s number', async () => {
    now += 10_000;
    const a = await member('Ids');
    const b = await member('Ids Friend');
    const roomId = await roomOf(a, b);
    const one = await uploaded(a, roomId, 10);
    const two = await uploaded(a, roomId, 10);
    for (const att of [one, two]) {
      expect(att.attachmentId).to.match(/^[A-Za-z0-9_-]{22}$/);
      expect(att.url).to.equal(api.attachment(att.attachmentId));
    }
    expect(one.attachmentId).to.not.equal(two.attachmentId);
    const rowId = Number((await rowOf(two)).id);
    expect((await get(a, `/api/attachments/${rowId}`)).status, 'the sequential id names nothing').to.equal(404);
    expect((await get(a, `/api/attachments/${rowId - 1}`)).status).to.equal(404);
    expect((await get(a, two.url)).status).to.equal(200);
  });

  it('limits one user\'s downloads (429 with Retry-After on a 1-byte range flood) without slowing another user\'s', async () => {
    now += 10_000;
    const a = await member('Flooder');
    const b = await member('Neighbour');
    const roomId = await roomOf(a, b);
    const att = await uploaded(a, roomId, 100);
    await send(a, roomId, att);
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < BURST + 3; i += 1) {
      const res = await get(a, att.url, { range: 'bytes=0-0' });
      statuses.push(res.status);
      if (res.status === 429) retryAfter = res.headers.get('retry-after');
      await res.arrayBuffer();
    }
    expect(statuses.slice(0, BURST)).to.deep.equal(Array(BURST).fill(206));
    expect(statuses.slice(BURST)).to.deep.equal([429, 429, 429]);
    expect(retryAfter).to.equal('1');
    expect((await get(b, att.url, { range: 'bytes=0-0' })).status, 'the neighbour has a bucket of their own').to.equal(206);
    now += 1000;
    expect((await get(a, att.url, { range: 'bytes=0-0' })).status, 'a second later a token is back').to.equal(206);
    expect((await get(a, att.url, { range: 'bytes=0-0' })).status).to.equal(429);
  });
});
