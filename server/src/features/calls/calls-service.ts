// The state of each one-to-one call (docs/spec.md §4 Call, and the server's call rules of docs/protocol.md): a call is
// ringing from the caller's initiate until the callee accepts, then active until either side
// hangs up, the ring times out or a party's last connection drops. A user is in at most one
// call. Offers, answers and candidates pass only between the two parties of an active call,
// so a third user cannot inject them.
//
// Signals that do not fit the current state (a late accept after a hang-up, a candidate after
// the call ended) are ordinary races between two people, not attacks: they are dropped and the
// method answers false, so the sender's connection is not torn down.
//
// The state lives in a CallStore: this process's memory alone, or Redis for a cluster, where
// the parties may be connected to different nodes. Every change is a compare-and-set on the
// store, so two nodes racing (an accept against the ring timeout) cannot both win.
import type { CallSignal } from '@common/destinations';
import type { CallEvent } from '@common/payloads';
import { InvalidError } from '../errors';
import { MemoryCallStore, type Call, type CallStore } from './call-store';

export const DEFAULT_RING_TIMEOUT_MS = 60_000;

export type RelaySignal = 'offer' | 'answer' | 'ice-candidate';

export interface CallPorts {
  /** Sends a call event to every connection of the user subscribed to that signal's queue, but the excepted one. */
  deliver(userId: number, signal: CallSignal, event: CallEvent, exceptConnectionId?: string): void;
  /** Runs `fire` after `ms` milliseconds; the returned function cancels it (the in-memory store's ring timer). */
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
  ringElsewhere?(callee: number, caller: { userId: number; name: string }): void;
  /** How each call attempt ended up (metrics): ringing, busy, unavailable, accepted, rejected, timeout, hangup, disconnected. */
  outcome?(outcome: string): void;
}

export type InitiateOutcome = 'ringing' | 'busy' | 'already-ringing' | 'unavailable';

/**
 * A hang-up as its receiver gets it: `userId` and `targetUserId` both name the receiver's peer
 * in the call, as the original server sent it (its client ends the call only when targetUserId
 * is its peer). The same for hang-ups the server makes (timeout, a dropped connection, answered
 * on another tab).
 */
function hangupFrom(peer: number, reason?: CallEvent['reason']): CallEvent {
  return reason ? { userId: peer, targetUserId: peer, reason } : { userId: peer, targetUserId: peer };
}

export class CallService {
  private readonly store: CallStore;

  constructor(
    private readonly ports: CallPorts,
    ringTimeoutMs: number = DEFAULT_RING_TIMEOUT_MS,
    store?: CallStore,
  ) {
    this.store = store ?? new MemoryCallStore((ms, fire) => ports.schedule(ms, fire), ringTimeoutMs);
    this.store.onRingTimeout((call) => this.ringTimedOut(call));
  }

  /**
   * A call from the signed-in caller to a user id from the wire: the callee's overlay shows the
   * caller's name. A callee who does not exist, or has no open connection and no push
   * subscription, is answered at once with a hang-up for the reason 'unavailable', instead of a
   * minute of ringing nobody hears (and never with an ERROR that would close the caller's socket).
   */
  async ring(caller: number, callee: number): Promise<InitiateOutcome> {
    const names = await this.ports.names([caller, callee]);
    const callerName = names.get(caller);
    if (callerName === undefined) throw new InvalidError('the caller is not a user');
    const connected = await this.ports.isReachable(callee);
    if (!names.has(callee) || (!connected && !(await this.ports.canRingElsewhere?.(callee)))) {
      this.ports.deliver(caller, 'hangup', hangupFrom(callee, 'unavailable'));
      this.ports.outcome?.('unavailable');
      return 'unavailable';
    }
    const outcome = await this.initiate(caller, callerName, callee);
    if (outcome === 'ringing' && !connected) this.ports.ringElsewhere?.(callee, { userId: caller, name: callerName });
    return outcome;
  }

