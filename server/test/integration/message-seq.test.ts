import { expect } from 'chai';
import { api, type ChatHistoryResponse } from '@common/api';
import { app, topics } from '@common/destinations';
import type { ChatMessageEvent } from '@common/payloads';
import { isDuplicateKey } from '../../src/db/errors';
import { fewTripTransactions } from '../../src/db/few-trips';
import { MessagesRepository, RoomGoneError, type NewMessage } from '../../src/features/chat/messages-repository';
import type { RunningServer } from '../../src/main';
import type { ApiClient } from '../support/api-client';
import { forEachDatabase } from '../support/databases';
import { connectStomp, type TestStomp } from '../support/stomp-client';
import { startTestServer } from '../support/test-server';
import { newLoggedInUser, type TestUser } from '../support/users';

interface Member { user: TestUser; client: ApiClient }

forEachDatabase('per-room sequence numbers', (db) => {
  // Two servers on one database, as two nodes would run: seqs must hold across them, which only
  // the room's row lock in the storing transaction guarantees.
  let nodes: RunningServer[] = [];
  const now = Date.UTC(2026, 10, 25, 9, 0, 0);
  const open: TestStomp[] = [];

  before(async () => {
    nodes = [await startTestServer({ databaseUrl: db.url(), clock: () => now })];
    nodes.push(await startTestServer({ databaseUrl: db.url(), clock: () => now }));
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((s) => s.disconnect().catch(() => {})));
  });
  after(async () => {
    for (const node of nodes) await node.stop();
  });

  const member = async (name: string): Promise<Member> => newLoggedInUser(nodes[0], { name });
  const connect = async (m: Member, node: RunningServer): Promise<TestStomp> => {
    const stomp = await connectStomp(node, m.client.cookieHeader());
    open.push(stomp);
    return stomp;
  };
  const roomOf = async (a: Member, ...others: Member[]): Promise<number> => {
    const roomId = (await a.client.post(api.roomCreate, { targetUserId: others[0].user.userId })).body.chatRoomId as number;
    for (const o of others.slice(1)) await a.client.post(api.addUser, { chatRoomId: roomId, userId: o.user.userId });
    return roomId;
  };
  const history = async (m: Member, roomId: number, query: string) =>
    m.client.get<ChatHistoryResponse>(`${api.chatHistory}?chatRoomId=${roomId}${query}`);

  it('numbers a room\'s messages gap-free from 1 in commit order while many connections on two nodes send at once', async function () {
    this.timeout(120_000);
    const senders = await Promise.all(['Seq A', 'Seq B', 'Seq C', 'Seq D', 'Seq E', 'Seq F'].map(member));
    const roomId = await roomOf(senders[0], ...senders.slice(1));
    // Each sender has one connection on each node; each node has its own listener.
    const connections = await Promise.all(senders.flatMap((s) => nodes.map((node) => connect(s, node))));
    const listeners = await Promise.all(nodes.map(async (node) => (await connect(senders[0], node)).subscribe(topics.privateChat(roomId))));

    // The invitations were messages 1 to 4.
    const base = senders.length - 2;
    const perConnection = 25;
    const sends: Promise<void>[] = [];
    for (let i = 0; i < perConnection; i++) {
      connections.forEach((stomp, k) => sends.push(stomp.send(app.privateMessage, { chatRoomId: roomId, content: `c${k} #${i}` })));
    }
    await Promise.all(sends);
    const total = perConnection * connections.length;

    // In the database: seqs 1..N, and in seq order the ids ascend too (both were taken under
    // the room's lock, so a later seq was stored by a later transaction).
    const rows = (await nodes[0].db('messages').select('id', 'seq').where({ room_id: roomId }).orderBy('seq')) as Array<{ id: number; seq: number }>;
    expect(rows.map((r) => Number(r.seq))).to.deep.equal(Array.from({ length: base + total }, (_, i) => i + 1));
    expect(rows.every((r, i) => i === 0 || Number(r.id) > Number(rows[i - 1].id)), 'ids ascend with seq').to.equal(true);
    const counter = await nodes[0].db('rooms').select('last_seq').where({ id: roomId }).first();
    expect(Number(counter.last_seq)).to.equal(base + total);

    // On the wire: each node publishes what it stored in ascending seq; together, every seq once.
    const seen: number[] = [];
    for (const [n, inbox] of listeners.entries()) {
      const seqs: number[] = [];
      // Each node stored the messages sent over its connections: half of them.
      for (let i = 0; i < total / 2; i++) seqs.push((await inbox.next(30_000)).json<ChatMessageEvent>().seq!);
      expect(seqs.every((s, i) => i === 0 || s > seqs[i - 1]), `node ${n} publishes in seq order`).to.equal(true);
      seen.push(...seqs);
      await inbox.nothingSoFar(); // each node publishes what it stores before the SEND's RECEIPT
    }
    expect(seen.sort((a, b) => a - b)).to.deep.equal(Array.from({ length: total }, (_, i) => base + i + 1));
  });

  it('catches up after a seq: at most 100 oldest first with hasMore, and 20 before a seq', async () => {
    const a = await member('Catcher');
    const b = await member('Pitcher');
    const roomId = await roomOf(a, b);
    const rows: NewMessage[] = Array.from({ length: 250 }, (_, k) => ({
      roomId, senderId: b.user.userId, content: `m${k + 1}`, clientMsgId: null, leftUserId: null, addedUserEmail: null, systemEvent: null, atMs: now,
    }));
    await new MessagesRepository(nodes[0].db).insertMany(rows);
    const seqsOf = (res: { body: ChatHistoryResponse }) => res.body.messages.map((m) => m.seq);
    const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

    const first = await history(a, roomId, '&afterSeq=0');
    expect(first.status).to.equal(200);
    expect(seqsOf(first)).to.deep.equal(range(1, 100));
    expect(first.body.messages[0].content).to.equal('m1');
    expect(first.body.hasMore).to.equal(true);
    expect(first.body.totalPages).to.equal(13);
    const second = await history(a, roomId, '&afterSeq=100');
    expect(seqsOf(second)).to.deep.equal(range(101, 200));
    expect(second.body.hasMore).to.equal(true);
    const last = await history(a, roomId, '&afterSeq=200');
    expect(seqsOf(last)).to.deep.equal(range(201, 250));
    expect(last.body.hasMore).to.equal(false);
    const none = await history(a, roomId, '&afterSeq=250');
    expect(none.body.messages).to.deep.equal([]);
    expect(none.body.hasMore).to.equal(false);

    const before = await history(a, roomId, '&beforeSeq=51');
    expect(seqsOf(before)).to.deep.equal(range(31, 50));
    expect(before.body.hasMore).to.equal(undefined);
    expect(seqsOf(await history(a, roomId, '&beforeSeq=5'))).to.deep.equal(range(1, 4));
    expect(seqsOf(await history(a, roomId, '&page=0'))).to.deep.equal(range(231, 250));
    expect(seqsOf(await history(a, roomId, '&page=12'))).to.deep.equal(range(1, 10));

    expect((await history(a, roomId, '&afterSeq=-1')).status).to.equal(400);
    expect((await history(a, roomId, '&beforeSeq=0')).status).to.equal(400);
    expect((await history(a, roomId, '&afterSeq=1&beforeSeq=9')).status).to.equal(400);
    const stranger = await member('Stranger');
    expect((await history(stranger, roomId, '&afterSeq=0')).status).to.equal(403);
  });

  it('stores a clientMsgId the sender already used in another room, and answers a retry in the same room with the original', async () => {
    const a = await member('Reuser');
    const b = await member('Friend');
    const c = await member('Other Friend');
    const first = await roomOf(a, b);
    const second = await roomOf(a, c);
    const stomp = await connect(a, nodes[0]);
    const inFirst = await stomp.subscribe(topics.privateChat(first));
    const inSecond = await stomp.subscribe(topics.privateChat(second));
    await stomp.send(app.privateMessage, { chatRoomId: first, content: 'to B', clientMsgId: 'same-id' });
    await stomp.send(app.privateMessage, { chatRoomId: second, content: 'to C', clientMsgId: 'same-id' });
    expect((await inFirst.next()).json<ChatMessageEvent>()).to.deep.include({ content: 'to B', seq: 1 });
    expect((await inSecond.next()).json<ChatMessageEvent>()).to.deep.include({ content: 'to C', seq: 1 });

    // A retry on the other node, in the first room: not stored again, the original is re-sent.
    const retry = await connect(a, nodes[1]);
    const echo = await retry.subscribe(topics.privateChat(first));
    await retry.send(app.privateMessage, { chatRoomId: first, content: 'to B', clientMsgId: 'same-id' });
    expect((await echo.next()).json<ChatMessageEvent>()).to.deep.include({ content: 'to B', seq: 1 });
    expect((await history(a, first, '&page=0')).body.messages.map((m) => m.content)).to.deep.equal(['to B']);
    expect((await history(a, second, '&page=0')).body.messages.map((m) => m.content)).to.deep.equal(['to C']);
  });

  it('numbers a batch over several rooms in the order given, and stores nothing of a batch naming a room that is gone', async () => {
    const a = await member('Batcher');
    const b = await member('Batched');
    const c = await member('Gone Soon');
    const one = await roomOf(a, b);
    const two = await roomOf(a, c);
    const gone = await roomOf(b, c);
    // As the server stores them: in one round trip on MariaDB.
    const trips = fewTripTransactions(db.url(), nodes[0].db);
    const repo = new MessagesRepository(nodes[0].db, trips);
    try {
      const say = (roomId: number, content: string, clientMsgId: string | null = null): NewMessage => ({ roomId, senderId: a.user.userId, content, clientMsgId, leftUserId: null, addedUserEmail: null, systemEvent: null, atMs: now });
      await repo.insertMany([say(one, 'x')]);
      const stored = await repo.insertMany([say(two, 'p'), say(one, 'y'), say(two, 'q'), say(one, 'z'), say(two, 'r')]);
      expect(stored.map((s) => s.seq)).to.deep.equal([1, 2, 2, 3, 3]);
      const contentOf = async (id: number) => (await nodes[0].db('messages').where({ id }).first('content')).content as string;
      expect(await Promise.all(stored.map((s) => contentOf(s.id)))).to.deep.equal(['p', 'y', 'q', 'z', 'r']);
      // A batch failing half-way (a retried clientMsgId) stores nothing, and the next one goes on.
      await repo.insertMany([say(one, 'keyed', 'k-1')]);
      const duplicate = await repo.insertMany([say(two, 's'), say(one, 'keyed again', 'k-1')]).then(() => null, (err: unknown) => err);
      expect(isDuplicateKey(duplicate)).to.equal(true);
      expect((await repo.insertMany([say(two, 's')])).map((s) => s.seq)).to.deep.equal([4]);

      await b.client.delete(`${api.leaveChat}?chatRoomId=${gone}`);
      await c.client.delete(`${api.leaveChat}?chatRoomId=${gone}`);
      const refused = await repo.insertMany([say(one, 'lost'), say(gone, 'nowhere')]).then(() => null, (err: unknown) => err);
      expect(refused).to.be.instanceOf(RoomGoneError);
      expect((refused as RoomGoneError).roomIds).to.deep.equal([gone]);
      expect(((await nodes[0].db('messages').where({ room_id: one }).orderBy('seq').pluck('content')) as string[])).to.deep.equal(['x', 'y', 'z', 'keyed']);
      expect(Number((await nodes[0].db('rooms').where({ id: one }).first('last_seq')).last_seq)).to.equal(4);
    } finally {
      await trips.close();
    }
  });
});
