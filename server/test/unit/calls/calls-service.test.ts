import { expect } from 'chai';
import type { CallSignal } from '@common/destinations';
import type { CallEvent } from '@common/payloads';
import { UsersRepository } from '../../../src/features/accounts/users-repository';
import { CallService, type CallPorts, type CallRecordFacts } from '../../../src/features/calls/calls-service';
import { memoryDatabase } from '../../support/memory-deps';

interface Delivery { to: number; signal: CallSignal; event: CallEvent; except?: string }

/** Records deliveries and holds timers until the test fires them. */
class FakePorts implements CallPorts {
  deliveries: Delivery[] = [];
  timers: Array<{ ms: number; fire: () => void | Promise<void>; cancelled: boolean }> = [];

  deliver(to: number, signal: CallSignal, event: CallEvent, except?: string): void {
    this.deliveries.push(except === undefined ? { to, signal, event } : { to, signal, event, except });
  }

  schedule(ms: number, fire: () => void | Promise<void>): () => void {
    const timer = { ms, fire, cancelled: false };
    this.timers.push(timer);
    return () => {
      timer.cancelled = true;
    };
  }

  /** Who has an open connection. */
  online = new Set([1, 2, 3]);
  canRingElsewhere?: CallPorts['canRingElsewhere'];
  ringElsewhere?: CallPorts['ringElsewhere'];
  isReachable(userId: number): boolean {
    return this.online.has(userId);
  }

  /** Alice, Bob and Carol exist; nobody else does. */
  async names(userIds: number[]): Promise<Map<number, string>> {
    const known = new Map([[1, 'Alice'], [2, 'Bob'], [3, 'Carol']]);
    return new Map(userIds.flatMap((id) => (known.has(id) ? [[id, known.get(id)!] as [number, string]] : [])));
  }

  /** Fires every pending timer, as if their time had come. */
  async elapse(): Promise<void> {
    for (const t of this.timers.filter((t) => !t.cancelled)) {
      t.cancelled = true;
      await t.fire();
    }
  }

  take(): Delivery[] {
    const d = this.deliveries;
    this.deliveries = [];
    return d;
  }

  /** The records kept, and the time the records read. */
  records: CallRecordFacts[] = [];
  nowMs = 1_000_000;
  now(): number {
    return this.nowMs;
  }
  record(facts: CallRecordFacts): Promise<void> {
    this.records.push(facts);
    return Promise.resolve();
  }
}

/** The id of the call a delivery names (each store makes its own). */
const callIdOf = (d: Delivery | undefined): string => d?.event.callId ?? '';

const ALICE = 1;
const BOB = 2;
const CAROL = 3;
/** The connection (browser tab) a call is accepted on. */
const TAB = 'connection-7';

