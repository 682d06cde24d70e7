// The state of each one-to-one call (docs/spec.md §4 Call, docs/protocol.md "Call events",
// docs/architecture.md "The call state machine"): a call is ringing from the caller's initiate
// until the callee accepts, then active until either side hangs up. When a party's last
// connection closes during an accepted call it is reconnecting: the peer is told
// (peer-reconnecting) and the call waits the reconnect grace for them; when they subscribe to
// their resume queue again both sides get `resume` and build their media again; when the grace
// passes the call ends with the reason connection-lost. A ringing call ends when the ring times
// out or its caller's connection drops. A user is in at most one call. Offers, answers,
// candidates and media states pass only between the two parties of an active call (in both
// directions: renegotiation), so a third user cannot inject them.
//
// Signals that do not fit the current state (a late accept after a hang-up, a candidate after
// the call ended) are ordinary races between two people, not attacks: they are dropped and the
// method answers false, so the sender's connection is not torn down.
//
// The state lives in a CallStore: this process's memory alone, or Redis for a cluster, where
// the parties may be connected to different nodes. Every change is a compare-and-set on the
// store, so two nodes racing (an accept against the ring timeout, a return against the end of
// the grace) cannot both win. Whoever ends a call writes its record (CallRecordFacts).
import type { CallMedia, CallOutcome } from '@common/api';
import type { CallSignal } from '@common/destinations';
import type { CallEvent, HangupReason, MediaStatePayload } from '@common/payloads';
import { InvalidError } from '../errors';
import { awayOf, MemoryCallStore, type Call, type CallStore } from './call-store';

export const DEFAULT_RING_TIMEOUT_MS = 60_000;
export const DEFAULT_RECONNECT_GRACE_MS = 30_000;

export type RelaySignal = 'offer' | 'answer' | 'ice-candidate';

/** A call that ended, for the record (the calls table and the room's system message). */
export interface CallRecordFacts {
  caller: number;
  callerName: string;
  callee: number;
  media: CallMedia;
  outcome: CallOutcome;
  startedAtMs: number;
  answeredAtMs: number | null;
  endedAtMs: number;
  /** From the accept to the end, 0 if never answered. */
  durationSec: number;
}

export interface CallPorts {
  /** Sends a call event to every connection of the user subscribed to that signal's queue, but the excepted one. */
  deliver(userId: number, signal: CallSignal, event: CallEvent, exceptConnectionId?: string): void;
  /** Runs `fire` after `ms` milliseconds; the returned function cancels it (the in-memory store's timers). */
  schedule(ms: number, fire: () => void | Promise<void>): () => void;
  /** The display names of those of the given users that exist. */
  names(userIds: number[]): Promise<Map<number, string>>;
  /** Whether the user has an open connection a call could ring on, on any node. */
  isReachable(userId: number): boolean | Promise<boolean>;
  /**
   * A callee with no open connection but a way to be rung elsewhere (Web Push): asked only
   * then; when it answers true the call rings for the usual timeout and ringElsewhere is told.
   */
  canRingElsewhere?(userId: number): Promise<boolean>;
  /** Rings a callee with no open connection elsewhere (a push); must not delay the call. */
  ringElsewhere?(callee: number, caller: { userId: number; name: string }, media: CallMedia): void;
  /**
   * How each call attempt ended up (metrics): ringing, busy, unavailable, accepted, rejected,
   * timeout, hangup, cancelled, disconnected, reconnecting, resumed, connection-lost.
   */
  outcome?(outcome: string): void;
  /** Ours: whether the callee blocked the caller (docs/protocol.md, blocks): then they cannot be rung. */
  blocks?(callee: number, caller: number): Promise<boolean>;
  /** The time of the record's timestamps (the server's clock); Date.now when absent. */
  now?(): number;
  /** Keeps the record of an ended call; must not throw (it logs its own failures). */
  record?(facts: CallRecordFacts): Promise<void>;
}

export type InitiateOutcome = 'ringing' | 'busy' | 'already-ringing' | 'unavailable';

/**
 * A hang-up as its receiver gets it: `userId` and `targetUserId` both name the receiver's peer
 * in the call, as the original server sent it (its client ends the call only when targetUserId
 * is its peer). The same for hang-ups the server makes (timeout, a dropped connection, answered
 * on another tab, a grace that passed).
 */