  /** The caller rings the callee, unless either of them is already in a call. */
  async initiate(caller: number, callerName: string, callee: number): Promise<InitiateOutcome> {
    const taken = await this.store.take(caller, callerName, callee);
    if (taken.kind === 'busy') {
      const own = taken.own;
      // A repeated initiate of the same ringing call (a double click, a resend) changes nothing.
      if (own && own.phase === 'ringing' && own.caller === caller && own.callee === callee) return 'already-ringing';
      this.ports.deliver(caller, 'rejected', { userId: callee, reason: 'busy' });
      this.ports.outcome?.('busy');
      return 'busy';
    }
    this.store.hold(taken.call, caller);
    this.ports.deliver(callee, 'incoming', { userId: caller, name: callerName });
    this.ports.outcome?.('ringing');
    return 'ringing';
  }

  /**
   * The callee takes the call that is ringing from this caller, on one of their connections.
   * Their other connections (tabs) rang too: they are told the call was answered elsewhere,
   * which closes their incoming-call overlay.
   */
  async accept(callee: number, caller: number, acceptedOn: string): Promise<boolean> {
    const call = await this.ringingBetween(caller, callee);
    if (!call || !(await this.store.activate(call))) return false;
    this.store.hold(call, callee);
    this.ports.outcome?.('accepted');
    this.ports.deliver(caller, 'accepted', { userId: callee });
    this.ports.deliver(callee, 'hangup', hangupFrom(caller, 'answered-elsewhere'), acceptedOn);
    return true;
  }

  /** The callee turns down the call that is ringing from this caller. */
  async reject(callee: number, caller: number): Promise<boolean> {
    const call = await this.ringingBetween(caller, callee);
    if (!call || !(await this.store.end(call, 'ringing'))) return false;
    this.ports.outcome?.('rejected');
    this.ports.deliver(caller, 'rejected', { userId: callee, reason: 'rejected' });
    return true;
  }

  /** An offer, answer or candidate from one party of an active call to the other. */
  async relay(from: number, to: number, signal: RelaySignal, content: Pick<CallEvent, 'sdp' | 'candidate'>): Promise<boolean> {
    const call = await this.callBetween(from, to);
    if (!call || call.phase !== 'active') return false;
    this.ports.deliver(to, signal, { ...content, userId: from, targetUserId: to });
    return true;
  }

  /** Either party ends the call, ringing or active. */
  async hangup(from: number, to: number): Promise<boolean> {
    const call = await this.callBetween(from, to);
    if (!call || !(await this.store.end(call))) return false;
    this.ports.outcome?.('hangup');
    this.ports.deliver(to, 'hangup', hangupFrom(from));
    return true;
  }

  /**
   * The user's last connection closed (on every node): the call cannot go on, so the peer is
   * told. Except for a callee whose call still rings: a page reload looks the same, and the
   * reloaded page is rung again (incomingFor); the ring timeout still ends a call nobody answers.
   */
  async disconnected(userId: number): Promise<boolean> {
    const call = await this.store.of(userId);
    if (!call) return false;
    if (call.phase === 'ringing' && call.callee === userId) return false;
    if (!(await this.store.end(call))) return false;
    const peer = call.caller === userId ? call.callee : call.caller;
    this.ports.outcome?.('disconnected');
    this.ports.deliver(peer, 'hangup', hangupFrom(userId, 'disconnected'));
    return true;
  }

  /**
   * The incoming-call event of a call still ringing for this callee, or null: a connection that
   * subscribes meanwhile (the callee reloaded the page) gets it again and rings too.
   */
  async incomingFor(callee: number): Promise<CallEvent | null> {
    const call = await this.store.of(callee);
    return call && call.phase === 'ringing' && call.callee === callee ? { userId: call.caller, name: call.callerName } : null;
  }

  /** Cancels every ring timer and renewal of this node (server shutdown). */
  stop(): void {
    this.store.stop();
  }

  private async ringTimedOut(call: Call): Promise<void> {
    if (!(await this.store.end(call, 'ringing'))) return;
    this.ports.outcome?.('timeout');
    this.ports.deliver(call.caller, 'hangup', hangupFrom(call.callee, 'timeout'));
    this.ports.deliver(call.callee, 'hangup', hangupFrom(call.caller, 'timeout'));
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
