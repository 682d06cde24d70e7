import { expect } from 'chai';
import { api, type ChatHistoryResponse, type ChatSummary } from '@common/api';
import { app, topics } from '@common/destinations';
import { decodeRoomEvent } from '@common/events';
import type { ChatMessageEvent, RoomEvent } from '@common/payloads';
import type { RunningServer } from '../../src/main';
import type { ApiClient } from '../support/api-client';
import { forEachDatabase } from '../support/databases';
import { connectStomp, StompErrorFrame, type Inbox, type TestStomp } from '../support/stomp-client';
import { startTestServer } from '../support/test-server';
import { newLoggedInUser, type TestUser } from '../support/users';
import { eventually } from '../support/wait';

interface Member { user: TestUser; client: ApiClient; stomp: TestStomp }

forEachDatabase('read positions, unread counts and the room-events topic', (db) => {
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

  const connect = async (cookie: string): Promise<TestStomp> => {
    const stomp = await connectStomp(server, cookie);
    open.push(stomp);
    return stomp;
  };
  const member = async (name: string): Promise<Member> => {
    const { user, client } = await newLoggedInUser(server, { name });
    return { user, client, stomp: await connect(client.cookieHeader()) };
  };
  const roomOf = async (a: Member, ...others: Member[]): Promise<number> => {
    const roomId = (await a.client.post(api.roomCreate, { targetUserId: others[0].user.userId })).body.chatRoomId as number;
    for (const o of others.slice(1)) await a.client.post(api.addUser, { chatRoomId: roomId, userId: o.user.userId });
    return roomId;
  };
  const say = async (m: Member, roomId: number, content: string): Promise<void> => {
    await m.stomp.send(app.privateMessage, { chatRoomId: roomId, content });
  };
  const newestSeq = async (roomId: number): Promise<number> => Number((await server.db('rooms').where({ id: roomId }).first('last_seq')).last_seq);
  const readPositions = async (m: Member, roomId: number, query = '&afterSeq=999999'): Promise<Map<number, number>> => {
    // afterSeq past the end reads nothing and so marks nothing read: it only looks.
    const res = await m.client.get<ChatHistoryResponse>(`${api.chatHistory}?chatRoomId=${roomId}${query}`);
    return new Map(res.body.users.map((u) => [u.userId, u.lastReadSeq!]));
  };
  /** How many members have not read the message: KakaoTalk's "1". */
  const unreadBy = (positions: Map<number, number>, seq: number) => [...positions.values()].filter((p) => p < seq).length;
  const summaryOf = async (m: Member, roomId: number) => (await m.client.get<ChatSummary[]>(api.chats)).body.find((r) => r.chatRoomId === roomId)!;
  const nextEvent = async (inbox: Inbox, roomId: number): Promise<RoomEvent> => decodeRoomEvent((await inbox.next()).json(), roomId)!;
  const refusal = async (p: Promise<unknown>): Promise<string> => {
    try {
      await p;
    } catch (err) {
      if (err instanceof StompErrorFrame) return err.frame.headers.message ?? '';
      throw err;
    }
    throw new Error('expected the server to refuse with an ERROR frame');
  };

  it('counts down the members who have not read a message as each of three members reads it, told live on the room-events topic', async () => {
    const a = await member('Author');
    const b = await member('Reader B');
    const c = await member('Reader C');
    const roomId = await roomOf(a, b, c);
    const events = await a.stomp.subscribe(topics.chatRoomEvents(roomId));
    const messages = await a.stomp.subscribe(topics.privateChat(roomId));

    await say(a, roomId, '읽었어?');
    const sent = (await messages.next()).json<ChatMessageEvent>();
    // The author has read it; B and C have not.
    expect(unreadBy(await readPositions(a, roomId), sent.seq!)).to.equal(2);

    await b.stomp.send(app.read, { chatRoomId: roomId, seq: sent.seq });
    expect(await nextEvent(events, roomId)).to.deep.equal({ type: 'read', chatRoomId: roomId, userId: b.user.userId, lastReadSeq: sent.seq });
    expect(unreadBy(await readPositions(a, roomId), sent.seq!)).to.equal(1);

    // C opens the room: history page 0 reads everything.
    await c.client.get(`${api.chatHistory}?chatRoomId=${roomId}&page=0`);
    expect(await nextEvent(events, roomId)).to.deep.equal({ type: 'read', chatRoomId: roomId, userId: c.user.userId, lastReadSeq: sent.seq });
    expect(unreadBy(await readPositions(a, roomId), sent.seq!)).to.equal(0);
  });

  it('moves a read position forward only, never past the newest message, and refuses a non-member', async () => {
    const a = await member('Writer');
    const b = await member('Backwards');
    const c = await member('Witness');
    const roomId = await roomOf(a, b, c);
    for (const text of ['one', 'two', 'three']) await say(a, roomId, text);
    const newest = await newestSeq(roomId);
    const positionOf = async (m: Member) => (await readPositions(a, roomId)).get(m.user.userId);
    // /app/read is answered before the write; reads are written in the order they came, so once
    // a later read of C's is stored, B's earlier one was handled too.
    await b.stomp.send(app.read, { chatRoomId: roomId, seq: newest });
    await eventually(async () => expect(await positionOf(b)).to.equal(newest));
    await b.stomp.send(app.read, { chatRoomId: roomId, seq: newest - 2 });
    await b.stomp.send(app.read, { chatRoomId: roomId, seq: newest + 5 });
    await c.stomp.send(app.read, { chatRoomId: roomId, seq: newest - 1 });
    await eventually(async () => expect(await positionOf(c)).to.equal(newest - 1));
    expect(await positionOf(b)).to.equal(newest);

    const outsider = await member('Outsider');
    expect(await refusal(outsider.stomp.send(app.read, { chatRoomId: roomId, seq: 1 }))).to.match(/member/);
    const again = await connect(outsider.client.cookieHeader());
    expect(await refusal(again.subscribe(topics.chatRoomEvents(roomId)))).to.not.equal('');
    const badSeq = await connect(b.client.cookieHeader());
    expect(await refusal(badSeq.send(app.read, { chatRoomId: roomId, seq: 'soon' }))).to.match(/seq/);
  });

  it('counts unread messages in the chat list, not the user\'s own, and reads them on user-inactive as the original client leaves a room', async () => {
    const a = await member('Chatty');
    const b = await member('Away');
    const roomId = await roomOf(a, b);
    await b.stomp.send(app.userActive, { chatRoomId: roomId });
    await b.stomp.send(app.userInactive, { chatRoomId: roomId });
    for (const text of ['하나', '둘', '셋']) await say(a, roomId, text);
    const newest = await newestSeq(roomId);
    expect(await summaryOf(b, roomId)).to.deep.include({ unreadCount: 3, lastSeq: newest });
    expect(await summaryOf(a, roomId)).to.deep.include({ unreadCount: 0, lastSeq: newest });

    await b.stomp.send(app.read, { chatRoomId: roomId, seq: newest - 1 });
    await eventually(async () => expect((await summaryOf(b, roomId)).unreadCount).to.equal(1));
    await say(b, roomId, 'my own');
    // B's own message reads the room up to it for B.
    expect((await summaryOf(b, roomId)).unreadCount).to.equal(0);
    expect((await summaryOf(a, roomId)).unreadCount).to.equal(1);

    await say(b, roomId, 'and another');
    await a.stomp.send(app.userActive, { chatRoomId: roomId });
    await say(b, roomId, 'seen live');
    await a.stomp.send(app.userInactive, { chatRoomId: roomId });
    await say(b, roomId, 'after leaving');
    expect((await summaryOf(a, roomId)).unreadCount).to.equal(1);
    // The original client sends user-inactive as it leaves the room: what it showed is read.
    await a.stomp.send(app.userInactive, { chatRoomId: roomId });
    const read = await summaryOf(a, roomId);
    expect(read.unreadCount).to.equal(0);
    expect(Date.parse(read.lastReadAt!)).to.be.at.least(Date.parse(read.lastMessageTime!));
  });

  it('moves the position of a member looking at the room as each message arrives, and tells the room', async () => {
    const a = await member('Sender');
    const b = await member('Looker');
    const roomId = await roomOf(a, b);
    const events = await a.stomp.subscribe(topics.chatRoomEvents(roomId));
    await b.stomp.send(app.userActive, { chatRoomId: roomId });
    await say(a, roomId, 'live');
    const newest = await newestSeq(roomId);
    expect(await nextEvent(events, roomId)).to.deep.equal({ type: 'read', chatRoomId: roomId, userId: b.user.userId, lastReadSeq: newest });
    await eventually(async () => expect((await summaryOf(b, roomId)).unreadCount).to.equal(0));
  });

  it('coalesces a member\'s read events: the first at once, the newest of the next second after it, then nothing', async () => {
    const a = await member('Watcher');
    const b = await member('Fast Reader');
    const roomId = await roomOf(a, b);
    for (const text of ['1', '2', '3', '4']) await say(a, roomId, text);
    const newest = await newestSeq(roomId);
    const events = await a.stomp.subscribe(topics.chatRoomEvents(roomId));
    for (let seq = newest - 3; seq <= newest; seq++) await b.stomp.send(app.read, { chatRoomId: roomId, seq });
    expect(await nextEvent(events, roomId)).to.deep.include({ userId: b.user.userId, lastReadSeq: newest - 3 });
    expect(await nextEvent(events, roomId)).to.deep.include({ userId: b.user.userId, lastReadSeq: newest });
    // A third would come a coalescing second after the second: a window longer than that second,
    // as nothing marks the coalescer having nothing left.
    await events.nothingWithin(1500);
  });

  it('ends the leaver\'s subscription to the room-events topic', async () => {
    const a = await member('Stayer');
    const b = await member('Leaver');
    const c = await member('Third');
    const roomId = await roomOf(a, b, c);
    const leaverEvents = await b.stomp.subscribe(topics.chatRoomEvents(roomId));
    const stayerEvents = await a.stomp.subscribe(topics.chatRoomEvents(roomId));
    expect((await b.client.delete(`${api.leaveChat}?chatRoomId=${roomId}`)).status).to.equal(200);
    await c.stomp.send(app.read, { chatRoomId: roomId, seq: await newestSeq(roomId) });
    // The topic's event reached the stayer: it went to every subscriber then.
    expect(await nextEvent(stayerEvents, roomId)).to.deep.include({ type: 'read', userId: c.user.userId });
    await leaverEvents.nothingSoFar();
  });
});
