// A retried clientMsgId fails only itself (docs/architecture.md §6): the message writer's batch
// recognises each repeat inside its one transaction and stores the rest, on both databases.
import { expect } from 'chai';
import pino from 'pino';
import { api, type ChatHistoryResponse } from '@common/api';
import { app } from '@common/destinations';
import { fewTripTransactions, type FewTrips } from '../../src/db/few-trips';
import { MessageWriter, type WriteOutcome } from '../../src/features/chat/message-writer';
import { MessagesRepository, type NewMessage } from '../../src/features/chat/messages-repository';
import type { RunningServer } from '../../src/main';
import { forEachDatabase } from '../support/databases';
import { connectStomp, type TestStomp } from '../support/stomp-client';
import { startTestServer } from '../support/test-server';
import { newLoggedInUser } from '../support/users';

/** Counts the transactions the repository opens. */
function counting(trips: FewTrips): FewTrips & { transactions: number } {
  const counted = {
    transactions: 0,
    transaction: <T>(work: Parameters<FewTrips['transaction']>[0]) => {
      counted.transactions++;
      return trips.transaction(work) as Promise<T>;
    },
    close: () => trips.close(),
  };
  return counted;
}

forEachDatabase('repeated clientMsgIds in a batch', (db) => {
  let server: RunningServer;
  const open: TestStomp[] = [];
  before(async () => {
    server = await startTestServer({ databaseUrl: db.url() });
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((s) => s.disconnect().catch(() => {})));
  });
  after(async () => {
    await server.stop();
  });

  it('stores each new message of a batch once, answers each repeat with its original, in one transaction', async () => {
    const a = await newLoggedInUser(server, { name: 'Repeater' });
    const b = await newLoggedInUser(server, { name: 'Repeated' });
    const roomId = (await a.client.post(api.roomCreate, { targetUserId: b.user.userId })).body.chatRoomId as number;
    const trips = counting(fewTripTransactions(db.url(), server.db));
    try {
      const writer = new MessageWriter(new MessagesRepository(server.db, trips), pino({ level: 'silent' }));
      const say = (content: string, clientMsgId: string | null): NewMessage => ({
        roomId, senderId: a.user.userId, content, clientMsgId, leftUserId: null, addedUserEmail: null, systemEvent: null, atMs: Date.now(),
      });
      const original = await writer.write(say('original', 'k0'), () => {});
      expect(original.kind).to.equal('stored');
      trips.transactions = 0;
      const announced: string[] = [];
      const batch: Array<[string, string | null]> = [['a', 'k1'], ['original again', 'k0'], ['b', null], ['a again', 'k1'], ['c', 'k2'], ['original once more', 'k0']];
      const outcomes: WriteOutcome[] = await Promise.all(batch.map(([content, key]) => writer.write(say(content, key), () => announced.push(content))));
      // Before, the repeat failed the batch's transaction and the writer then stored it one message a transaction.
      expect(trips.transactions).to.equal(1);
      const first = original.kind === 'stored' ? original : null;
      const seqOf = (o: WriteOutcome) => (o.kind === 'stored' ? o.seq : null);
      expect(outcomes.map((o) => o.kind)).to.deep.equal(['stored', 'duplicate', 'stored', 'duplicate', 'stored', 'duplicate']);
      expect(outcomes[1].id).to.equal(first!.id);
      expect(outcomes[3].id).to.equal(outcomes[0].id);
      expect(outcomes[5].id).to.equal(first!.id);
      expect([seqOf(outcomes[0]), seqOf(outcomes[2]), seqOf(outcomes[4])]).to.deep.equal([first!.seq + 1, first!.seq + 2, first!.seq + 3]);
      expect(announced).to.deep.equal(['a', 'b', 'c']);
      const rows = (await server.db('messages').where({ room_id: roomId }).orderBy('seq').select('seq', 'content')) as Array<{ seq: number; content: string }>;
      expect(rows.map((r) => Number(r.seq))).to.deep.equal(Array.from({ length: rows.length }, (_, i) => i + 1));
      expect(rows.slice(-4).map((r) => r.content)).to.deep.equal(['original', 'a', 'b', 'c']);
      expect(Number((await server.db('rooms').where({ id: roomId }).first('last_seq')).last_seq)).to.equal(rows.length);
    } finally {
      await trips.close();
    }
  });

  it('receipts every SEND of a sender resending stored clientMsgIds among new ones, storing each new one once', async () => {
    const a = await newLoggedInUser(server, { name: 'Resender' });
    const b = await newLoggedInUser(server, { name: 'Resent' });
    const roomId = (await a.client.post(api.roomCreate, { targetUserId: b.user.userId })).body.chatRoomId as number;
    const stomp = await connectStomp(server, a.client.cookieHeader());
    open.push(stomp);
    await stomp.send(app.privateMessage, { chatRoomId: roomId, content: 'stored', clientMsgId: 'r-0' });
    // Several connections, so the SENDs meet in the writer's batches.
    const others = await Promise.all([1, 2, 3].map(() => connectStomp(server, a.client.cookieHeader())));
    open.push(...others);
    const sends: Array<Promise<void>> = [];
    for (let i = 1; i <= 10; i++) {
      for (const [k, s] of others.entries()) {
        sends.push(s.send(app.privateMessage, { chatRoomId: roomId, content: 'stored again', clientMsgId: 'r-0' }));
        sends.push(s.send(app.privateMessage, { chatRoomId: roomId, content: `new ${k}-${i}`, clientMsgId: `r-${k}-${i}` }));
      }
    }
    await Promise.all(sends);
    const history = (await a.client.get<ChatHistoryResponse>(`${api.chatHistory}?chatRoomId=${roomId}&afterSeq=0`)).body.messages;
    const contents = history.map((m) => m.content);
    expect(contents.filter((c) => c === 'stored')).to.have.length(1);
    expect(contents.filter((c) => c === 'stored again')).to.have.length(0);
    expect(contents.filter((c) => c.startsWith('new '))).to.have.length(30);
    expect(history.map((m) => m.seq)).to.deep.equal(Array.from({ length: history.length }, (_, i) => i + 1));
  });
});