describe('the call state machine', () => {
  let ports: FakePorts;
  let calls: CallService;

  beforeEach(() => {
    ports = new FakePorts();
    calls = new CallService(ports, 60_000);
  });

  async function ring(): Promise<string> {
    await calls.initiate(ALICE, 'Alice', BOB);
    return callIdOf(ports.take()[0]);
  }

  async function connect(): Promise<string> {
    const callId = await ring();
    await calls.accept(BOB, ALICE, TAB);
    ports.take();
    return callId;
  }

  it('rings the callee with the caller’s id, name, media and the call’s id, and tells the caller it rings', async () => {
    expect(await calls.initiate(ALICE, 'Alice', BOB, 'video')).to.equal('ringing');
    const delivered = ports.take();
    const callId = callIdOf(delivered[0]);
    expect(callId).to.not.equal('');
    expect(delivered).to.deep.equal([
      { to: BOB, signal: 'incoming', event: { userId: ALICE, name: 'Alice', media: 'video', callId } },
      { to: ALICE, signal: 'ringing', event: { userId: BOB, callId } },
    ]);
    expect(ports.timers.map((t) => t.ms)).to.deep.equal([60_000]);
  });

  it('tells the caller when the callee accepts, and stops the ring timer', async () => {
    const callId = await ring();
    expect(await calls.accept(BOB, ALICE, TAB)).to.equal(true);
    expect(ports.take()).to.deep.equal([
      { to: ALICE, signal: 'accepted', event: { userId: BOB, media: 'audio', callId } },
      // The callee's other tabs stop ringing; the tab that accepted is left out.
      { to: BOB, signal: 'hangup', event: { userId: ALICE, targetUserId: ALICE, reason: 'answered-elsewhere' }, except: TAB },
    ]);
    expect(ports.timers.every((t) => t.cancelled)).to.equal(true);
  });

  it('tells the caller when the callee rejects, and ends the call', async () => {
    await ring();
    expect(await calls.reject(BOB, ALICE)).to.equal(true);
    expect(ports.take()).to.deep.equal([{ to: ALICE, signal: 'rejected', event: { userId: BOB, reason: 'rejected' } }]);
    expect(await calls.accept(BOB, ALICE, TAB)).to.equal(false);
    expect(await calls.initiate(ALICE, 'Alice', CAROL)).to.equal('ringing');
  });

  it('does not let the caller accept or reject its own call', async () => {
    await ring();
    expect(await calls.accept(ALICE, BOB, TAB)).to.equal(false);
    expect(await calls.reject(ALICE, BOB)).to.equal(false);
    expect(ports.take()).to.deep.equal([]);
  });

  it('passes offers, answers and candidates between the two parties of an accepted call, marked with the sender', async () => {
    await connect();
    expect(await calls.relay(ALICE, BOB, 'offer', { sdp: { type: 'offer', sdp: 'v=0' } })).to.equal(true);
    expect(await calls.relay(BOB, ALICE, 'answer', { sdp: { type: 'answer', sdp: 'v=0' } })).to.equal(true);
    expect(await calls.relay(BOB, ALICE, 'ice-candidate', { candidate: { candidate: 'c' } })).to.equal(true);
    expect(ports.take()).to.deep.equal([
      { to: BOB, signal: 'offer', event: { sdp: { type: 'offer', sdp: 'v=0' }, userId: ALICE, targetUserId: BOB } },
      { to: ALICE, signal: 'answer', event: { sdp: { type: 'answer', sdp: 'v=0' }, userId: BOB, targetUserId: ALICE } },
      { to: ALICE, signal: 'ice-candidate', event: { candidate: { candidate: 'c' }, userId: BOB, targetUserId: ALICE } },
    ]);
  });

  it('passes no offer while the call is still ringing', async () => {
    await ring();
    expect(await calls.relay(ALICE, BOB, 'offer', { sdp: 'x' })).to.equal(false);
    expect(ports.take()).to.deep.equal([]);
  });

  it('lets no third user inject offers, answers or candidates into another pair’s call', async () => {
    await connect();
    expect(await calls.relay(CAROL, BOB, 'offer', { sdp: 'x' })).to.equal(false);
    expect(await calls.relay(CAROL, ALICE, 'answer', { sdp: 'x' })).to.equal(false);
    expect(await calls.relay(CAROL, ALICE, 'ice-candidate', { candidate: 'x' })).to.equal(false);
    expect(await calls.relay(ALICE, CAROL, 'offer', { sdp: 'x' })).to.equal(false);
    expect(await calls.hangup(CAROL, ALICE)).to.equal(false);
    expect(ports.take()).to.deep.equal([]);
  });

  it('answers busy to a caller whose callee is ringing, and does not disturb that call', async () => {
    await ring();
    expect(await calls.initiate(CAROL, 'Carol', BOB)).to.equal('busy');
    expect(ports.take()).to.deep.equal([{ to: CAROL, signal: 'rejected', event: { userId: BOB, reason: 'busy' } }]);
    expect(await calls.accept(BOB, ALICE, TAB)).to.equal(true);
  });

  it('answers busy to a caller whose callee is in a call, caller or callee', async () => {
    await connect();
    expect(await calls.initiate(CAROL, 'Carol', ALICE)).to.equal('busy');
    expect(await calls.initiate(CAROL, 'Carol', BOB)).to.equal('busy');
    expect(ports.take().map((d) => [d.to, d.signal, d.event.reason])).to.deep.equal([
      [CAROL, 'rejected', 'busy'],
      [CAROL, 'rejected', 'busy'],
    ]);
  });

  it('does not let a user who is in a call start another', async () => {
    await connect();
    expect(await calls.initiate(BOB, 'Bob', CAROL)).to.equal('busy');
    expect(ports.take()).to.deep.equal([{ to: BOB, signal: 'rejected', event: { userId: CAROL, reason: 'busy' } }]);
    expect(await calls.relay(ALICE, BOB, 'offer', { sdp: 'x' })).to.equal(true);
  });

  it('ignores a repeated initiate of the call that is already ringing', async () => {
    await ring();
    expect(await calls.initiate(ALICE, 'Alice', BOB)).to.equal('already-ringing');
    expect(ports.take()).to.deep.equal([]);
    expect(await calls.accept(BOB, ALICE, TAB)).to.equal(true);
  });

  it('hangs up both sides when nobody answers before the ring timeout', async () => {
    await ring();
    await ports.elapse();
    expect(ports.take()).to.deep.equal([
      { to: ALICE, signal: 'hangup', event: { userId: BOB, targetUserId: BOB, reason: 'timeout' } },
      { to: BOB, signal: 'hangup', event: { userId: ALICE, targetUserId: ALICE, reason: 'timeout' } },
    ]);
    expect(await calls.accept(BOB, ALICE, TAB)).to.equal(false);
  });

  it('never times out a call that was answered', async () => {
    await connect();
    await ports.elapse();
    expect(ports.take()).to.deep.equal([]);
    expect(await calls.relay(ALICE, BOB, 'offer', { sdp: 'x' })).to.equal(true);
  });

  it('ends a ringing call when the caller hangs up, telling the callee', async () => {
    await ring();
    expect(await calls.hangup(ALICE, BOB)).to.equal(true);
    expect(ports.take()).to.deep.equal([{ to: BOB, signal: 'hangup', event: { userId: ALICE, targetUserId: ALICE } }]);
    expect(await calls.accept(BOB, ALICE, TAB)).to.equal(false);
    expect(ports.timers.every((t) => t.cancelled)).to.equal(true);
  });

  it('ends an active call when either side hangs up, and frees both for new calls', async () => {
    await connect();
    expect(await calls.hangup(BOB, ALICE)).to.equal(true);
    expect(ports.take()).to.deep.equal([{ to: ALICE, signal: 'hangup', event: { userId: BOB, targetUserId: BOB } }]);
    expect(await calls.relay(ALICE, BOB, 'offer', { sdp: 'x' })).to.equal(false);
    expect(await calls.initiate(BOB, 'Bob', CAROL)).to.equal('ringing');
    expect(await calls.initiate(ALICE, 'Alice', BOB)).to.equal('busy');
  });

  it('waits the grace for a party whose last connection drops, telling the peer, then ends the call with connection-lost', async () => {
    await connect();
    ports.nowMs += 38_000;
    expect(await calls.disconnected(BOB)).to.equal(true);
    expect(ports.take()).to.deep.equal([{ to: ALICE, signal: 'peer-reconnecting', event: { userId: BOB } }]);
    expect(ports.timers.filter((t) => !t.cancelled).map((t) => t.ms)).to.deep.equal([30_000]);
    // Told again (another node saw it too): nothing changes.
    expect(await calls.disconnected(BOB)).to.equal(false);
    // Nothing passes while Bob is away.
    expect(await calls.relay(ALICE, BOB, 'offer', { sdp: 'x' })).to.equal(false);
    ports.nowMs += 30_000;
    await ports.elapse();
    expect(ports.take()).to.deep.equal([{ to: ALICE, signal: 'hangup', event: { userId: BOB, targetUserId: BOB, reason: 'connection-lost' } }]);
    await calls.stop();
    expect(ports.records.map((r) => [r.outcome, r.durationSec])).to.deep.equal([['answered', 38]]);
    expect(await calls.initiate(ALICE, 'Alice', BOB)).to.equal('ringing');
  });

  it('resumes the call for both, each with its role, when the away party subscribes again within the grace', async () => {
    const callId = await connect();
    await calls.disconnected(ALICE);
    ports.take();
    expect(await calls.returned(ALICE)).to.equal(true);
    expect(ports.take()).to.deep.equal([
      { to: ALICE, signal: 'resume', event: { userId: BOB, callId, media: 'audio', role: 'caller' } },
      { to: BOB, signal: 'resume', event: { userId: ALICE, callId, media: 'audio', role: 'callee' } },
    ]);
    expect(ports.timers.every((t) => t.cancelled)).to.equal(true);
    // Once: a second subscription resumes nothing, and the call goes on.
    expect(await calls.returned(ALICE)).to.equal(false);
    expect(await calls.relay(ALICE, BOB, 'offer', { sdp: 'x' })).to.equal(true);
  });

  it('resumes nothing for a party who was not away', async () => {
    await connect();
    expect(await calls.returned(BOB)).to.equal(false);
    expect(await calls.returned(CAROL)).to.equal(false);
    expect(ports.take()).to.deep.equal([]);
  });

  it('waits for both when both drop, and ends the call when the first grace passes', async () => {
    await connect();
    await calls.disconnected(ALICE);
    await calls.disconnected(BOB);
    expect(ports.take().map((d) => [d.to, d.signal])).to.deep.equal([[BOB, 'peer-reconnecting'], [ALICE, 'peer-reconnecting']]);
    await ports.timers[ports.timers.length - 2].fire();
    expect(ports.take()).to.deep.equal([{ to: BOB, signal: 'hangup', event: { userId: ALICE, targetUserId: ALICE, reason: 'connection-lost' } }]);
    await ports.elapse();
    expect(ports.take()).to.deep.equal([]);
  });

  it('lets the remaining party hang up while the other is away', async () => {
    await connect();
    await calls.disconnected(BOB);
    ports.take();
    expect(await calls.hangup(ALICE, BOB)).to.equal(true);
    await ports.elapse();
    expect(ports.take()).to.deep.equal([{ to: BOB, signal: 'hangup', event: { userId: ALICE, targetUserId: ALICE } }]);
    await calls.stop();
    expect(ports.records.map((r) => r.outcome)).to.deep.equal(['answered']);
  });

  it('relays a media state between the parties of an active call only', async () => {
    await ring();
    const state = { muted: true, camera: false, screen: true };
    expect(await calls.mediaState(ALICE, { targetUserId: BOB, ...state })).to.equal(false);
    await calls.accept(BOB, ALICE, TAB);
    ports.take();
    expect(await calls.mediaState(ALICE, { targetUserId: BOB, ...state })).to.equal(true);
    expect(await calls.mediaState(CAROL, { targetUserId: BOB, ...state })).to.equal(false);
    expect(ports.take()).to.deep.equal([{ to: BOB, signal: 'media-state', event: { userId: ALICE, ...state } }]);
  });

  it('keeps a record of every outcome: answered with its length, missed, rejected, cancelled, busy', async () => {
    await connect();
    ports.nowMs += 62_000;
    await calls.hangup(BOB, ALICE);
    await ring();
    await ports.elapse();
    await ring();
    await calls.reject(BOB, ALICE);
    await ring();
    await calls.hangup(ALICE, BOB);
    await ring();
    await calls.hangup(BOB, ALICE);
    await ring();
    await calls.initiate(CAROL, 'Carol', BOB);
    await calls.stop();
    expect(ports.records.map((r) => [r.caller, r.callee, r.outcome, r.durationSec])).to.deep.equal([
      [ALICE, BOB, 'answered', 62],
      [ALICE, BOB, 'missed', 0],
      [ALICE, BOB, 'rejected', 0],
      [ALICE, BOB, 'cancelled', 0],
      // The callee hanging up on a ringing call turns it down.
      [ALICE, BOB, 'rejected', 0],
      [CAROL, BOB, 'missed', 0],
    ]);
  });

  it('hangs up on a ringing callee when the caller’s last connection drops', async () => {
    await ring();
    await calls.disconnected(ALICE);
    expect(ports.take()).to.deep.equal([{ to: BOB, signal: 'hangup', event: { userId: ALICE, targetUserId: ALICE, reason: 'disconnected' } }]);
  });

  it('keeps ringing when the ringing callee\'s last connection drops (a reload), offers the call again, and still times out', async () => {
    await ring();
    expect(await calls.disconnected(BOB)).to.equal(false);
    expect(ports.take()).to.deep.equal([]);
    expect(await calls.incomingFor(BOB)).to.deep.include({ userId: ALICE, name: 'Alice', media: 'audio' });
    await ports.elapse();
    expect(ports.take().map((d) => [d.to, d.event.reason])).to.deep.equal([[ALICE, 'timeout'], [BOB, 'timeout']]);
    expect(await calls.incomingFor(BOB)).to.equal(null);
  });

  it('cancels every ring timer when stopped', async () => {
    await ring();
    await calls.initiate(CAROL, 'Carol', 4);
    await calls.stop();
    expect(ports.timers.every((t) => t.cancelled)).to.equal(true);
  });
});

