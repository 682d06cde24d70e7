// A cluster through a Redis outage: two node processes on MariaDB and a private redis-server that
// the test kills and starts again. Nodes keep serving their own clients and say degraded; when
// Redis is back, cross-node delivery resumes, and what was decided elsewhere meanwhile (a leave,
// a logout) takes effect here too.
import { expect } from 'chai';
import { api } from '@common/api';
import { app, topics } from '@common/destinations';
import type { ChatMessageEvent } from '@common/payloads';
import { useCluster, type NodeProcess } from '../support/cluster';
import { waitFor } from '../support/wait';

const until = (what: string, check: () => Promise<boolean>) => waitFor(check, { what, everyMs: 100 });

describe('a cluster through a Redis outage (MariaDB)', function () {
  const cluster = useCluster({ nodes: 2 });
  const { nodes, person, connect } = cluster;
  const health = async (node: NodeProcess) => {
    const res = await fetch(`${node.url}${api.healthz}`);
    return { status: res.status, body: (await res.json()) as { status: string; bus?: string } };
  };

  it('keeps serving local clients while Redis is down, says degraded, and carries messages across nodes again once it is back', async () => {
    const [a, b, c] = await Promise.all([person(nodes[0], '에이'), person(nodes[0], '비'), person(nodes[1], '씨')]);
    const create = await a.client.post(api.roomCreate, { targetUserId: b.user.userId });
    const roomId = create.body.chatRoomId as number;
    expect((await a.client.post(api.addUser, { chatRoomId: roomId, userId: c.user.userId })).status).to.equal(200);
    const sender = await connect(nodes[0], a);
    const local = await (await connect(nodes[0], b)).subscribe(topics.privateChat(roomId));
    const remote = await (await connect(nodes[1], c)).subscribe(topics.privateChat(roomId));
    // A second login of b on node 2, to be left there during the outage.
    const bOnNode2 = await connect(nodes[1], b);
    const bElsewhere = await bOnNode2.subscribe(topics.privateChat(roomId));
    expect((await health(nodes[0])).body).to.include({ status: 'ok', bus: 'up' });
    await sender.send(app.privateMessage, { chatRoomId: roomId, content: '모두에게', clientMsgId: 'up-0' });
    for (const inbox of [local, remote, bElsewhere]) expect((await inbox.next()).json<ChatMessageEvent>().content).to.equal('모두에게');

    await cluster.redis.stop();
    await until('both nodes say degraded', async () => (await Promise.all(nodes.map(health))).every((h) => h.status === 200 && h.body.status === 'degraded'));
    await sender.send(app.privateMessage, { chatRoomId: roomId, content: '레디스 없이', clientMsgId: 'down-1' });
    expect((await local.next()).json<ChatMessageEvent>().content).to.equal('레디스 없이');
    // b leaves on node 1 while node 2 cannot hear of it.
    expect((await b.client.delete(`${api.leaveChat}?chatRoomId=${roomId}`)).status).to.equal(200);

    await cluster.redis.start();
    await until('both nodes say ok', async () => (await Promise.all(nodes.map(health))).every((h) => h.body.status === 'ok'));
    // Redis is back: cross-node delivery resumes, and node 2, re-checking what it holds, ends the
    // subscription b left on node 1 meanwhile: a probe that reaches c on node 2 no longer reaches b there.
    let probe = 0;
    await until('a probe crosses nodes to c and no longer reaches b', async () => {
      const content = `돌아옴 ${++probe}`;
      await sender.send(app.privateMessage, { chatRoomId: roomId, content, clientMsgId: `probe-${probe}` });
      // A probe lost while the bus resubscribes is sent again: one second is a retry pace here.
      while ((await remote.next(1000)).json<ChatMessageEvent>().content !== content);
      // Node 2 wrote the probe to b's socket, if at all, when it wrote it to c's: it has come by
      // the answer to a frame b sends now.
      await bOnNode2.roundTrip();
      return !bElsewhere.drain().some((m) => m.json<ChatMessageEvent>().content === content);
    });
  });

  it('closes, once Redis is back, the sockets of a login session that logged out on another node meanwhile', async () => {
    const a = await person(nodes[0], '에이');
    const elsewhere = await connect(nodes[1], a);
    await cluster.redis.stop();
    await until('node 1 says degraded', async () => (await health(nodes[0])).body.status === 'degraded');
    expect((await a.client.post(api.logout, {})).status).to.equal(200);
    await cluster.redis.start();
    expect(await elsewhere.closed).to.be.a('number');
  });
});
