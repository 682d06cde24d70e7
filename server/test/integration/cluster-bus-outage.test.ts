// The bus out of reach in the two ways a node cannot tell apart at once: a Redis that stops
// answering while keeping its connections open (frozen by SIGSTOP, as a partition without a
// reset looks), and a Redis killed and started again. Requests that ask Redis answer within their
// bounds, /healthz says the bus is down, and once it is back every client is told to catch up
// on what it missed meanwhile (docs/architecture.md §9, docs/protocol.md "Catching up after a bus outage").
import { expect } from 'chai';
import { api, type ChatHistoryResponse } from '@common/api';
import { app, topics } from '@common/destinations';
import { useCluster, type NodeProcess } from '../support/cluster';
import { waitFor, within } from '../support/wait';

/** Generous next to the 1 s command timeout, short next to a hang (the attack saw 11.75 s). */
const ANSWER_DEADLINE_MS = 5000;

const health = async (node: NodeProcess) => {
  const res = await fetch(`${node.url}${api.healthz}`);
  return { status: res.status, body: (await res.json()) as { status: string; bus?: string } };
};

describe('a cluster whose Redis stops answering or goes away (MariaDB)', function () {
  const cluster = useCluster({ nodes: 2 });
  const { nodes, person, connect } = cluster;

  it('answers history, user search and a call while Redis is frozen, and /healthz says the bus is down', async () => {
    const [a, b, c] = await Promise.all([person(nodes[0], '에이'), person(nodes[0], '비'), person(nodes[1], '멀리씨')]);
    const roomId = (await a.client.post(api.roomCreate, { targetUserId: b.user.userId })).body.chatRoomId as number;
    expect((await a.client.post(api.addUser, { chatRoomId: roomId, userId: c.user.userId })).status).to.equal(200);
    const caller = await connect(nodes[0], a);
    await connect(nodes[0], b);
    // c is connected to the other node only: whether c is online is a question for Redis.
    await connect(nodes[1], c);
    expect((await health(nodes[0])).body).to.include({ status: 'ok', bus: 'up' });

    cluster.redis.freeze();
    try {
      const history = await within(a.client.get<ChatHistoryResponse>(`${api.chatHistory}?chatRoomId=${roomId}&page=0`), ANSWER_DEADLINE_MS, 'history');
      expect(history.status).to.equal(200);
      // Still online: b is connected to this node, which knows it without Redis.
      expect(history.body.users.find((u) => u.userId === b.user.userId)?.online).to.equal(true);
      const search = await within(a.client.get(`${api.userSearch}?keyword=${encodeURIComponent('멀리')}`), ANSWER_DEADLINE_MS, 'user search');
      expect(search.status).to.equal(200);
      // A call needs the shared call state: refused as retryable (try again in a moment), not left hanging.
      const call = await within(
        caller.send(app.callInitiate, { targetUserId: b.user.userId }).then(() => 'receipted', (err: Error) => err.message),
        ANSWER_DEADLINE_MS,
        'the call initiate to be answered',
      );
      expect(call).to.match(/receipted|unavailable/);
      console.log(`      (call initiate while frozen: ${call})`);
      await waitFor(async () => (await health(nodes[0])).body.bus === 'down', { what: '/healthz to say the bus is down', timeoutMs: 10_000, everyMs: 100 });
      expect((await health(nodes[0])).body).to.include({ status: 'degraded', bus: 'down' });
    } finally {
      cluster.redis.thaw();
    }
    await waitFor(async () => (await Promise.all(nodes.map(health))).every((h) => h.body.status === 'ok'), { what: 'both nodes to say ok again', everyMs: 100 });
  });

  it('tells every member on the other node to catch up once Redis is back, so what was sent meanwhile reaches them without a new message', async () => {
    const [a, c] = await Promise.all([person(nodes[0], '에이'), person(nodes[1], '씨')]);
    const roomId = (await a.client.post(api.roomCreate, { targetUserId: c.user.userId })).body.chatRoomId as number;
    const sender = await connect(nodes[0], a);
    const member = await connect(nodes[1], c);
    const room = await member.subscribe(topics.privateChat(roomId));
    const roomEvents = await member.subscribe(topics.chatRoomEvents(roomId));
    const refresh = await member.subscribe(topics.toggleRefresh(c.user.userId));
    await sender.send(app.privateMessage, { chatRoomId: roomId, content: '전', clientMsgId: 'before' });
    expect((await room.next()).json<{ seq: number }>().seq).to.equal(1);
    await refresh.next();
    refresh.drain();

    await cluster.redis.stop();
    await waitFor(async () => (await Promise.all(nodes.map(health))).every((h) => h.body.bus === 'down'), { what: 'both nodes to see the bus down', everyMs: 100 });
    // Stored and receipted on node 1; node 2 cannot hear of them.
    for (let i = 1; i <= 3; i++) await sender.send(app.privateMessage, { chatRoomId: roomId, content: `없는 동안 ${i}`, clientMsgId: `during-${i}` });

    await cluster.redis.start();
    const back = Date.now();
    // Nothing new is sent: the signals alone must come.
    const event = await within(roomEvents.next(20_000), 20_000, 'a resync event on the room-events topic');
    const caughtUpAfterMs = Date.now() - back;
    expect(event.json()).to.deep.equal({ type: 'resync', chatRoomId: roomId });
    expect((await within(refresh.next(20_000), 20_000, 'a chat-list refresh')).body).to.equal('true');
    // What a client does on it (afterSeq from the last seq it holds) finds the messages.
    const missed = (await c.client.get<ChatHistoryResponse>(`${api.chatHistory}?chatRoomId=${roomId}&afterSeq=1`)).body.messages;
    expect(missed.map((m) => m.content)).to.deep.equal(['없는 동안 1', '없는 동안 2', '없는 동안 3']);
    console.log(`      (resync signal ${caughtUpAfterMs} ms after redis-server was started again)`);
  });
});
