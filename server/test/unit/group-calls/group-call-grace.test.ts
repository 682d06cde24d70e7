// The group call's reconnect grace and its relay of signals, on the service with a fake clock:
// a participant whose last connection closed is marked reconnecting and keeps their place until
// the grace ends (then they leave, and the last one out ends the call); one who came back
// meanwhile (joined again through another node, which writes the shared store, or its tab
// subscribed to its group-signal queue again) stays; a node that could not time a grace (it
// stopped) has it ended by the next join; a signal from a participant whose handles are elsewhere
// is relayed, one from a non-member refused. No media server is reached: the participants are
// placed in the store as a join would place them.
import { expect } from 'chai';
import sinon from 'sinon';
import type { GroupCallSystemEvent } from '@common/api';
import type { GroupCallSignal } from '@common/group-call';
import type { RoomEvent } from '@common/payloads';
import { createLogger } from '../../../src/log';
import type { JanusPool } from '../../../src/media/janus-pool';
import { MemoryGroupCallStore, type GroupCallRecord } from '../../../src/features/group-calls/group-call-store';
import { GroupCallService, type GroupCallPorts, type ParticipantSignal } from '../../../src/features/group-calls/group-call-service';

const GRACE_MS = 15_000;
const ROOM = 7;
const person = (userId: number) => ({ userId, name: `U${userId}`, muted: false, camera: false, screen: false });

/** A pool whose media server never answers: this test reaches no Janus. */
const noMediaServer = {
  configured: true,
  onLost: () => undefined,
  session: () => Promise.reject(new Error('no media server in this test')),
  candidates: () => Promise.resolve([]),
  stop: () => Promise.resolve(),
} as unknown as JanusPool;

