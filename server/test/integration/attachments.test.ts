import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { expect } from 'chai';
import sharp from 'sharp';
import { api, type Attachment, type ChatHistoryResponse, type ChatMessage } from '@common/api';
import { app, topics } from '@common/destinations';
import { decodeChatMessage } from '@common/events';
import { LIMITS } from '@common/rules';
import type { RunningServer } from '../../src/main';
import type { ApiClient } from '../support/api-client';
import { forEachDatabase } from '../support/databases';
import { connectStomp, StompErrorFrame, type TestStomp } from '../support/stomp-client';
import { startTestServer } from '../support/test-server';
import { newLoggedInUser, type TestUser } from '../support/users';
import { waitFor } from '../support/wait';

interface Member { user: TestUser; client: ApiClient; stomp: TestStomp }

const MiB = 1024 * 1024;

// Live memory, garbage collected first: what the process holds, not what it has yet to free
// (an upload streamed through 256 KiB pieces leaves tens of MiB of garbage between collections).
v8.setFlagsFromString('--expose-gc');
const collectGarbage = vm.runInNewContext('gc') as () => void;
const liveMemory = () => {
  collectGarbage();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
};

/** A JPEG 1200×600 as stored, turned a quarter by its EXIF orientation (6), with a camera note. */
async function photoWithExif(): Promise<Buffer> {
  return sharp({ create: { width: 1200, height: 600, channels: 3, background: { r: 200, g: 60, b: 30 } } })
    .jpeg()
    .withExif({ IFD0: { Make: 'SecretCam', Copyright: 'GPS 37.5665 126.9780' } })
    .withMetadata({ orientation: 6 })
    .toBuffer();
}