describe('ringing a user id from the wire, with names from the users table', () => {
  it('rings an existing user with the caller\'s name, and answers a call to nobody at once with unavailable', async () => {
    const db = await memoryDatabase();
    try {
      const users = new UsersRepository(db);
      const caller = await users.insert({ email: 'caller@example.test', name: '김철수', passwordHash: null });
      const callee = await users.insert({ email: 'callee@example.test', name: '이영희', passwordHash: null });
      const ports = new FakePorts();
      ports.names = (ids) => users.names(ids);
      ports.online = new Set([caller, callee]);
      const calls = new CallService(ports, 60_000);
      expect(await calls.ring(caller, callee)).to.equal('ringing');
      expect(ports.take().map((d) => [d.to, d.signal, d.event.name])).to.deep.equal([[callee, 'incoming', '김철수'], [caller, 'ringing', undefined]]);
      expect(await calls.ring(caller, 99_999)).to.equal('unavailable');
      expect(ports.take()).to.deep.equal([{ to: caller, signal: 'hangup', event: { userId: 99_999, targetUserId: 99_999, reason: 'unavailable' } }]);
    } finally {
      await db.destroy();
    }
  });
});

describe('ringing a user with no open connection', () => {
  it('answers the caller at once with a hang-up for the reason unavailable, and nothing rings', async () => {
    const ports = new FakePorts();
    ports.online = new Set([1]);
    const calls = new CallService(ports, 60_000);
    expect(await calls.ring(1, 2)).to.equal('unavailable');
    expect(ports.take()).to.deep.equal([{ to: 1, signal: 'hangup', event: { userId: 2, targetUserId: 2, reason: 'unavailable' } }]);
    expect(ports.timers).to.deep.equal([]);
    // Not busy afterwards: the callee can be rung once they are back.
    ports.online.add(2);
    expect(await calls.ring(1, 2)).to.equal('ringing');
  });
});

