// A room's notice, mentions and a private past (docs/protocol.md, People) over raw REST and
// STOMP on both databases: any member sets or removes the notice, every history answer carries
// it and the room hears of it; a message keeps only members (not the sender, once each, at most
// 50) as its mentions, on the topic and in history, and the chat-list row says `mentioned`
// while it is unread; a member added later reads the room from their joining on only.
import { expect } from 'chai';
import { api, type Attachment, type ChatHistoryResponse, type ChatSummary, type MessageSearchResponse, type RoomNotice } from '@common/api';
import { app, topics } from '@common/destinations';
import { LIMITS } from '@common/rules';
import type { RunningServer } from '../../src/main';
import type { ApiClient } from '../support/api-client';
import { forEachDatabase } from '../support/databases';
import { connectStomp, StompErrorFrame, type TestStomp } from '../support/stomp-client';
import { startTestServer } from '../support/test-server';
import { createUser, newLoggedInUser, type TestUser } from '../support/users';

interface Member { user: TestUser; client: ApiClient; stomp: TestStomp }
/** A message as the room topic and history carry it, read raw (mentions included). */
interface Raw { messageId: number; seq: number; senderId: number | null; content: string; mentions?: number[]; systemEvent?: unknown }

forEachDatabase('room notices, mentions and a private past', (db) => {
  let server: RunningServer;
  let now = Date.UTC(2026, 10, 27, 9, 0, 0);
  const open: TestStomp[] = [];

  before(async () => {
    server = await startTestServer({ databaseUrl: db.url(), clock: () => now });
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((s) => s.disconnect().catch(() => {})));
  });
  after(async () => {
    await server?.stop();
  });

  const connect = async (cookie: string): Promise<TestStomp> => {
    const stomp = await connectStomp(server, cookie);
    open.push(stomp);
    return stomp;
  };
  const member = async (name: string): Promise<Member> => {
    const { user, client } = await newLoggedInUser(server, { name });
    return { user, client, stomp: await connect(client.cookieHeader()) };
  };
  const roomOf = async (a: Member, b: Member): Promise<number> => (await a.client.post(api.roomCreate, { targetUserId: b.user.userId })).body.chatRoomId as number;
  const history = async (m: Member, roomId: number, query = '&page=0') => m.client.get<ChatHistoryResponse>(`${api.chatHistory}?chatRoomId=${roomId}${query}`);
  const rawMessages = async (m: Member, roomId: number, query = '&page=0') => (await history(m, roomId, query)).body.messages as unknown as Raw[];
  const list = async (m: Member): Promise<ChatSummary[]> => (await m.client.get<ChatSummary[]>(api.chats)).body;
  const say = async (m: Member, roomId: number, content: string, extra: object = {}): Promise<Raw> => {
    now += 1000;
    const inbox = await m.stomp.subscribe(topics.privateChat(roomId));
    await m.stomp.send(app.privateMessage, { chatRoomId: roomId, content, ...extra });
    const message = (await inbox.next()).json<Raw>();
    inbox.unsubscribe();
    return message;
  };
  const setNotice = (m: Member, chatRoomId: number, messageId: number) => m.client.request<RoomNotice>('PUT', api.roomNotice, { json: { chatRoomId, messageId } });

  it('lets any member set the notice, carries it on every history answer and tells the room; removing it or deleting its message clears it', async () => {
    const ann = await member('Ann');
    const ben = await member('Ben');
    const outsider = await member('Out');
    const room = await roomOf(ann, ben);
    expect((await history(ann, room)).body.notice).to.equal(null);
    const first = await say(ann, room, '금요일 회식 7시');
    const second = await say(ben, room, '장소는 강남역');
    const events = await ben.stomp.subscribe(topics.chatRoomEvents(room));

    const set = await setNotice(ann, room, first.messageId);
    const notice = { messageId: first.messageId, content: '금요일 회식 7시', setByName: 'Ann', setAt: new Date(now).toISOString() };
    expect([set.status, set.body]).to.deep.equal([200, notice]);
    expect((await events.next()).json()).to.deep.equal({ type: 'notice', chatRoomId: room, notice });
    for (const query of ['&page=0', `&afterSeq=${second.seq}`, `&beforeSeq=${second.seq}`, `&aroundSeq=${first.seq}`, '&changedSince=0']) {
      expect((await history(ben, room, query)).body.notice, query).to.deep.equal(notice);
    }

    // Ben replaces it; the notice's text is the message's as it reads now.
    const replaced = (await setNotice(ben, room, second.messageId)).body;
    expect(replaced).to.include({ messageId: second.messageId, setByName: 'Ben' });
    await ann.stomp.send(app.editMessage, { chatRoomId: room, messageId: first.messageId, content: 'edited' });
    await ben.stomp.send(app.editMessage, { chatRoomId: room, messageId: second.messageId, content: '장소는 역삼역' });
    expect((await history(ann, room)).body.notice).to.include({ messageId: second.messageId, content: '장소는 역삼역' });

    const removed = await ann.client.delete(`${api.roomNotice}?chatRoomId=${room}`);
    expect(removed.status).to.equal(204);
    expect((await history(ben, room)).body.notice).to.equal(null);

    // Deleting the notice's message removes the notice for everyone.
    expect((await setNotice(ann, room, first.messageId)).status).to.equal(200);
    const rest = await ben.stomp.subscribe(topics.chatRoomEvents(room));
    await ann.stomp.send(app.deleteMessage, { chatRoomId: room, messageId: first.messageId });
    let event: { type?: string; notice?: unknown } = {};
    while (event.type !== 'notice') event = (await rest.next()).json();
    expect(event).to.deep.equal({ type: 'notice', chatRoomId: room, notice: null });
    expect((await history(ann, room)).body.notice).to.equal(null);

    // Refusals: a deleted message, a system message, another room's, not a member, malformed.
    expect((await setNotice(ann, room, first.messageId)).status).to.equal(404);
    const other = await roomOf(ann, outsider);
    expect((await ann.client.post(api.updateSubject, { chatRoomId: other, chatRoomName: 'Other' })).status).to.equal(200);
    const system = (await rawMessages(ann, other)).find((m) => m.senderId === null)!;
    expect((await setNotice(ann, other, system.messageId)).status).to.equal(404);
    expect((await setNotice(ann, other, second.messageId)).status).to.equal(404);
    expect((await setNotice(outsider, room, second.messageId)).status).to.equal(403);
    expect((await outsider.client.delete(`${api.roomNotice}?chatRoomId=${room}`)).status).to.equal(403);
    for (const body of [{ chatRoomId: room }, { chatRoomId: room, messageId: 'x' }, { messageId: second.messageId }, [room]]) {
      expect((await ann.client.request('PUT', api.roomNotice, { json: body })).status, JSON.stringify(body)).to.equal(400);
    }
    expect((await ann.client.delete(`${api.roomNotice}?chatRoomId=x`)).status).to.equal(400);
  });

  it('keeps as mentions only the other members, once each, at most 50, on the topic and in history, and marks the row while unread', async () => {
    const ann = await member('Mentioner');
    const ben = await member('Mentioned');
    const cat = await member('Bystander');
    const outsider = await member('Nobody');
    const room = await roomOf(ann, ben);
    expect((await ann.client.post(api.addUser, { chatRoomId: room, userId: cat.user.userId })).status).to.equal(200);
    expect((await list(ben)).find((r) => r.chatRoomId === room)).to.not.have.property('mentioned');

    const asked = [ben.user.userId, ann.user.userId, outsider.user.userId, ben.user.userId, 999999999];
    const sent = await say(ann, room, '@Mentioned 확인 부탁해요', { mentions: asked });
    expect(sent.mentions).to.deep.equal([ben.user.userId]);
    expect((await rawMessages(ann, room)).find((m) => m.messageId === sent.messageId)?.mentions).to.deep.equal([ben.user.userId]);
    const plain = await say(ann, room, 'no one', { mentions: [] });
    expect(plain).to.not.have.property('mentions');

    expect((await list(ben)).find((r) => r.chatRoomId === room)).to.include({ mentioned: true });
    expect((await list(cat)).find((r) => r.chatRoomId === room)).to.not.have.property('mentioned');
    expect((await list(ann)).find((r) => r.chatRoomId === room)).to.not.have.property('mentioned');
    // Read (opening the room), the mark goes.
    expect((await history(ben, room)).status).to.equal(200);
    expect((await list(ben)).find((r) => r.chatRoomId === room)).to.not.have.property('mentioned');

    // Many members: the first 50 kept.
    const letters = 'abcdefghijklmnopqrstuvwxyz';
    const crowd: TestUser[] = [];
    for (let i = 0; i < LIMITS.mentionsPerMessage + 2; i++) crowd.push(await createUser(server, { name: `Crowd ${letters[i % 26]}${letters[Math.floor(i / 26)]}` }));
    for (const c of crowd) expect((await ann.client.post(api.addUser, { chatRoomId: room, userId: c.userId })).status).to.equal(200);
    const many = await say(ann, room, 'everyone', { mentions: crowd.map((c) => c.userId) });
    expect(many.mentions).to.deep.equal(crowd.slice(0, LIMITS.mentionsPerMessage).map((c) => c.userId));

    // Malformed mentions are refused with an ERROR frame.
    for (const mentions of ['x', [0], ['a'], Array.from({ length: 201 }, (_, i) => i + 1)]) {
      const stomp = await connect(ann.client.cookieHeader());
      const refused = await stomp.send(app.privateMessage, { chatRoomId: room, content: 'bad', mentions }).then(() => null, (err: unknown) => err);
      expect(refused, JSON.stringify(mentions).slice(0, 40)).to.be.instanceOf(StompErrorFrame);
    }
  });

  it('shows a member added later the room from their joining on: every history form, search, reactions, and attachments before it answer 403', async () => {
    const ann = await member('Founder');
    const ben = await member('Partner');
    const dan = await member('Latecomer');
    const room = await roomOf(ann, ben);
    const upload = await fetch(`${server.url}${api.attachmentUpload}?chatRoomId=${room}`, {
      method: 'POST', headers: { cookie: ann.client.cookieHeader(), 'content-type': 'text/plain', 'x-file-name': 'plan.txt' }, body: 'secret plan',
    });
    expect(upload.status).to.equal(200);
    const att = (await upload.json()) as Attachment;
    const early = await say(ann, room, '둘만의 비밀 이야기', { attachmentId: att.attachmentId });
    const earlier = await say(ben, room, '비밀 유지');
    await ben.stomp.send(app.reaction, { chatRoomId: room, messageId: early.messageId, emoji: '👍', on: true });

    expect((await ann.client.post(api.addUser, { chatRoomId: room, userId: dan.user.userId })).status).to.equal(200);
    const after = await say(ann, room, '이제 셋이서 비밀 이야기');
    const seen = await rawMessages(dan, room);
    const added = seen[0];
    expect(added.senderId).to.equal(null);
    expect(added.seq).to.equal(earlier.seq + 1);
    expect(seen.map((m) => m.messageId)).to.deep.equal([added.messageId, after.messageId]);
    expect((await history(dan, room)).body.totalPages).to.equal(1);
    for (const query of ['&afterSeq=0', `&beforeSeq=${after.seq + 1}`, `&aroundSeq=${early.seq}`, '&changedSince=0', `&beforeId=${after.messageId + 1}`, '&page=1']) {
      const ids = (await rawMessages(dan, room, query)).map((m) => m.messageId);
      expect(ids, query).to.not.include(early.messageId);
      expect(ids, query).to.not.include(earlier.messageId);
    }
    // The founders keep everything.
    expect((await rawMessages(ben, room)).map((m) => m.messageId)).to.include.members([early.messageId, earlier.messageId, after.messageId]);

    const search = async (m: Member) => (await m.client.get<MessageSearchResponse>(`${api.messageSearch}?keyword=${encodeURIComponent('비밀')}`)).body.results.map((r) => r.messageId);
    expect(await search(dan)).to.deep.equal([after.messageId]);
    expect(await search(ben)).to.deep.equal([after.messageId, earlier.messageId, early.messageId]);

    const get = (m: Member, path: string) => fetch(server.url + path, { headers: { cookie: m.client.cookieHeader() } });
    expect((await get(dan, api.attachment(att.attachmentId))).status).to.equal(403);
    expect((await get(ben, api.attachment(att.attachmentId))).status).to.equal(200);

    const reacting = await connect(dan.client.cookieHeader());
    const refused = await reacting.send(app.reaction, { chatRoomId: room, messageId: early.messageId, emoji: '👍', on: true }).then(() => null, (err: unknown) => err);
    expect(refused).to.be.instanceOf(StompErrorFrame);
    expect((await setNotice(dan, room, early.messageId)).status).to.equal(404);
    const replying = await connect(dan.client.cookieHeader());
    const noReply = await replying.send(app.privateMessage, { chatRoomId: room, content: 're', replyToMessageId: early.messageId }).then(() => null, (err: unknown) => err);
    expect(noReply).to.be.instanceOf(StompErrorFrame);
  });
});
