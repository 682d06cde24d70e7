// Calls across two real node processes sharing MariaDB and a private Redis: the reconnect grace
// and the resume are the store's (Redis), not a node's, so a party who drops on one node and
// comes back on the other resumes the call, and a grace that passes ends it once, with one
// record, whichever node claims it.
import { expect } from 'chai';
import { api, type CallsResponse } from '@common/api';
import { app, CALL_SIGNALS, queues, topics, type CallSignal } from '@common/destinations';
import type { CallEvent, ChatMessageEvent } from '@common/payloads';
import { useCluster, type ClusterPerson, type NodeProcess } from '../support/cluster';
import type { Inbox, TestStomp } from '../support/stomp-client';
import { eventually } from '../support/wait';

const GRACE_MS = 3000;
/** Long enough for a second firing from another node's poll to show, had there been one. */
const QUIET_MS = 1000;

interface Side {
  person: ClusterPerson;
  stomp: TestStomp;
  inbox: Record<CallSignal, Inbox>;
}

describe('calls across nodes (MariaDB, Redis)', function () {
  const cluster = useCluster({ nodes: 2, env: { CALL_RECONNECT_GRACE_MS: String(GRACE_MS), MAX_CONNECTIONS_PER_ADDRESS: '10000' } });
  const { nodes, person, connect } = cluster;

  async function side(node: NodeProcess, who: ClusterPerson): Promise<Side> {
    const stomp = await connect(node, who);
    const inbox: Partial<Record<CallSignal, Inbox>> = {};
    // The resume queue last, as the client subscribes: it is what resumes a waiting call.
    for (const s of CALL_SIGNALS) inbox[s] = await stomp.subscribe(queues.call(s, who.user.userId));
    return { person: who, stomp, inbox: inbox as Record<CallSignal, Inbox> };
  }

  const event = async (inbox: Inbox): Promise<CallEvent> => (await inbox.next()).json<CallEvent>();

  /** Alice on node 1 calls Bob on node 2, who accepts; Alice watches their room. */
  async function callAcrossNodes(): Promise<{ alice: Side; bob: Side; room: Inbox }> {
    const [a, b] = await Promise.all([person(nodes[0], '앨리스'), person(nodes[1], '밥')]);
    const created = await a.client.post(api.roomCreate, { targetUserId: b.user.userId });
    const [alice, bob] = await Promise.all([side(nodes[0], a), side(nodes[1], b)]);
    const room = await alice.stomp.subscribe(topics.privateChat(created.body.chatRoomId as number));
    await alice.stomp.send(app.callInitiate, { targetUserId: b.user.userId });
    await event(bob.inbox.incoming);
    await bob.stomp.send(app.callAccept, { targetUserId: a.user.userId });
    await event(alice.inbox.accepted);
    return { alice, bob, room };
  }

  it('resumes the call when a party drops on one node and comes back on the other within the grace', async () => {
    const { alice, bob } = await callAcrossNodes();
    await bob.stomp.client.deactivate({ force: true });
    expect(await event(alice.inbox['peer-reconnecting'])).to.deep.equal({ userId: bob.person.user.userId });
    const back = await side(nodes[0], bob.person);
    expect(await event(back.inbox.resume)).to.include({ userId: alice.person.user.userId, role: 'callee' });
    expect(await event(alice.inbox.resume)).to.include({ userId: bob.person.user.userId, role: 'caller' });
    await alice.stomp.send(app.callOffer, { targetUserId: bob.person.user.userId, sdp: { type: 'offer', sdp: 'v=0\r\n' } });
    expect(await event(back.inbox.offer)).to.include({ userId: alice.person.user.userId });
    // The grace that was set on the other node does not end the call.
    await alice.inbox.hangup.nothingWithin(GRACE_MS + QUIET_MS);
  });

  it('ends the call once, with one record, when the grace passes, whichever node claims it', async () => {
    const { alice, bob, room } = await callAcrossNodes();
    await bob.stomp.client.deactivate({ force: true });
    await event(alice.inbox['peer-reconnecting']);
    expect(await event(alice.inbox.hangup)).to.deep.equal({ userId: bob.person.user.userId, targetUserId: bob.person.user.userId, reason: 'connection-lost' });
    const record = (await room.next()).json<ChatMessageEvent>();
    expect(record.systemEvent).to.include({ type: 'call', outcome: 'answered', callerUserId: alice.person.user.userId });
    await alice.inbox.hangup.nothingWithin(QUIET_MS);
    await room.nothingSoFar();
    await eventually(async () => {
      const calls = (await bob.person.client.get<CallsResponse>(api.calls)).body.calls;
      expect(calls.map((c) => [c.peerUserId, c.direction, c.outcome])).to.deep.equal([[alice.person.user.userId, 'incoming', 'answered']]);
    });
  });
});