forEachDatabase('photos and files', (db) => {
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
  const upload = (m: Member, roomId: number, body: Buffer, type: string, name: string) =>
    fetch(`${server.url}${api.attachmentUpload}?chatRoomId=${roomId}`, {
      method: 'POST',
      headers: { cookie: m.client.cookieHeader(), 'content-type': type, 'x-file-name': encodeURIComponent(name) },
      body: new Uint8Array(body),
    });
  const uploaded = async (m: Member, roomId: number, body: Buffer, type: string, name: string): Promise<Attachment> => {
    const res = await upload(m, roomId, body, type, name);
    expect(res.status, await res.clone().text()).to.equal(200);
    return (await res.json()) as Attachment;
  };
  const get = (m: Member, path: string) => fetch(server.url + path, { headers: { cookie: m.client.cookieHeader() } });
  const chunkRows = async () => Number((await server.db('attachment_chunks').count({ n: '*' }).first())?.n);
  /** Sends the upload in a message: until then only its uploader may download it. */
  const sendIn = async (m: Member, roomId: number, att: Attachment) => {
    const inbox = await m.stomp.subscribe(topics.privateChat(roomId));
    try {
      await m.stomp.send(app.privateMessage, { chatRoomId: roomId, content: '', attachmentId: att.attachmentId });
      await inbox.next();
    } finally {
      inbox.unsubscribe();
    }
  };
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

  it('makes an upright thumbnail of at most 400 px without EXIF and serves the photo to members with safe headers', async () => {
    const a = await member('사진가');
    const b = await member('Viewer');
    const roomId = await roomOf(a, b);
    const photo = await photoWithExif();
    const att = await uploaded(a, roomId, photo, 'image/jpeg', '서울 사진.jpg');
    await sendIn(a, roomId, att); // members but its uploader read it once it is sent
    expect(att).to.include({ name: '서울 사진.jpg', contentType: 'image/jpeg', url: api.attachment(att.attachmentId) });
    expect(att.thumbnailUrl).to.equal(api.attachmentThumbnail(att.attachmentId));
    expect([att.width, att.height]).to.deep.equal([600, 1200]); // upright: orientation 6 turns it

    const thumb = await get(b, att.thumbnailUrl!);
    expect(thumb.status).to.equal(200);
    expect(thumb.headers.get('content-type')).to.equal('image/webp');
    expect(thumb.headers.get('x-content-type-options')).to.equal('nosniff');
    expect(thumb.headers.get('cache-control')).to.match(/^private/);
    const meta = await sharp(Buffer.from(await thumb.arrayBuffer())).metadata();
    expect(meta.format).to.equal('webp');
    expect(Math.max(meta.width!, meta.height!)).to.be.at.most(400);
    expect(meta.height).to.be.greaterThan(meta.width!);
    expect(meta.exif, 'no EXIF in the thumbnail').to.equal(undefined);
    expect(meta.orientation ?? 1).to.equal(1);

    const original = await get(b, att.url);
    expect(original.status).to.equal(200);
    expect(original.headers.get('content-type')).to.equal('image/jpeg');
    expect(original.headers.get('content-disposition')).to.match(/^inline;/);
    expect(original.headers.get('content-disposition')).to.include(`filename*=UTF-8''${encodeURIComponent('서울 사진.jpg')}`);
    expect(original.headers.get('x-content-type-options')).to.equal('nosniff');
    expect(original.headers.get('cache-control')).to.match(/^private/);
    // The stored original lost its EXIF but its orientation, and not a pixel changed.
    const stored = Buffer.from(await original.arrayBuffer());
    expect(stored.length).to.equal(att.size);
    expect(stored.length).to.be.below(photo.length);
    expect(stored.includes('SecretCam'), 'camera make gone').to.equal(false);
    expect(stored.includes('GPS 37.5665'), 'copyright note gone').to.equal(false);
    expect(photo.includes('SecretCam'), 'the upload had it').to.equal(true);
    expect((await sharp(stored).metadata()).orientation).to.equal(6);
    const pixels = (b: Buffer) => sharp(b).raw().toBuffer();
    expect((await pixels(stored)).equals(await pixels(photo))).to.equal(true);
  });

  it('serves other files as attachments, HTML never as HTML, and a file larger than a chunk intact', async () => {
    const a = await member('Sender');
    const b = await member('Receiver');
    const roomId = await roomOf(a, b);
    const html = await uploaded(a, roomId, Buffer.from('<script>alert(1)</script>'), 'text/html', 'page.html');
    await sendIn(a, roomId, html); // members but its uploader read it once it is sent
    expect(html.thumbnailUrl).to.equal(undefined);
    const served = await get(b, html.url);
    expect(served.headers.get('content-type')).to.equal('application/octet-stream');
    expect(served.headers.get('content-disposition')).to.match(/^attachment;/);
    expect(served.headers.get('x-content-type-options')).to.equal('nosniff');
    expect(served.headers.get('content-security-policy')).to.include('sandbox');
    expect(await served.text()).to.equal('<script>alert(1)</script>');

    // A "photo" sharp cannot read is a plain file, not shown inline.
    const fake = await uploaded(a, roomId, Buffer.from('not a jpeg at all'), 'image/jpeg', 'fake.jpg');
    await sendIn(a, roomId, fake); // members but its uploader read it once it is sent
    expect(fake.thumbnailUrl).to.equal(undefined);
    expect((await get(b, fake.url)).headers.get('content-disposition')).to.match(/^attachment;/);

    const big = Buffer.alloc(3 * MiB + 12345);
    for (let i = 0; i < big.length; i += 1) big[i] = (i * 7919) % 251;
    const pdf = await uploaded(a, roomId, big, 'application/pdf', 'report.pdf');
    await sendIn(a, roomId, pdf); // members but its uploader read it once it is sent
    const back = await get(b, pdf.url);
    expect(back.headers.get('content-type')).to.equal('application/pdf');
    expect(back.headers.get('content-disposition')).to.match(/^attachment;/);
    expect(Buffer.from(await back.arrayBuffer()).equals(big)).to.equal(true);
  });

  it('refuses a non-member\'s upload and download (403) and answers 404 for an unknown id', async () => {
    const a = await member('Owner');
    const b = await member('Friend');
    const outsider = await member('Outsider');
    const roomId = await roomOf(a, b);
    const att = await uploaded(a, roomId, Buffer.from('hello'), 'text/plain', 'hello.txt');

    const up = await upload(outsider, roomId, Buffer.from('sneaky'), 'text/plain', 'x.txt');
    expect(up.status).to.equal(403);
    expect((await get(outsider, att.url)).status).to.equal(403);
    expect((await get(outsider, api.attachmentThumbnail(att.attachmentId))).status).to.equal(403);
    expect((await get(a, api.attachment('AAAAAAAAAAAAAAAAAAAAAA'))).status).to.equal(404);
    expect((await fetch(server.url + att.url)).status).to.equal(401);
  });

  it('sends an attachment once, by its uploader, in its room; the message carries it on the topic and in history; deleting it deletes the file', async () => {
    const a = await member('Alice');
    const b = await member('Bob');
    const c = await member('Carol');
    const roomId = await roomOf(a, b);
    const otherRoom = await roomOf(a, c);
    const att = await uploaded(a, roomId, await photoWithExif(), 'image/jpeg', 'p.jpg');
    const rowsBefore = await chunkRows();

    expect(await refusal(b, { chatRoomId: roomId, content: '', attachmentId: att.attachmentId })).to.match(/uploader/);
    expect(await refusal(a, { chatRoomId: otherRoom, content: '', attachmentId: att.attachmentId })).to.match(/another room/);
    expect(await refusal(a, { chatRoomId: roomId, content: '' })).to.match(/content/);

    const inbox = await b.stomp.subscribe(topics.privateChat(roomId));
    await a.stomp.send(app.privateMessage, { chatRoomId: roomId, content: '', attachmentId: att.attachmentId });
    const live = decodeChatMessage((await inbox.next()).json(), roomId)!;
    expect(live.content).to.equal('');
    expect(live.attachment).to.deep.equal(att);
    expect(await refusal(a, { chatRoomId: roomId, content: 'again', attachmentId: att.attachmentId })).to.match(/sent already/);

    const history = (await b.client.get<ChatHistoryResponse>(`${api.chatHistory}?chatRoomId=${roomId}&page=0`)).body;
    const inHistory = history.messages.find((m: ChatMessage) => m.messageId === live.messageId)!;
    expect(inHistory.attachment).to.deep.equal(att);

    await a.stomp.send(app.deleteMessage, { chatRoomId: roomId, messageId: live.messageId });
    expect((await get(b, att.url)).status).to.equal(404);
    expect((await get(b, att.thumbnailUrl!)).status).to.equal(404);
    expect(await server.db('attachments').where({ public_id: att.attachmentId }).first()).to.equal(undefined);
    expect(await chunkRows()).to.be.below(rowsBefore);
    const after = (await b.client.get<ChatHistoryResponse>(`${api.chatHistory}?chatRoomId=${roomId}&page=0`)).body;
    const deleted = after.messages.find((m: ChatMessage) => m.messageId === live.messageId)!;
    expect(deleted.deleted).to.equal(true);
    expect(deleted.attachment).to.equal(undefined);
  });

  it('answers one byte range with 206 and Content-Range, a range past the end with 416, several ranges with the whole file', async () => {
    const a = await member('범위');
    const b = await member('Range Reader');
    const outsider = await member('Range Outsider');
    const roomId = await roomOf(a, b);
    const big = Buffer.alloc(3 * MiB + 12345);
    for (let i = 0; i < big.length; i += 1) big[i] = (i * 7919) % 251;
    const att = await uploaded(a, roomId, big, 'application/pdf', '보고서.pdf');
    await sendIn(a, roomId, att); // members but its uploader read it once it is sent
    const size = big.length;
    const ranged = (range: string, extra: Record<string, string> = {}, m: Member = b, url = att.url) =>
      fetch(server.url + url, { headers: { cookie: m.client.cookieHeader(), range, ...extra } });

    const whole = await get(b, att.url);
    expect(whole.status).to.equal(200);
    expect(whole.headers.get('accept-ranges')).to.equal('bytes');
    expect(whole.headers.get('content-length')).to.equal(String(size));
    const etag = whole.headers.get('etag')!;
    expect(etag).to.match(/^"[^"]+"$/);
    expect(Buffer.from(await whole.arrayBuffer()).equals(big)).to.equal(true);

    // A reader that holds the file gets 304 and no body, with or without a Range.
    for (const extra of [{}, { range: 'bytes=0-9' }] as Array<Record<string, string>>) {
      const held = await fetch(server.url + att.url, { headers: { cookie: b.client.cookieHeader(), 'if-none-match': `"other", ${etag}`, ...extra } });
      expect(held.status).to.equal(304);
      expect(held.headers.get('etag')).to.equal(etag);
      expect(held.headers.get('cache-control')).to.equal(whole.headers.get('cache-control'));
      expect((await held.arrayBuffer()).byteLength).to.equal(0);
    }
    // Still members only: a stranger naming the ETag learns nothing.
    expect((await fetch(server.url + att.url, { headers: { cookie: outsider.client.cookieHeader(), 'if-none-match': etag } })).status).to.equal(403);

    const cases: Array<[string, number, number]> = [
      ['bytes=0-9', 0, 9],
      ['bytes=262140-524300', 262140, 524300], // across two piece boundaries of the store
      [`bytes=${size - 100}-`, size - 100, size - 1],
      ['bytes=-500', size - 500, size - 1],
      [`bytes=-${size * 2}`, 0, size - 1],
      [`bytes=3000000-${size * 10}`, 3000000, size - 1],
    ];
    for (const [range, start, end] of cases) {
      const res = await ranged(range);
      expect(res.status, range).to.equal(206);
      expect(res.headers.get('content-range'), range).to.equal(`bytes ${start}-${end}/${size}`);
      expect(res.headers.get('content-length'), range).to.equal(String(end - start + 1));
      expect(res.headers.get('accept-ranges')).to.equal('bytes');
      // The download's own headers stay on the part.
      expect(res.headers.get('x-content-type-options')).to.equal('nosniff');
      expect(res.headers.get('content-disposition')).to.match(/^attachment;/);
      expect(res.headers.get('cache-control')).to.match(/^private/);
      expect(res.headers.get('content-type')).to.equal('application/pdf');
      expect(Buffer.from(await res.arrayBuffer()).equals(big.subarray(start, end + 1)), range).to.equal(true);
    }

    for (const range of [`bytes=${size}-`, `bytes=${size + 5}-${size + 10}`, 'bytes=-0']) {
      const res = await ranged(range);
      expect(res.status, range).to.equal(416);
      expect(res.headers.get('content-range'), range).to.equal(`bytes */${size}`);
      await res.arrayBuffer();
    }
    // Several ranges, another unit, a malformed range or a stale If-Range: the whole file.
    for (const [range, extra] of [['bytes=0-1,5-6', {}], ['items=0-1', {}], ['bytes=9-3', {}], ['bytes=0-9', { 'if-range': '"stale"' }]] as Array<[string, Record<string, string>]>) {
      const res = await ranged(range, extra);
      expect(res.status, range).to.equal(200);
      expect(res.headers.get('content-length')).to.equal(String(size));
      expect(Buffer.from(await res.arrayBuffer()).equals(big), range).to.equal(true);
    }
    const resumed = await ranged('bytes=10-19', { 'if-range': etag });
    expect(resumed.status).to.equal(206);
    expect(Buffer.from(await resumed.arrayBuffer()).equals(big.subarray(10, 20))).to.equal(true);

    // Members only, ranges or not.
    expect((await ranged('bytes=0-9', {}, outsider)).status).to.equal(403);
    expect((await ranged('bytes=0-9', {}, b, api.attachment('AAAAAAAAAAAAAAAAAAAAAA'))).status).to.equal(404);

    // The thumbnail too.
    const photo = await uploaded(a, roomId, await photoWithExif(), 'image/jpeg', 'p.jpg');
    await sendIn(a, roomId, photo); // members but its uploader read it once it is sent
    const thumb = Buffer.from(await (await get(b, photo.thumbnailUrl!)).arrayBuffer());
    const part = await ranged('bytes=-20', {}, b, photo.thumbnailUrl!);
    expect(part.status).to.equal(206);
    expect(part.headers.get('content-range')).to.equal(`bytes ${thumb.length - 20}-${thumb.length - 1}/${thumb.length}`);
    expect(part.headers.get('content-type')).to.equal('image/webp');
    expect(Buffer.from(await part.arrayBuffer()).equals(thumb.subarray(thumb.length - 20))).to.equal(true);
    const past = await ranged(`bytes=${thumb.length}-`, {}, b, photo.thumbnailUrl!);
    expect(past.status).to.equal(416);
    expect(past.headers.get('content-range')).to.equal(`bytes */${thumb.length}`);
  });

  it('streams a large file and a large range intact to a reader that stops reading for a while', async function () {
    this.timeout(240_000);
    const a = await member('Streamer');
    const b = await member('Slow Reader');
    const roomId = await roomOf(a, b);
    const big = Buffer.alloc(12 * MiB + 777);
    for (let i = 0; i < big.length; i += 1) big[i] = (i * 31 + (i >> 12)) % 253;
    const att = await uploaded(a, roomId, big, 'application/octet-stream', 'big.bin');
    await sendIn(a, roomId, att); // members but its uploader read it once it is sent
    // Paused: the socket's buffers fill and the server must wait for them to drain, more than once.
    const slowly = (range?: string) => new Promise<{ status: number; body: Buffer; headers: http.IncomingHttpHeaders }>((resolve, reject) => {
      const url = new URL(server.url + att.url);
      const headers: Record<string, string> = { cookie: b.client.cookieHeader(), ...(range ? { range } : {}) };
      http.get({ host: url.hostname, port: url.port, path: url.pathname, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.pause();
        setTimeout(() => {
          res.on('data', (c: Buffer) => {
            chunks.push(c);
            res.pause();
            setImmediate(() => res.resume());
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks), headers: res.headers }));
          res.resume();
        }, 300);
      }).on('error', reject);
    });
    const whole = await slowly();
    expect(whole.status).to.equal(200);
    expect(whole.body.equals(big)).to.equal(true);
    const part = await slowly(`bytes=1000-${big.length - 1000}`);
    expect(part.status).to.equal(206);
    expect(part.headers['content-range']).to.equal(`bytes 1000-${big.length - 1000}/${big.length}`);
    expect(part.body.equals(big.subarray(1000, big.length - 999))).to.equal(true);
  });

  it('deletes a room left empty with its search index rows, its attachments and their bytes, and nothing of another room', async () => {
    const a = await member('떠나는 사람');
    const b = await member('남은 사람');
    const c = await member('다른 방');
    const roomId = await roomOf(a, b);
    const otherRoom = await roomOf(a, c);
    const say = async (room: number, content: string, attachmentId?: string) => {
      const inbox = await a.stomp.subscribe(topics.privateChat(room));
      try {
        await a.stomp.send(app.privateMessage, { chatRoomId: room, content, ...(attachmentId ? { attachmentId } : {}) });
        return decodeChatMessage((await inbox.next()).json(), room)!;
      } finally {
        inbox.unsubscribe();
      }
    };
    await say(roomId, '오늘 회의는 세시에 합니다');
    const edited = await say(roomId, 'first text');
    await a.stomp.send(app.editMessage, { chatRoomId: roomId, messageId: edited.messageId, content: '수정된 문장 Edited' });
    const sentPhoto = await uploaded(a, roomId, await photoWithExif(), 'image/jpeg', 'p.jpg');
    await say(roomId, '사진', sentPhoto.attachmentId);
    await uploaded(b, roomId, Buffer.from('never sent'), 'text/plain', 'draft.txt'); // uploaded, not sent
    await say(otherRoom, '다른 방의 회의');
    const kept = await uploaded(a, otherRoom, Buffer.from('kept file'), 'text/plain', 'kept.txt');

    const keysOf = async (room: number) => ((await server.db('attachments').select('blob_key', 'thumb_key').where({ room_id: room })) as Array<{ blob_key: string; thumb_key: string | null }>)
      .flatMap((r) => [r.blob_key, r.thumb_key]).filter((k): k is string => k !== null);
    const indexRows = async (room: number) => Number((await server.db('message_bigrams').where({ room_id: room }).count({ n: '*' }).first())?.n);
    // The index is written a moment after each commit (MessageIndexer): count it once it is.
    await waitFor(async () => (await server.db('messages').whereIn('room_id', [roomId, otherRoom]).where('indexed', 0).first('id')) === undefined, 'every message of both rooms indexed');
    const chunksOf = async (keys: string[]) => Number((await server.db('attachment_chunks').whereIn('blob_key', keys).count({ n: '*' }).first())?.n);
    const roomKeys = await keysOf(roomId);
    expect(roomKeys, 'the photo, its thumbnail and the unsent file').to.have.length(3);
    expect(await indexRows(roomId)).to.be.above(0);
    expect(await chunksOf(roomKeys)).to.be.above(0);
    const otherIndex = await indexRows(otherRoom);
    const otherKeys = await keysOf(otherRoom);
    const otherChunks = await chunksOf(otherKeys);

    expect((await a.client.delete(`${api.leaveChat}?chatRoomId=${roomId}`)).status).to.equal(200);
    expect(await indexRows(roomId), 'a member is left: the room and its index stay').to.be.above(0);
    expect((await b.client.delete(`${api.leaveChat}?chatRoomId=${roomId}`)).status).to.equal(200);

    expect(await server.db('rooms').where({ id: roomId }).first()).to.equal(undefined);
    expect(await indexRows(roomId), 'no search index rows of the room').to.equal(0);
    expect(await server.db('attachments').where({ room_id: roomId }).first(), 'no attachment rows of the room').to.equal(undefined);
    expect(await chunksOf(roomKeys), 'no stored bytes of its attachments').to.equal(0);
    expect(await indexRows(otherRoom)).to.equal(otherIndex);
    expect(await chunksOf(otherKeys)).to.equal(otherChunks);
    expect((await get(a, kept.url)).status).to.equal(200);
  });

  /** Posts a body of `total` bytes from one reused buffer; stops writing once the server answers. */
  const rawUpload = (m: Member, roomId: number, total: number, declare: boolean) =>
    new Promise<{ status: number; sentBytes: number; peakGrowth: number }>((resolve, reject) => {
      // status 0: the server closed the connection while the body was being sent and the
      // client's write failed (EPIPE, ECONNRESET) before it could read the 413 sent just before.
      const url = new URL(`${server.url}${api.attachmentUpload}?chatRoomId=${roomId}`);
      const headers: Record<string, string | number> = { cookie: m.client.cookieHeader(), 'content-type': 'application/octet-stream', 'x-file-name': 'big.bin' };
      if (declare) headers['content-length'] = total;
      const req = http.request({ method: 'POST', host: url.hostname, port: url.port, path: url.pathname + url.search, headers });
      const piece = Buffer.alloc(64 * 1024, 7);
      const baseline = liveMemory();
      let peak = baseline;
      const sampler = setInterval(() => { peak = Math.max(peak, liveMemory()); }, 50);
      let sent = 0;
      let answered = false;
      req.on('response', (res) => {
        answered = true;
        clearInterval(sampler);
        res.resume();
        resolve({ status: res.statusCode ?? 0, sentBytes: sent, peakGrowth: peak - baseline });
        req.destroy();
      });
      req.on('error', (err: NodeJS.ErrnoException) => {
        clearInterval(sampler);
        if (answered) return;
        answered = true;
        if (!declare && (err.code === 'EPIPE' || err.code === 'ECONNRESET')) resolve({ status: 0, sentBytes: sent, peakGrowth: peak - baseline });
        else reject(err);
      });
      req.flushHeaders();
      const pump = () => {
        while (!answered && sent < total) {
          sent += piece.length;
          if (!req.write(piece)) {
            req.once('drain', pump);
            return;
          }
        }
        if (!answered) req.end();
      };
      // With a declared length the answer must come before any body byte is sent: the body
      // only starts if none came in 30 s (a busy machine can take seconds), failing the test.
      if (declare) setTimeout(pump, 30_000);
      else pump();
    });

  it('refuses a 26 MiB upload with 413 while it streams, keeping nothing and never holding the body', async function () {
    this.timeout(240_000); // tens of MiB through a loaded machine
    const a = await member('Big');
    const b = await member('Other');
    const roomId = await roomOf(a, b);
    // One upload that is kept first, so what the measured one allocates once (the pool's
    // database connection, compiled code) is not counted as held by it.
    expect((await rawUpload(a, roomId, 1 * MiB, false)).status).to.equal(200);
    const rowsBefore = await chunkRows();
    const attachmentsBefore = Number((await server.db('attachments').count({ n: '*' }).first())?.n);

    const declared = await rawUpload(a, roomId, 26 * MiB, true);
    expect(declared.status).to.equal(413);
    expect(declared.sentBytes, 'refused on its Content-Length, before the body').to.equal(0);

    // No length declared (chunked) and a body that keeps coming: the server counts as it reads,
    // answers 413 past 25 MiB and closes while the client is still sending. (The client offers
    // 64 MiB: loopback socket buffers take several MiB, so 26 could all be written before the
    // answer arrives even though the server read only 25.)
    const streamed = await rawUpload(a, roomId, 64 * MiB, false);
    expect([413, 0], 'a 413, or the connection closed under the sender').to.include(streamed.status);
    expect(streamed.sentBytes, 'answered before the client finished sending').to.be.below(64 * MiB);
    console.log(`      chunked upload refused after the client sent ${(streamed.sentBytes / MiB).toFixed(1)} MiB; memory grew at most ${(streamed.peakGrowth / MiB).toFixed(1)} MiB`);
    expect(streamed.sentBytes).to.be.above(LIMITS.attachmentBytes - 8 * MiB);
    // Holding the body would hold 25 MiB by the end; streaming holds a few pieces.
    expect(streamed.peakGrowth, `live memory grew ${(streamed.peakGrowth / MiB).toFixed(1)} MiB`).to.be.below(12 * MiB);

    // The pieces stored before the refusal are removed right after it, while the client already
    // has its answer: wait for that.
    await waitFor(async () => (await chunkRows()) === rowsBefore, { what: `the refused upload's stored pieces removed (${rowsBefore} rows left)`, timeoutMs: 30_000, everyMs: 100 });
    expect(Number((await server.db('attachments').count({ n: '*' }).first())?.n)).to.equal(attachmentsBefore);
  });
});