function hangupFrom(peer: number, reason?: HangupReason): CallEvent {
  return reason ? { userId: peer, targetUserId: peer, reason } : { userId: peer, targetUserId: peer };
}

const peerOf = (call: Call, userId: number) => (call.caller === userId ? call.callee : call.caller);

export class CallService {
  private readonly store: CallStore;
  /** Records being written: stop() waits for them before the database closes. */
  private readonly recording = new Set<Promise<void>>();
  /** The last record of each pair of users being written, by `{lower id}-{higher id}`. */
  private readonly lastOfPair = new Map<string, Promise<void>>();

  constructor(
    private readonly ports: CallPorts,
    ringTimeoutMs: number = DEFAULT_RING_TIMEOUT_MS,
    store?: CallStore,
    private readonly graceMs: number = DEFAULT_RECONNECT_GRACE_MS,
  ) {
    this.store = store ?? new MemoryCallStore((ms, fire) => ports.schedule(ms, fire), ringTimeoutMs);
    this.store.onRingTimeout((call) => this.ringTimedOut(call));
    this.store.onGraceOver((call, userId) => this.graceOver(call, userId));
  }

  /**
   * A call from the signed-in caller to a user id from the wire: the callee's overlay shows the
   * caller's name. A callee who does not exist, or has no open connection and no push
   * subscription, is answered at once with a hang-up for the reason 'unavailable', instead of a
   * minute of ringing nobody hears (and never with an ERROR that would close the caller's socket).
   * The caller hears `ringing` once a device of the callee was rung (a connection, or a push).
   */
  async ring(caller: number, callee: number, media: CallMedia = 'audio'): Promise<InitiateOutcome> {
    const names = await this.ports.names([caller, callee]);
    const callerName = names.get(caller);
    if (callerName === undefined) throw new InvalidError('the caller is not a user');
    // A callee who blocked the caller is, to the caller, simply not there: answered as if
    // offline, and no record of the attempt reaches the callee.
    if (names.has(callee) && (await this.ports.blocks?.(callee, caller))) {
      this.ports.deliver(caller, 'hangup', hangupFrom(callee, 'unavailable'));
      this.ports.outcome?.('unavailable');
      return 'unavailable';
    }
    const connected = await this.ports.isReachable(callee);
    if (!names.has(callee) || (!connected && !(await this.ports.canRingElsewhere?.(callee)))) {
      this.ports.deliver(caller, 'hangup', hangupFrom(callee, 'unavailable'));
      this.ports.outcome?.('unavailable');
      // An existing callee who could not be rung still gets a trace of the attempt.
      if (names.has(callee)) this.record({ caller, callerName, callee, media, startedAtMs: this.now() }, 'missed');
      return 'unavailable';
    }
    const { outcome, call } = await this.start(caller, callerName, callee, media);
    if (call) {
      if (!connected) this.ports.ringElsewhere?.(callee, { userId: caller, name: callerName }, media);
      this.ports.deliver(caller, 'ringing', { userId: callee, callId: call.id });
    }
    return outcome;
  }

  /** The caller rings a connected callee, unless either of them is already in a call. */
  async initiate(caller: number, callerName: string, callee: number, media: CallMedia = 'audio'): Promise<InitiateOutcome> {
    const { outcome, call } = await this.start(caller, callerName, callee, media);
    if (call) this.ports.deliver(caller, 'ringing', { userId: callee, callId: call.id });
    return outcome;
  }

  /**
   * The callee takes the call that is ringing from this caller, on one of their connections.
   * Their other connections (tabs) rang too: they are told the call was answered elsewhere,
   * which closes their incoming-call overlay.
   */
  async accept(callee: number, caller: number, acceptedOn: string): Promise<boolean> {
    const call = await this.ringingBetween(caller, callee);
    if (!call || !(await this.store.activate(call, this.now()))) return false;
    this.store.hold(call, callee);
    this.ports.outcome?.('accepted');
    this.ports.deliver(caller, 'accepted', { userId: callee, media: call.media, callId: call.id });
    this.ports.deliver(callee, 'hangup', hangupFrom(caller, 'answered-elsewhere'), acceptedOn);
    return true;
  }

  /** The callee turns down the call that is ringing from this caller. */
  async reject(callee: number, caller: number): Promise<boolean> {
    const call = await this.ringingBetween(caller, callee);
    const ended = call && (await this.store.end(call, { phase: 'ringing' }));
    if (!ended) return false;
    this.ports.outcome?.('rejected');
    this.ports.deliver(caller, 'rejected', { userId: callee, reason: 'rejected' });
    this.record(ended, 'rejected');
    return true;
  }

