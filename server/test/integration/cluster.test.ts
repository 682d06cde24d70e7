// Several real node processes sharing MariaDB and a private Redis: what one node publishes
// reaches the clients of the others exactly once and in order, and what ends on one node
// (a subscription, a login session) ends on all.
import { expect } from 'chai';
import { api, type ChatHistoryResponse, type UserSummary } from '@common/api';
import { app, topics } from '@common/destinations';
import type { ChatMessageEvent } from '@common/payloads';
import { useCluster, type ClusterPerson as Person, type NodeProcess } from '../support/cluster';
import { waitFor } from '../support/wait';

describe('several nodes over Redis (MariaDB)', function () {
  const cluster = useCluster({ nodes: 3, env: { MAX_CONNECTIONS_PER_ADDRESS: '10000' } });
  const { nodes, person, connect } = cluster;
  const roomOf = async (owner: Person, ...others: Person[]): Promise<number> => {
    const res = await owner.client.post(api.roomCreate, { targetUserId: others[0].user.userId });
    expect(res.status, res.text).to.equal(200);
    const roomId = res.body.chatRoomId as number;
    for (const o of others.slice(1)) {
      expect((await owner.client.post(api.addUser, { chatRoomId: roomId, userId: o.user.userId })).status).to.equal(200);
    }
    return roomId;
  };

  it('a message from a user on node 1 reaches members on nodes 2 and 3 exactly once and in order', async () => {
    const [a, b, c] = await Promise.all([person(nodes[0], '에이'), person(nodes[1], '비'), person(nodes[2], '씨')]);
    const roomId = await roomOf(a, b, c);
    const sender = await connect(nodes[0], a);
    const inboxes = await Promise.all(
      [[nodes[1], b], [nodes[2], c], [nodes[2], c]].map(async ([node, p]) => (await connect(node as NodeProcess, p as Person)).subscribe(topics.privateChat(roomId))),
    );
    const count = 30;
    for (let i = 0; i < count; i++) {
      await sender.send(app.privateMessage, { chatRoomId: roomId, content: `메시지 ${i}`, clientMsgId: `m-${i}` });
    }
    // Once each: the room's next message, on the same paths, comes right after them.
    await sender.send(app.privateMessage, { chatRoomId: roomId, content: '다음 글', clientMsgId: 'm-next' });
    for (const inbox of inboxes) {
      const got: string[] = [];
      for (let i = 0; i <= count; i++) got.push((await inbox.next()).json<ChatMessageEvent>().content);
      expect(got).to.deep.equal([...Array.from({ length: count }, (_, i) => `메시지 ${i}`), '다음 글']);
    }
  });

  it('each member hears of a new message on their refresh topic on whichever node they are', async () => {
    const [a, b] = await Promise.all([person(nodes[0], '에이'), person(nodes[1], '비')]);
    const roomId = await roomOf(a, b);
    const refresh = await (await connect(nodes[1], b)).subscribe(topics.toggleRefresh(b.user.userId));
    await (await connect(nodes[0], a)).send(app.privateMessage, { chatRoomId: roomId, content: '안녕', clientMsgId: 'r-1' });
    expect((await refresh.next()).body).to.equal('true');
  });

  it('logout on node 1 closes the same login session’s sockets on node 2, and node 2 no longer accepts its cookie', async () => {
    const a = await person(nodes[0], '에이');
    const cookie = a.client.cookieHeader();
    const elsewhere = await connect(nodes[1], a);
    // Node 2 has checked (and remembers) the cookie.
    expect((await fetch(`${nodes[1].url}${api.userId}`, { headers: { cookie } })).status).to.equal(200);
    expect((await a.client.post(api.logout, {})).status).to.equal(200);
    expect(await elsewhere.closed).to.be.a('number');
    expect((await fetch(`${nodes[1].url}${api.userId}`, { headers: { cookie } })).status).to.equal(401);
  });

  it('leave on node 2 stops delivery to that user’s tabs on node 3', async () => {
    const [a, b] = await Promise.all([person(nodes[0], '에이'), person(nodes[1], '비')]);
    const c = await person(nodes[0], '씨');
    const roomId = await roomOf(a, b, c);
    const onNode3 = await (await connect(nodes[2], b)).subscribe(topics.privateChat(roomId));
    const witnessOnNode3 = await (await connect(nodes[2], c)).subscribe(topics.privateChat(roomId));
    const sender = await connect(nodes[0], a);
    expect((await b.client.delete(`${api.leaveChat}?chatRoomId=${roomId}`)).status).to.equal(200);
    // The leave message itself reaches the leaver's other tab, once; nothing after it.
    expect((await onNode3.next()).json<ChatMessageEvent>().leftUserId).to.equal(b.user.userId);
    await sender.send(app.privateMessage, { chatRoomId: roomId, content: '나간 뒤', clientMsgId: 'after-leave' });
    // Node 3 wrote the message to every subscriber of the room's topic there at once: once c's
    // came, b's would have been written too.
    expect((await witnessOnNode3.next()).json<ChatMessageEvent>().leftUserId).to.equal(b.user.userId);
    expect((await witnessOnNode3.next()).json<ChatMessageEvent>().content).to.equal('나간 뒤');
    await onNode3.nothingSoFar();
  });

  it('a user who left on one node cannot send to the room through another node at once', async () => {
    const [a, b] = await Promise.all([person(nodes[0], '에이'), person(nodes[1], '비')]);
    const c = await person(nodes[2], '씨');
    const roomId = await roomOf(a, b, c);
    const viaNode3 = await connect(nodes[2], b);
    // Node 3 caches the room's members as it carries a message.
    await viaNode3.send(app.privateMessage, { chatRoomId: roomId, content: '들어와 있음', clientMsgId: 'before' });
    expect((await b.client.delete(`${api.leaveChat}?chatRoomId=${roomId}`)).status).to.equal(200);
    let refused = false;
    await viaNode3.send(app.privateMessage, { chatRoomId: roomId, content: '나간 뒤', clientMsgId: 'after' }).catch(() => (refused = true));
    expect(refused).to.equal(true);
  });

  it('typing from a user’s tabs on two nodes reaches the room once per interval', async () => {
    const [a, b] = await Promise.all([person(nodes[0], '에이'), person(nodes[2], '비')]);
    const roomId = await roomOf(a, b);
    const events = await (await connect(nodes[2], b)).subscribe(topics.chatRoomEvents(roomId));
    const [tab1, tab2] = await Promise.all([connect(nodes[0], a), connect(nodes[1], a)]);
    await tab1.send(app.typing, { chatRoomId: roomId });
    await tab2.send(app.typing, { chatRoomId: roomId });
    await tab1.send(app.typing, { chatRoomId: roomId });
    const typing: unknown[] = [];
    for (let m = await events.next(1000).catch(() => null); m; m = await events.next(700).catch(() => null)) {
      const event = m.json<{ type: string }>();
      if (event.type === 'typing') typing.push(event);
    }
    expect(typing).to.have.length(1);
  });

  it('a user connected to two nodes stays online when one of them loses its connection, and goes offline with the last', async () => {
    const [a, b] = await Promise.all([person(nodes[0], '에이'), person(nodes[2], '비')]);
    const roomId = await roomOf(a, b);
    const events = await (await connect(nodes[2], b)).subscribe(topics.chatRoomEvents(roomId));
    const presenceOfA = async (waitMs: number): Promise<boolean[]> => {
      const seen: boolean[] = [];
      for (let m = await events.next(waitMs).catch(() => null); m; m = await events.next(700).catch(() => null)) {
        const event = m.json<{ type: string; userId: number; online: boolean }>();
        if (event.type === 'presence' && event.userId === a.user.userId) seen.push(event.online);
      }
      return seen;
    };
    const onNode1 = await connect(nodes[0], a);
    expect(await presenceOfA(2000)).to.deep.equal([true]);
    const onNode2 = await connect(nodes[1], a);
    await onNode2.disconnect();
    expect(await presenceOfA(1000)).to.not.include(false);
    await onNode1.disconnect();
    expect(await presenceOfA(2000)).to.deep.equal([false]);
  });

  it('history and user search on one node show online a member connected only to another node, and offline once they leave', async () => {
    const [a, b] = await Promise.all([person(nodes[0], '에이'), person(nodes[1], `원격 ${[...String(Date.now())].map((d) => 'abcdefghij'[Number(d)]).join('')}`)]);
    const roomId = await roomOf(a, b);
    const seenFromNode1 = async () => {
      const history = await a.client.get<ChatHistoryResponse>(`${api.chatHistory}?chatRoomId=${roomId}&page=0`);
      const search = await a.client.get<UserSummary[]>(`${api.userSearch}?keyword=${encodeURIComponent(b.user.name)}`);
      return {
        inHistory: history.body.users.find((u) => u.userId === b.user.userId)!.online,
        inSearch: search.body.map((u) => u.online),
      };
    };
    // Node 2 writes the user's presence entry to Redis as the connection opens and drops it as
    // the last one closes, a moment after the client's CONNECTED or DISCONNECT: asked until then.
    const settled = async (online: boolean) => {
      await waitFor(async () => (await seenFromNode1()).inHistory === online, { what: `node 1's history showing b ${online ? 'online' : 'offline'}`, everyMs: 100 });
      return seenFromNode1();
    };
    expect(await seenFromNode1()).to.deep.equal({ inHistory: false, inSearch: [false] });
    const onNode2 = await connect(nodes[1], b);
    expect(await settled(true)).to.deep.equal({ inHistory: true, inSearch: [true] });
    await onNode2.disconnect();
    const seen = await settled(false);
    expect(seen).to.deep.equal({ inHistory: false, inSearch: [false] });
  });
});
