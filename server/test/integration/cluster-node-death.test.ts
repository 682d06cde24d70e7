// A node killed mid-traffic (kill -9), two node processes on MariaDB and a private Redis: the
// sender and a receiver on the doomed node reconnect to the survivor; the sender sends again
// whatever was not acknowledged (same clientMsgId), every reader catches up by seq from
// history. Afterwards each reader holds every acknowledged message exactly once, in seq order,
// and the room's history has each message once.
import { expect } from 'chai';
import { api, type ChatHistoryResponse, type ChatMessage } from '@common/api';
import { app, topics } from '@common/destinations';
import type { ChatMessageEvent } from '@common/payloads';
import type { ApiClient } from '../support/api-client';
import { useCluster } from '../support/cluster';
import type { Inbox } from '../support/stomp-client';

/** A reader as the client is: messages by seq, a gap (or a reconnect) filled from history. */
class SeqReader {
  readonly bySeq = new Map<number, string>();
  private last = 0;

  constructor(
    private readonly client: ApiClient,
    private readonly roomId: number,
  ) {}

  async take(message: ChatMessageEvent): Promise<void> {
    const seq = message.seq ?? 0;
    if (seq > this.last + 1) await this.catchUp();
    this.keep(seq, message.content);
  }

  async catchUp(): Promise<void> {
    for (;;) {
      const res = await this.client.get<ChatHistoryResponse>(`${api.chatHistory}?chatRoomId=${this.roomId}&afterSeq=${this.last}`);
      expect(res.status, res.text).to.equal(200);
      for (const m of res.body.messages as ChatMessage[]) this.keep(m.seq ?? 0, m.content);
      if (!res.body.hasMore) return;
    }
  }

  private keep(seq: number, content: string): void {
    if (seq === 0) return;
    const before = this.bySeq.get(seq);
    if (before !== undefined) expect(before, `seq ${seq} twice with different content`).to.equal(content);
    this.bySeq.set(seq, content);
    while (this.bySeq.has(this.last + 1)) this.last++;
  }
}

/** Feeds a subscription's messages to the reader until stopped (the socket closing stops it). */
function pump(inbox: Inbox, reader: SeqReader): { stop(): void; done: Promise<void> } {
  let stopped = false;
  const done = (async () => {
    while (!stopped) {
      const m = await inbox.next(500).catch(() => null);
      if (m) await reader.take(m.json<ChatMessageEvent>());
    }
  })();
  return { stop: () => (stopped = true), done };
}

describe('a node killed mid-traffic (MariaDB, Redis)', function () {
  const { nodes, person, connect } = useCluster({ nodes: 2, stopSignal: 'SIGKILL' });

  it('loses, duplicates and reorders no acknowledged message: clients move to the survivor and catch up by seq', async () => {
    const [survivor, doomed] = nodes;
    const [a, b, c] = await Promise.all([person(survivor, '에이'), person(survivor, '비'), person(survivor, '씨')]);
    const roomId = (await a.client.post(api.roomCreate, { targetUserId: b.user.userId })).body.chatRoomId as number;
    expect((await a.client.post(api.addUser, { chatRoomId: roomId, userId: c.user.userId })).status).to.equal(200);

    // c reads on the survivor throughout; b reads on the doomed node, a sends through it.
    const readerC = new SeqReader(c.client, roomId);
    const pumpC = pump(await (await connect(survivor, c.client)).subscribe(topics.privateChat(roomId)), readerC);
    const readerB = new SeqReader(b.client, roomId);
    const bOnDoomed = await connect(doomed, b.client);
    const pumpB1 = pump(await bOnDoomed.subscribe(topics.privateChat(roomId)), readerB);

    const total = 40;
    const acknowledged = new Set<number>();
    let sender = await connect(doomed, a.client);
    let onSurvivor = false;
    for (let i = 0; i < total; ) {
      if (i === 15 && !onSurvivor) void doomed.stop('SIGKILL');
      const ok = await sender
        .send(app.privateMessage, { chatRoomId: roomId, content: `m${i}`, clientMsgId: `death-${i}` })
        .then(() => true, () => false);
      if (ok) {
        acknowledged.add(i);
        i++;
        continue;
      }
      // The node died under the send: move to the survivor and send the same message again.
      expect(onSurvivor, 'a send failed on the survivor').to.equal(false);
      onSurvivor = true;
      sender = await connect(survivor, a.client);
    }
    expect(onSurvivor).to.equal(true);
    expect(await bOnDoomed.closed).to.be.a('number');
    pumpB1.stop();
    await pumpB1.done;
    // b comes back on the survivor: subscribe, then catch up from history.
    const pumpB2 = pump(await (await connect(survivor, b.client)).subscribe(topics.privateChat(roomId)), readerB);
    await readerB.catchUp();
    await readerC.catchUp();
    pumpB2.stop();
    pumpC.stop();
    await Promise.all([pumpB2.done, pumpC.done]);

    const expected = Array.from({ length: total }, (_, i) => `m${i}`);
    for (const reader of [readerB, readerC]) {
      const seqs = [...reader.bySeq.keys()].sort((x, y) => x - y);
      const userMessages = seqs.map((s) => reader.bySeq.get(s)!).filter((t) => /^m[0-9]+$/.test(t));
      expect(userMessages).to.deep.equal(expected);
      expect(seqs).to.deep.equal(Array.from({ length: seqs.length }, (_, k) => seqs[0] + k));
    }
    const history = (await a.client.get<ChatHistoryResponse>(`${api.chatHistory}?chatRoomId=${roomId}&afterSeq=0`)).body.messages;
    expect(history.map((m) => m.content).filter((t) => /^m[0-9]+$/.test(t))).to.deep.equal(expected);
    expect(acknowledged.size).to.equal(total);
  });
});