  /**
   * An offer, answer or candidate from one party of an active call to the other, either way:
   * after the first offer and answer, either side may offer again (camera, video, screen, ICE
   * restart).
   */
  async relay(from: number, to: number, signal: RelaySignal, content: Pick<CallEvent, 'sdp' | 'candidate'>): Promise<boolean> {
    const call = await this.callBetween(from, to);
    if (!call || call.phase !== 'active') return false;
    this.ports.deliver(to, signal, { ...content, userId: from, targetUserId: to });
    return true;
  }

  /** The sender's microphone, camera and screen share, told to the peer of an active call. */
  async mediaState(from: number, state: MediaStatePayload): Promise<boolean> {
    const call = await this.callBetween(from, state.targetUserId);
    if (!call || call.phase !== 'active') return false;
    this.ports.deliver(state.targetUserId, 'media-state', { userId: from, muted: state.muted, camera: state.camera, screen: state.screen });
    return true;
  }

  /**
   * Either party ends the call, ringing, active or reconnecting. The caller hanging up while it
   * rings cancels it; the callee hanging up then turns it down.
   */
  async hangup(from: number, to: number): Promise<boolean> {
    const call = await this.callBetween(from, to);
    const ended = call && (await this.store.end(call));
    if (!ended) return false;
    const outcome: CallOutcome = ended.phase !== 'ringing' ? 'answered' : from === ended.caller ? 'cancelled' : 'rejected';
    this.ports.outcome?.(ended.phase === 'ringing' ? outcome : 'hangup');
    this.ports.deliver(to, 'hangup', hangupFrom(from));
    this.record(ended, outcome);
    return true;
  }

  /**
   * The user's last connection closed (on every node). In an accepted call the call waits the
   * reconnect grace for them and the peer is told (peer-reconnecting). A ringing caller cancels
   * the call (the callee hears `disconnected`). A ringing callee changes nothing: a page reload
   * looks the same, and the reloaded page is rung again (incomingFor); the ring timeout still
   * ends a call nobody answers.
   */
  async disconnected(userId: number): Promise<boolean> {
    const call = await this.store.of(userId);
    if (!call) return false;
    if (call.phase === 'ringing') {
      if (call.callee === userId) return false;
      const ended = await this.store.end(call, { phase: 'ringing' });
      if (!ended) return false;
      this.ports.outcome?.('disconnected');
      this.ports.deliver(call.callee, 'hangup', hangupFrom(userId, 'disconnected'));
      this.record(ended, 'cancelled');
      return true;
    }
    if (!(await this.store.leave(call, userId, this.now(), this.graceMs))) return false;
    this.ports.outcome?.('reconnecting');
    this.ports.deliver(peerOf(call, userId), 'peer-reconnecting', { userId });
    return true;
  }

  /**
   * The user subscribed to their resume queue (a new connection): if they were away from an
   * accepted call, it goes on, and both sides are told to build their media again; the side
   * with role "caller" offers. A connection of the original client never subscribes there, so
   * its call is never resumed into a page that does not know it.
   */
  async returned(userId: number): Promise<boolean> {
    const call = await this.store.of(userId);
    if (!call || awayOf(call, userId) === null) return false;
    const now = await this.store.back(call, userId);
    if (!now) return false;
    this.store.hold(now, userId);
    this.ports.outcome?.('resumed');
    const peer = peerOf(now, userId);
    const resume = (to: number, other: number): CallEvent => ({ userId: other, callId: now.id, media: now.media, role: to === now.caller ? 'caller' : 'callee' });
    this.ports.deliver(userId, 'resume', resume(userId, peer));
    this.ports.deliver(peer, 'resume', resume(peer, userId));
    return true;
  }

  /**
   * The incoming-call event of a call still ringing for this callee, or null: a connection that
   * subscribes meanwhile (the callee reloaded the page) gets it again and rings too.
   */
  async incomingFor(callee: number): Promise<CallEvent | null> {
    const call = await this.store.of(callee);
    return call && call.phase === 'ringing' && call.callee === callee ? { userId: call.caller, name: call.callerName, media: call.media, callId: call.id } : null;
  }

