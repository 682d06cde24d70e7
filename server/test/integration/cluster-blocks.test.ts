// Blocking across nodes (docs/protocol.md, blocks; architecture.md §6): in a room where a member
// blocked the sender, the message goes member by member over their user channels, so the
// blocker's tabs on another node never receive it while the other members' tabs there do; a
// block drops the members cache of the rooms the two share.
import { expect } from 'chai';
import { api } from '@common/api';
import { app, topics } from '@common/destinations';
import type { ChatMessageEvent } from '@common/payloads';
import { useCluster, type ClusterPerson as Person } from '../support/cluster';

describe('blocking across nodes (MariaDB, Redis)', function () {
  const cluster = useCluster({ nodes: 2 });
  const { nodes, person, connect } = cluster;

  it('keeps a blocked sender\'s messages from the blocker\'s tabs on another node, and delivers them to the other members there', async () => {
    const [pest, blocker, third]: Person[] = await Promise.all([person(nodes[0], 'Pest'), person(nodes[1], 'Blocker'), person(nodes[1], 'Third')]);
    const res = await pest.client.post(api.roomCreate, { targetUserId: blocker.user.userId });
    const roomId = res.body.chatRoomId as number;
    expect((await pest.client.post(api.addUser, { chatRoomId: roomId, userId: third.user.userId })).status).to.equal(200);
    const blockerInbox = await (await connect(nodes[1], blocker)).subscribe(topics.privateChat(roomId));
    const thirdInbox = await (await connect(nodes[1], third)).subscribe(topics.privateChat(roomId));
    const pestStomp = await connect(nodes[0], pest);
    // Node 1 has the room's members cached from a message before the block…
    await pestStomp.send(app.privateMessage, { chatRoomId: roomId, content: 'before', clientMsgId: 'b-0' });
    expect((await blockerInbox.next()).json<ChatMessageEvent>().content).to.equal('before');
    expect((await thirdInbox.next()).json<ChatMessageEvent>().content).to.equal('before');
    // …and the block is made through node 1, which drops that entry before answering (another
    // node would hear of it over the bus a moment later, the cache's time limit bounding it).
    const blocked = await fetch(`${nodes[0].url}${api.block(pest.user.userId)}`, { method: 'PUT', headers: { cookie: blocker.client.cookieHeader() } });
    expect(blocked.status).to.equal(200);

    await pestStomp.send(app.privateMessage, { chatRoomId: roomId, content: 'unwanted', clientMsgId: 'b-1' });
    expect((await thirdInbox.next()).json<ChatMessageEvent>().content).to.equal('unwanted');
    await (await connect(nodes[0], third)).send(app.privateMessage, { chatRoomId: roomId, content: 'welcome', clientMsgId: 'b-2' });
    // The first message the blocker's tab gets is the third member's, sent after.
    expect((await blockerInbox.next()).json<ChatMessageEvent>().content).to.equal('welcome');
    expect((await thirdInbox.next()).json<ChatMessageEvent>().content).to.equal('welcome');
  });
});
