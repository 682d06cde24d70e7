import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import { expect } from 'chai';
import { api, type Attachment, type ChatHistoryResponse, type ChatMessage } from '@common/api';
import { app, topics } from '@common/destinations';
import { decodeChatMessage } from '@common/events';
import type { RunningServer } from '../../src/main';
import type { ApiClient } from '../support/api-client';
import { forEachDatabase } from '../support/databases';
import { connectStomp, type TestStomp } from '../support/stomp-client';
import { startTestServer } from '../support/test-server';
import { newLoggedInUser, type TestUser } from '../support/users';

interface Member { user: TestUser; client: ApiClient; stomp: TestStomp }

/** A real Opus recording in WebM made by ffmpeg: `seconds` of a tone, silent for its second half. */
function opusWebm(seconds: number): Buffer {
  const made = spawnSync('ffmpeg', [
    '-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}:sample_rate=48000`,
    '-af', `volume='if(lt(t,${seconds / 2}),1,0)':eval=frame`, '-c:a', 'libopus', '-b:a', '16k', '-f', 'webm', 'pipe:1',
  ], { maxBuffer: 64 * 1024 * 1024 });
  if (made.status !== 0) throw new Error(`ffmpeg could not make the test recording: ${String(made.stderr)}`);
  return made.stdout;
}

forEachDatabase('voice messages (kind=voice uploads)', (db) => {
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
  const upload = (on: RunningServer, m: Member, roomId: number, body: Buffer, type: string, kind = 'voice') =>
    fetch(`${on.url}${api.attachmentUpload}?chatRoomId=${roomId}${kind ? `&kind=${kind}` : ''}`, {
      method: 'POST',
      headers: { cookie: m.client.cookieHeader(), 'content-type': type, 'x-file-name': encodeURIComponent('음성.webm') },
      body: new Uint8Array(body),
    });
  const refusedWith = async (res: Response, status: number): Promise<string> => {
    const text = await res.text();
    expect(res.status, text).to.equal(status);
    return (JSON.parse(text) as { message: string }).message;
  };
  const attachmentRows = async () => Number((await server.db('attachments').count({ n: '*' }).first())?.n);

  it('reads a real Opus/WebM recording\'s length and 64-level waveform, answers them, and carries them in the message and history', async function () {
    this.timeout(60_000);
    const a = await member('Speaker');
    const b = await member('Listener');
    const roomId = await roomOf(a, b);
    const res = await upload(server, a, roomId, opusWebm(4), 'audio/webm;codecs=opus');
    expect(res.status, await res.clone().text()).to.equal(200);
    const att = (await res.json()) as Attachment;
    expect(att).to.include({ kind: 'voice', contentType: 'audio/webm', name: '음성.webm' });
    expect(att.durationMs).to.be.within(3900, 4100);
    expect(att.waveform).to.have.length(64);
    expect(Math.max(...att.waveform!)).to.equal(255);
    // The tone's half is loud, the silent half is not.
    expect(Math.min(...att.waveform!.slice(4, 28))).to.be.above(200);
    expect(Math.max(...att.waveform!.slice(36, 60))).to.be.below(20);

    const inbox = await b.stomp.subscribe(topics.privateChat(roomId));
    await a.stomp.send(app.privateMessage, { chatRoomId: roomId, content: '', attachmentId: att.attachmentId });
    const live = decodeChatMessage((await inbox.next()).json(), roomId)!;
    expect(live.attachment).to.deep.equal(att);
    const history = (await b.client.get<ChatHistoryResponse>(`${api.chatHistory}?chatRoomId=${roomId}&page=0`)).body;
    expect(history.messages.find((m: ChatMessage) => m.messageId === live.messageId)!.attachment).to.deep.equal(att);
    const played = await fetch(server.url + att.url, { headers: { cookie: b.client.cookieHeader() } });
    expect(played.status).to.equal(200);
    expect(played.headers.get('content-type')).to.match(/^audio\/webm/);
  });

  it('refuses a voice upload that is not audio (400) before reading it, and one of an audio type whose bytes are no audio, keeping nothing', async () => {
    const a = await member('Pretender');
    const b = await member('Other');
    const roomId = await roomOf(a, b);
    const before = await attachmentRows();
    const picture = await upload(server, a, roomId, Buffer.from('GIF89a....'), 'image/gif');
    expect(await refusedWith(picture, 400)).to.match(/오디오/);
    const untyped = await upload(server, a, roomId, Buffer.from('hello'), 'application/octet-stream');
    expect(await refusedWith(untyped, 400)).to.match(/오디오/);
    const garbage = await upload(server, a, roomId, crypto.randomBytes(50_000), 'audio/webm');
    expect(await refusedWith(garbage, 400)).to.match(/음성 파일을 읽을 수 없습니다/);
    const unknownKind = await upload(server, a, roomId, opusWebm(1), 'audio/webm', 'video');
    expect(await refusedWith(unknownKind, 400)).to.match(/kind/);
    expect(await attachmentRows()).to.equal(before);
  });

  it('refuses a recording longer than 5 minutes', async function () {
    this.timeout(120_000);
    const a = await member('Talker');
    const b = await member('Patient');
    const roomId = await roomOf(a, b);
    const before = await attachmentRows();
    const long = await upload(server, a, roomId, opusWebm(302), 'audio/webm');
    expect(await refusedWith(long, 400)).to.match(/5분/);
    expect(await attachmentRows()).to.equal(before);
  });

  it('without ffmpeg refuses voice messages with a clear message, and photos and files still upload', async () => {
    const other = await startTestServer({ databaseUrl: db.url(), env: { FFMPEG_PATH: '/nonexistent/ffmpeg' } });
    try {
      const { user, client } = await newLoggedInUser(other, { name: 'NoFfmpeg' });
      const { user: peer } = await newLoggedInUser(other, { name: 'Peer' });
      const m = { user, client } as Member;
      const roomId = (await client.post(api.roomCreate, { targetUserId: peer.userId })).body.chatRoomId as number;
      const refused = await upload(other, m, roomId, opusWebm(1), 'audio/webm');
      expect(await refusedWith(refused, 400)).to.match(/ffmpeg/);
      const file = await upload(other, m, roomId, Buffer.from('plain text'), 'text/plain', '');
      expect(file.status).to.equal(200);
      expect(((await file.json()) as Attachment).kind).to.equal(undefined);
    } finally {
      await other.stop();
    }
  });
});