  /** Cancels every timer and renewal of this node (server shutdown), then lets records be written. */
  async stop(): Promise<void> {
    this.store.stop();
    await Promise.allSettled([...this.recording]);
  }

  /** Takes the call for both and rings the callee's connections; busy answers the caller. */
  private async start(caller: number, callerName: string, callee: number, media: CallMedia): Promise<{ outcome: InitiateOutcome; call?: Call }> {
    const startedAtMs = this.now();
    const taken = await this.store.take(caller, callerName, callee, media, startedAtMs);
    if (taken.kind === 'busy') {
      const own = taken.own;
      // A repeated initiate of the same ringing call (a double click, a resend) changes nothing.
      if (own && own.phase === 'ringing' && own.caller === caller && own.callee === callee) return { outcome: 'already-ringing' };
      this.ports.deliver(caller, 'rejected', { userId: callee, reason: 'busy' });
      this.ports.outcome?.('busy');
      // The callee was busy (not the caller): they find a missed call afterwards.
      if (!own) this.record({ caller, callerName, callee, media, startedAtMs }, 'missed');
      return { outcome: 'busy' };
    }
    this.store.hold(taken.call, caller);
    this.ports.deliver(callee, 'incoming', { userId: caller, name: callerName, media, callId: taken.call.id });
    this.ports.outcome?.('ringing');
    return { outcome: 'ringing', call: taken.call };
  }

  private async ringTimedOut(call: Call): Promise<void> {
    const ended = await this.store.end(call, { phase: 'ringing' });
    if (!ended) return;
    this.ports.outcome?.('timeout');
    this.ports.deliver(call.caller, 'hangup', hangupFrom(call.callee, 'timeout'));
    this.ports.deliver(call.callee, 'hangup', hangupFrom(call.caller, 'timeout'));
    this.record(ended, 'missed');
  }

  /** The away party did not come back in time: the call ends, and the other side is told. */
  private async graceOver(call: Call, userId: number): Promise<void> {
    const ended = await this.store.end(call, { away: userId });
    if (!ended) return;
    this.ports.outcome?.('connection-lost');
    this.ports.deliver(peerOf(ended, userId), 'hangup', hangupFrom(userId, 'connection-lost'));
    // The talk ended when the connection was lost, not when the grace ran out.
    this.record(ended, 'answered', awayOf(ended, userId) ?? this.now());
  }

  private record(
    call: Pick<Call, 'caller' | 'callerName' | 'callee' | 'media' | 'startedAtMs'> & { answeredAtMs?: number | null },
    outcome: CallOutcome,
    endedAtMs = this.now(),
  ): void {
    if (!this.ports.record) return;
    const answeredAtMs = call.answeredAtMs ?? null;
    const durationSec = outcome === 'answered' && answeredAtMs !== null ? Math.max(0, Math.round((endedAtMs - answeredAtMs) / 1000)) : 0;
    const facts: CallRecordFacts = {
      caller: call.caller, callerName: call.callerName, callee: call.callee, media: call.media, outcome,
      startedAtMs: call.startedAtMs, answeredAtMs, endedAtMs, durationSec,
    };
    // One pair's records are kept one after the other, in the order their calls ended: the first
    // may be making the two people's room, which the next must find rather than make again.
    const pair = facts.caller < facts.callee ? `${facts.caller}-${facts.callee}` : `${facts.callee}-${facts.caller}`;
    const ports = this.ports;
    const writing: Promise<void> = (this.lastOfPair.get(pair) ?? Promise.resolve())
      .then(() => ports.record?.(facts))
      .catch(() => undefined)
      .finally(() => {
        this.recording.delete(writing);
        if (this.lastOfPair.get(pair) === writing) this.lastOfPair.delete(pair);
      });
    this.lastOfPair.set(pair, writing);
    this.recording.add(writing);
  }

  private now(): number {
    return this.ports.now?.() ?? Date.now();
  }

  private async callBetween(a: number, b: number): Promise<Call | null> {
    const call = await this.store.of(a);
    if (!call) return null;
    const pair = (call.caller === a && call.callee === b) || (call.caller === b && call.callee === a);
    return pair ? call : null;
  }

  private async ringingBetween(caller: number, callee: number): Promise<Call | null> {
    const call = await this.store.of(callee);
    return call && call.phase === 'ringing' && call.caller === caller && call.callee === callee ? call : null;
  }
}