describe('GroupCallService: the reconnect grace and the relay of signals', () => {
  let clock: sinon.SinonFakeTimers;
  let store: MemoryGroupCallStore;
  let roomEvents: RoomEvent[];
  let records: GroupCallSystemEvent[];
  let signals: Array<{ userId: number; signal: GroupCallSignal }>;
  let relayed: Array<{ callId: string; userId: number; signal: ParticipantSignal }>;
  let members: number[];
  /** How far the wall clock is ahead of the timers' clock (a busy event loop's cached time lags). */
  let clockAhead: number;

  const service = () => {
    const ports: GroupCallPorts = {
      members: () => Promise.resolve(members.map((id) => ({ id, name: `U${id}` }))),
      signal: (userId, signal) => signals.push({ userId, signal }),
      ring: () => undefined,
      isOnline: () => Promise.resolve(false),
      publishRoom: (_roomId, event) => roomEvents.push(event),
      record: (_roomId, event) => {
        records.push(event);
        return Promise.resolve();
      },
      iceServers: () => [],
      now: () => Date.now() + clockAhead,
      relaySignal: (callId, userId, signal) => relayed.push({ callId, userId, signal }),
    };
    return new GroupCallService(ports, store, noMediaServer, 10, createLogger('silent'), GRACE_MS);
  };

  const callWith = async (...userIds: number[]): Promise<GroupCallRecord> => {
    const record: GroupCallRecord = {
      callId: 'c1', chatRoomId: ROOM, media: 'audio', startedAtMs: Date.now(), starter: { userId: userIds[0], name: `U${userIds[0]}` },
      janusUrl: 'http://127.0.0.1:1/janus', janusRoom: 5, roomSecret: 's', participants: [], everJoined: [],
    };
    await store.create(record);
    for (const id of userIds) await store.join(ROOM, 'c1', person(id), 10);
    return record;
  };
  const inCall = async () => (await store.ofRoom(ROOM))?.participants.map((p) => ({ userId: p.userId, reconnecting: p.reconnecting ?? false })) ?? null;

  beforeEach(() => {
    clock = sinon.useFakeTimers({ now: 1_000_000 });
    store = new MemoryGroupCallStore();
    roomEvents = [];
    records = [];
    signals = [];
    relayed = [];
    members = [1, 2, 3];
    clockAhead = 0;
  });
  afterEach(() => clock.restore());

  it('keeps a participant whose last connection closed, reconnecting, for the grace; then they leave, and the last one out ends the call', async () => {
    const calls = service();
    await callWith(1, 2);
    await calls.disconnected(2);
    expect(await inCall()).to.deep.equal([{ userId: 1, reconnecting: false }, { userId: 2, reconnecting: true }]);
    const state = roomEvents.at(-1);
    expect(state?.type === 'groupCall' && state.participants.find((p) => p.userId === 2)).to.include({ reconnecting: true });

    await clock.tickAsync(GRACE_MS - 1);
    expect(await inCall()).to.have.length(2);
    await clock.tickAsync(1);
    expect(await inCall()).to.deep.equal([{ userId: 1, reconnecting: false }]);

    await calls.disconnected(1);
    await clock.tickAsync(GRACE_MS);
    expect(await store.ofRoom(ROOM)).to.equal(null);
    expect(roomEvents.at(-1)).to.deep.equal({ type: 'groupCallEnded', chatRoomId: ROOM, callId: 'c1' });
    expect(records).to.have.length(1);
    expect(records[0]).to.include({ type: 'groupCall', participantCount: 2, durationSec: 2 * GRACE_MS / 1000 });
  });

  it('ends the grace it timed when its timer fires, even when the clock read at the disconnect was ahead of the timers (a busy loop)', async () => {
    const calls = service();
    await callWith(1, 2);
    clockAhead = 40;
    await calls.disconnected(2);
    clockAhead = 0;
    await clock.tickAsync(GRACE_MS);
    expect(await inCall()).to.deep.equal([{ userId: 1, reconnecting: false }]);
  });

  it('leaves in place a participant who joined again within the grace (here through another node)', async () => {
    const calls = service();
    await callWith(1, 2);
    await calls.disconnected(2);
    await clock.tickAsync(GRACE_MS / 2);
    await store.join(ROOM, 'c1', person(2), 10);
    await clock.tickAsync(GRACE_MS);
    expect(await inCall()).to.deep.equal([{ userId: 1, reconnecting: false }, { userId: 2, reconnecting: false }]);
    expect((await store.ofRoom(ROOM))?.awayUntilMs).to.deep.equal({});
  });

  it('takes back the place of a participant whose tab subscribes to its group-signal queue again (a reconnect, its media alive)', async () => {
    const calls = service();
    await callWith(1, 2);
    await calls.disconnected(2);
    await clock.tickAsync(GRACE_MS / 2);
    await calls.resubscribed(2);
    const state = roomEvents.at(-1);
    expect(state?.type === 'groupCall' && state.participants.find((p) => p.userId === 2)).to.deep.equal(person(2));
    await clock.tickAsync(GRACE_MS);
    expect(await inCall()).to.deep.equal([{ userId: 1, reconnecting: false }, { userId: 2, reconnecting: false }]);
  });

  it("times each grace from its own disconnect: a first grace's end does not remove one who came back and dropped again", async () => {
    const [here, there] = [service(), service()];
    await callWith(1, 2);
    await here.disconnected(2);
    await clock.tickAsync(GRACE_MS / 2);
    await store.join(ROOM, 'c1', person(2), 10);
    await there.disconnected(2);
    await clock.tickAsync(GRACE_MS / 2);
    expect(await inCall()).to.deep.equal([{ userId: 1, reconnecting: false }, { userId: 2, reconnecting: true }]);
    await clock.tickAsync(GRACE_MS / 2);
    expect(await inCall()).to.deep.equal([{ userId: 1, reconnecting: false }]);
  });

  it('ends a grace no node timed (its node stopped) at the next join', async () => {
    await callWith(1, 2, 3);
    await store.markAway(ROOM, 'c1', 2, Date.now() + GRACE_MS);
    await clock.tickAsync(GRACE_MS);
    // Another node: no timer of its own for user 2. User 3 joins again (their media server does not answer here).
    await service().join(3, ROOM, 'c1');
    expect((await inCall())?.map((p) => p.userId)).to.deep.equal([1]);
  });

  it('relays the signal of a participant whose handles are on another node, and refuses a non-member', async () => {
    const calls = service();
    await callWith(1, 2);
    const answer: ParticipantSignal = { kind: 'subscribe-answer', sdp: 'v=0' };
    await calls.signal(2, ROOM, 'c1', answer);
    expect(relayed).to.deep.equal([{ callId: 'c1', userId: 2, signal: answer }]);

    members = [1, 2];
    await calls.signal(3, ROOM, 'c1', answer);
    expect(relayed).to.have.length(1);
    expect(signals.at(-1)).to.deep.include({ userId: 3, signal: { kind: 'refused', callId: 'c1', chatRoomId: ROOM, reason: 'not-member', message: '이 채팅방의 멤버만 그룹통화에 참여할 수 있습니다.' } });
  });
});