describe('ringing a user with no open connection but a push subscription', () => {
  it('rings for the usual timeout and rings them elsewhere, once the call is set up', async () => {
    const ports = new FakePorts();
    ports.online = new Set([1]);
    const rungElsewhere: Array<{ callee: number; caller: { userId: number; name: string } }> = [];
    ports.canRingElsewhere = (userId: number) => Promise.resolve(userId === 2);
    ports.ringElsewhere = (callee: number, caller: { userId: number; name: string }) => {
      rungElsewhere.push({ callee, caller });
    };
    const calls = new CallService(ports, 60_000);
    expect(await calls.ring(1, 2)).to.equal('ringing');
    expect(rungElsewhere).to.deep.equal([{ callee: 2, caller: { userId: 1, name: 'Alice' } }]);
    // The push went out: the caller hears that it rings.
    expect(ports.take().map((d) => [d.to, d.signal])).to.deep.equal([[2, 'incoming'], [1, 'ringing']]);
    expect(ports.timers.map((t) => t.ms)).to.deep.equal([60_000]);
    // A callee without a subscription is still unavailable at once.
    expect(await calls.ring(3, 99)).to.equal('unavailable');
  });

  it('asks for no other way and rings no push for a callee who is connected', async () => {
    const ports = new FakePorts();
    let asked = 0;
    ports.canRingElsewhere = () => Promise.resolve((asked += 1) > 0);
    ports.ringElsewhere = () => {
      throw new Error('a connected callee is not pushed');
    };
    const calls = new CallService(ports, 60_000);
    expect(await calls.ring(1, 2)).to.equal('ringing');
    expect(asked).to.equal(0);
  });
});
