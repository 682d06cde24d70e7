// The search index written after a message's commit (docs/architecture.md §6a): a message waits
// (`indexed` 0) until MessageIndexer writes its rows, is found by search meanwhile, is indexed
// with the text it has then (edited or deleted while it waited), and one its node never indexed
// is taken by the sweep.
import { expect } from 'chai';
import pino from 'pino';
import { api, type MessageSearchResponse } from '@common/api';
import { app } from '@common/destinations';
import { messageGrams } from '../../src/features/chat/message-grams';
import { indexWaiting, WaitingMessages } from '../../src/features/chat/message-index-repository';
import { MessageIndexer } from '../../src/features/chat/message-indexer';
import { MessagesRepository, type NewMessage } from '../../src/features/chat/messages-repository';
import type { RunningServer } from '../../src/main';
import { forEachDatabase } from '../support/databases';
import { connectStomp } from '../support/stomp-client';
import { startTestServer } from '../support/test-server';
import { newLoggedInUser } from '../support/users';
import { waitFor } from '../support/wait';

forEachDatabase('the search index, written after the commit', (db) => {
  let server: RunningServer;
  const log = pino({ level: 'silent' });
  const METRICS_TOKEN = 'index-metrics';

  before(async () => {
    // The server's own sweep takes messages that waited 10 s by its clock: a day behind, it never
    // takes the ones these tests store (stamped with the real time) and leave to their indexers.
    server = await startTestServer({ databaseUrl: db.url(), env: { METRICS_TOKEN }, clock: () => Date.now() - 86_400_000 });
  });
  after(async () => {
    await server?.stop();
  });

  /** Two members and their room; messages are stored straight through the repository, so no indexer sees them. */
  const room = async () => {
    const a = await newLoggedInUser(server, { name: '색인' });
    const b = await newLoggedInUser(server, { name: '검색' });
    const roomId = (await a.client.post(api.roomCreate, { targetUserId: b.user.userId })).body.chatRoomId as number;
    const store = async (content: string, atMs = Date.now()): Promise<number> => {
      const message: NewMessage = { roomId, senderId: a.user.userId, content, clientMsgId: null, leftUserId: null, addedUserEmail: null, systemEvent: null, atMs };
      const [stored] = await new MessagesRepository(server.db).insertMany([message]);
      return stored.id;
    };
    const found = async (keyword: string): Promise<string[]> =>
      (await b.client.get<MessageSearchResponse>(`${api.messageSearch}?keyword=${encodeURIComponent(keyword)}`)).body.results.map((r) => r.content);
    return { a, b, roomId, store, found };
  };
  const indexedFlag = async (id: number): Promise<boolean> => Boolean((await server.db('messages').where({ id }).first('indexed')).indexed);
  const rowsOf = async (id: number): Promise<number[]> =>
    ((await server.db('message_bigrams').where({ message_id: id }).pluck('gram')) as Array<number | string>).map(Number).sort((x, y) => x - y);
  const gramsOf = (text: string) => messageGrams(text).sort((x, y) => x - y);

  it('finds a message while it waits for the index and once it is in it, once each time', async () => {
    const { store, found } = await room();
    const id = await store('기다리는 메시지 색인 전');
    expect(await indexedFlag(id)).to.equal(false);
    expect(await rowsOf(id)).to.deep.equal([]);
    expect(await found('색인')).to.deep.equal(['기다리는 메시지 색인 전']);
    expect(await found('색')).to.deep.equal(['기다리는 메시지 색인 전']);

    expect(await indexWaiting(server.db, [id])).to.equal(1);
    expect(await indexedFlag(id)).to.equal(true);
    expect(await rowsOf(id)).to.deep.equal(gramsOf('기다리는 메시지 색인 전'));
    expect(await found('색인')).to.deep.equal(['기다리는 메시지 색인 전']);
    // Indexed once: asked again, nothing moves.
    expect(await indexWaiting(server.db, [id])).to.equal(0);
    expect(await rowsOf(id)).to.deep.equal(gramsOf('기다리는 메시지 색인 전'));
  });

  it('indexes a message edited while it waited by its new text, and one deleted while it waited not at all', async () => {
    const { roomId, store, found } = await room();
    const messages = new MessagesRepository(server.db);
    const edited = await store('고치기 전 문장');
    const deleted = await store('지워질 문장');
    expect(await messages.edit(roomId, edited, '고친 뒤 문장', Date.now())).to.not.equal(null);
    expect(await messages.deleteForEveryone(roomId, deleted, Date.now())).to.not.equal(null);
    expect(await found('문장')).to.deep.equal(['고친 뒤 문장']);

    expect(await indexWaiting(server.db, [edited, deleted])).to.equal(2);
    expect(await rowsOf(edited)).to.deep.equal(gramsOf('고친 뒤 문장'));
    expect(await rowsOf(deleted)).to.deep.equal([]);
    expect(await indexedFlag(deleted)).to.equal(true);
    expect(await found('문장')).to.deep.equal(['고친 뒤 문장']);
    expect(await found('전')).to.deep.equal([]);

    // Indexed, then edited: its rows follow the text in the edit's own transaction.
    expect(await messages.edit(roomId, edited, '세 번째 글', Date.now())).to.not.equal(null);
    expect(await rowsOf(edited)).to.deep.equal(gramsOf('세 번째 글'));
  });

  it('sweeps the messages a node left waiting (stopped before indexing them), and only those that waited long enough', async () => {
    const { store, found } = await room();
    const old = await store('멈춘 노드가 남긴 글', Date.now() - 60_000);
    const fresh = await store('방금 저장된 글');
    let indexed = 0;
    const indexer = new MessageIndexer(new WaitingMessages(server.db), () => Date.now(), log, (n) => (indexed += n), { sweepEveryMs: 3_600_000, sweepAfterMs: 30_000 });
    try {
      await indexer.sweep();
      expect(await indexedFlag(old)).to.equal(true);
      expect(await rowsOf(old)).to.deep.equal(gramsOf('멈춘 노드가 남긴 글'));
      expect(await indexedFlag(fresh)).to.equal(false);
      expect(indexed).to.equal(1);
      expect(await found('남긴')).to.deep.equal(['멈춘 노드가 남긴 글']);
    } finally {
      indexer.stop();
      await indexer.idle();
    }
  });

  it('indexes what the server stores, after the commit, and counts it in the metrics', async () => {
    const { a, roomId, found } = await room();
    const stomp = await connectStomp(server, a.client.cookieHeader());
    try {
      for (const text of ['서버가 쓴 첫 글', '서버가 쓴 둘째 글']) await stomp.send(app.privateMessage, { chatRoomId: roomId, content: text });
      const ids = ((await server.db('messages').where({ room_id: roomId }).whereNotNull('sender_id').orderBy('id').pluck('id')) as number[]).map(Number);
      expect(ids).to.have.length(2);
      await waitFor(async () => (await Promise.all(ids.map(indexedFlag))).every(Boolean), 'the server to index both messages');
      expect(await rowsOf(ids[1])).to.deep.equal(gramsOf('서버가 쓴 둘째 글'));
      expect(await found('둘째')).to.deep.equal(['서버가 쓴 둘째 글']);
      const metrics = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } }).then((r) => r.text());
      expect(Number(/^letschat_messages_indexed_total (\d+)/m.exec(metrics)?.[1])).to.be.at.least(2);
    } finally {
      await stomp.disconnect();
    }
  });
});