describe('photos and files in a folder (ATTACHMENTS_DIR)', () => {
  let server: RunningServer;
  let dir = '';

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'letschat-attachments-'));
    server = await startTestServer({ databaseUrl: `sqlite:${path.join(dir, 'db.sqlite3')}`, env: { ATTACHMENTS_DIR: path.join(dir, 'files') } });
  });
  after(async () => {
    await server?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('stores the bytes as files there, not in the database, serves them and deletes them with the message', async () => {
    const { user: a, client: ca } = await newLoggedInUser(server, { name: 'A' });
    const { user: b, client: cb } = await newLoggedInUser(server, { name: 'B' });
    const roomId = (await ca.post(api.roomCreate, { targetUserId: b.userId })).body.chatRoomId as number;
    const photo = await photoWithExif();
    const res = await fetch(`${server.url}${api.attachmentUpload}?chatRoomId=${roomId}`, {
      method: 'POST', headers: { cookie: ca.cookieHeader(), 'content-type': 'image/jpeg', 'x-file-name': 'a.jpg' }, body: new Uint8Array(photo),
    });
    const att = (await res.json()) as Attachment;
    const files = () => fs.readdirSync(path.join(dir, 'files'));
    expect(files()).to.have.length(2); // the photo and its thumbnail
    expect(Number((await server.db('attachment_chunks').count({ n: '*' }).first())?.n)).to.equal(0);
    // Sent first: until then only its uploader may download it.
    const stomp = await connectStomp(server, ca.cookieHeader());
    const inbox = await stomp.subscribe(topics.privateChat(roomId));
    await stomp.send(app.privateMessage, { chatRoomId: roomId, content: '사진', attachmentId: att.attachmentId });
    const sent = decodeChatMessage((await inbox.next()).json(), roomId)!;
    expect(sent.attachment?.attachmentId).to.equal(att.attachmentId);
    const back = await fetch(server.url + att.url, { headers: { cookie: cb.cookieHeader() } });
    const stored = Buffer.from(await back.arrayBuffer());
    expect(stored.length).to.equal(att.size);
    expect((await sharp(stored).raw().toBuffer()).equals(await sharp(photo).raw().toBuffer())).to.equal(true);
    // Ranges read from the file, the original's and the thumbnail's.
    for (const url of [att.url, att.thumbnailUrl!]) {
      const full = Buffer.from(await (await fetch(server.url + url, { headers: { cookie: cb.cookieHeader() } })).arrayBuffer());
      const part = await fetch(server.url + url, { headers: { cookie: cb.cookieHeader(), range: 'bytes=10-109' } });
      expect(part.status).to.equal(206);
      expect(part.headers.get('content-range')).to.equal(`bytes 10-109/${full.length}`);
      expect(Buffer.from(await part.arrayBuffer()).equals(full.subarray(10, 110))).to.equal(true);
      const tail = await fetch(server.url + url, { headers: { cookie: cb.cookieHeader(), range: 'bytes=-7' } });
      expect(Buffer.from(await tail.arrayBuffer()).equals(full.subarray(full.length - 7))).to.equal(true);
      const past = await fetch(server.url + url, { headers: { cookie: cb.cookieHeader(), range: `bytes=${full.length}-` } });
      expect([past.status, past.headers.get('content-range')]).to.deep.equal([416, `bytes */${full.length}`]);
    }

    try {
      await stomp.send(app.deleteMessage, { chatRoomId: roomId, messageId: sent.messageId });
    } finally {
      await stomp.disconnect();
    }
    expect(files()).to.deep.equal([]);
    expect(a.userId).to.be.a('number');
  });

  it('removes the files of a room\'s attachments when the room is deleted (its last member left), and no other room\'s', async () => {
    const { client: ca } = await newLoggedInUser(server, { name: 'A' });
    const { user: b, client: cb } = await newLoggedInUser(server, { name: 'B' });
    const { user: c } = await newLoggedInUser(server, { name: 'C' });
    const roomId = (await ca.post(api.roomCreate, { targetUserId: b.userId })).body.chatRoomId as number;
    const otherRoom = (await ca.post(api.roomCreate, { targetUserId: c.userId })).body.chatRoomId as number;
    const post = async (room: number, body: Buffer, type: string) => {
      const res = await fetch(`${server.url}${api.attachmentUpload}?chatRoomId=${room}`, {
        method: 'POST', headers: { cookie: ca.cookieHeader(), 'content-type': type, 'x-file-name': 'f' }, body: new Uint8Array(body),
      });
      expect(res.status).to.equal(200);
      return (await res.json()) as Attachment;
    };
    const photo = await post(roomId, await photoWithExif(), 'image/jpeg');
    const stomp = await connectStomp(server, ca.cookieHeader());
    try {
      await stomp.send(app.privateMessage, { chatRoomId: roomId, content: '사진', attachmentId: photo.attachmentId });
    } finally {
      await stomp.disconnect();
    }
    await post(roomId, Buffer.from('unsent'), 'text/plain');
    await post(otherRoom, Buffer.from('kept'), 'text/plain');
    const filesOf = async (room: number) => ((await server.db('attachments').select('blob_key', 'thumb_key').where({ room_id: room })) as Array<{ blob_key: string; thumb_key: string | null }>)
      .flatMap((r) => [r.blob_key, r.thumb_key]).filter((k): k is string => k !== null);
    const roomFiles = await filesOf(roomId);
    const otherFiles = await filesOf(otherRoom);
    const present = () => new Set(fs.readdirSync(path.join(dir, 'files')));
    expect(roomFiles).to.have.length(3);
    expect(roomFiles.every((k) => present().has(k))).to.equal(true);

    await ca.delete(`${api.leaveChat}?chatRoomId=${roomId}`);
    await cb.delete(`${api.leaveChat}?chatRoomId=${roomId}`);

    // Removed after the commit, before the leave was answered.
    expect(roomFiles.filter((k) => present().has(k)), 'files of the deleted room').to.deep.equal([]);
    expect(otherFiles.every((k) => present().has(k)), 'the other room keeps its file').to.equal(true);
    expect([...present()].filter((f) => f.endsWith('.part'))).to.deep.equal([]);
    expect(await server.db('message_bigrams').where({ room_id: roomId }).first()).to.equal(undefined);
  });
});
