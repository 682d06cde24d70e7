// The state of each one-to-one call (SPEC.md §4 Call, issue 5's server rules): a call is
// ringing from the caller's initiate until the callee accepts, then active until either side
// hangs up, the ring times out or a party's last connection drops. A user is in at most one
// call. Offers, answers and candidates pass only between the two parties of an active call,
// so a third user cannot inject them.
//
// Signals that do not fit the current state (a late accept after a hang-up, a candidate after
// the call ended) are ordinary races between two people, not attacks: they are dropped and the
// method answers false, so the sender's connection is not torn down.
//
// The state lives in this process: one node holds every call (a cross-node bus would have to
// carry it before calls can span nodes).
import type { CallSignal } from '../../../../common/destinations';
import type { CallEvent } from '../../../../common/payloads';
import { InvalidError } from '../errors';

export const DEFAULT_RING_TIMEOUT_MS = 60_000;

export type RelaySignal = 'offer' | 'answer' | 'ice-candidate';

export interface CallPorts {
  /** Sends a call event to every connection of the user subscribed to that signal's queue, but the excepted one. */
  deliver(userId: number, signal: CallSignal, event: CallEvent, exceptConnectionId?: string): void;
  /** Runs `fire` after `ms` milliseconds; the returned function cancels it. */
  schedule(ms: number, fire: () => void): () => void;
  /** The display names of those of the given users that exist. */
  names(userIds: number[]): Promise<Map<number, string>>;
  /** Whether the user has an open connection a call could ring on. */
  isReachable(userId: number): boolean;
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

type Phase = 'ringing' | 'active';

interface Call {
  caller: number;
  callerName: string;
  callee: number;
  phase: Phase;
  cancelRing: () => void;
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
  /** Both parties of a call map to the same record. */
  private readonly byUser = new Map<number, Call>();

  constructor(
    private readonly ports: CallPorts,
    private readonly ringTimeoutMs: number = DEFAULT_RING_TIMEOUT_MS,
  ) {}

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
    const connected = this.ports.isReachable(callee);
    if (!names.has(callee) || (!connected && !(await this.ports.canRingElsewhere?.(callee)))) {
      this.ports.deliver(caller, 'hangup', hangupFrom(callee, 'unavailable'));
      this.ports.outcome?.('unavailable');
      return 'unavailable';
    }
    const outcome = this.initiate(caller, callerName, callee);
    if (outcome === 'ringing' && !connected) this.ports.ringElsewhere?.(callee, { userId: caller, name: callerName });
    return outcome;
  }

  /** The caller rings the callee, unless either of them is already in a call. */
  initiate(caller: number, callerName: string, callee: number): InitiateOutcome {
    const existing = this.byUser.get(caller);
    // A repeated initiate of the same ringing call (a double click, a resend) changes nothing.
    if (existing && existing.phase === 'ringing' && existing.caller === caller && existing.callee === callee) {
      return 'already-ringing';
    }
    if (existing || this.byUser.has(callee)) {
      this.ports.deliver(caller, 'rejected', { userId: callee, reason: 'busy' });
      this.ports.outcome?.('busy');
      return 'busy';
    }
    const call: Call = { caller, callerName, callee, phase: 'ringing', cancelRing: () => {} };
    call.cancelRing = this.ports.schedule(this.ringTimeoutMs, () => this.ringTimedOut(call));
    this.byUser.set(caller, call);
    this.byUser.set(callee, call);
    this.ports.deliver(callee, 'incoming', { userId: caller, name: callerName });
    this.ports.outcome?.('ringing');
    return 'ringing';
  }

  /**
   * The callee takes the call that is ringing from this caller, on one of their connections.
   * Their other connections (tabs) rang too: they are told the call was answered elsewhere,
   * which closes their incoming-call overlay.
   */
  accept(callee: number, caller: number, acceptedOn: string): boolean {
    const call = this.ringingBetween(caller, callee);
    if (!call) return false;
    call.cancelRing();
    call.phase = 'active';
    this.ports.outcome?.('accepted');
    this.ports.deliver(caller, 'accepted', { userId: callee });
    this.ports.deliver(callee, 'hangup', hangupFrom(caller, 'answered-elsewhere'), acceptedOn);
    return true;
  }

  /** The callee turns down the call that is ringing from this caller. */
  reject(callee: number, caller: number): boolean {
    const call = this.ringingBetween(caller, callee);
    if (!call) return false;
    this.end(call);
    this.ports.outcome?.('rejected');
    this.ports.deliver(caller, 'rejected', { userId: callee, reason: 'rejected' });
    return true;
  }

  /** An offer, answer or candidate from one party of an active call to the other. */
  relay(from: number, to: number, signal: RelaySignal, content: Pick<CallEvent, 'sdp' | 'candidate'>): boolean {
    const call = this.callBetween(from, to);
    if (!call || call.phase !== 'active') return false;
    this.ports.deliver(to, signal, { ...content, userId: from, targetUserId: to });
    return true;
  }

  /** Either party ends the call, ringing or active. */
  hangup(from: number, to: number): boolean {
    const call = this.callBetween(from, to);
    if (!call) return false;
    this.end(call);
    this.ports.outcome?.('hangup');
    this.ports.deliver(to, 'hangup', hangupFrom(from));
    return true;
  }

  /**
   * The user's last connection closed: the call cannot go on, so the peer is told. Except for a
   * callee whose call still rings: a page reload looks the same, and the reloaded page is rung
   * again (incomingFor); the ring timeout still ends a call nobody answers.
   */
  disconnected(userId: number): boolean {
    const call = this.byUser.get(userId);
    if (!call) return false;
    if (call.phase === 'ringing' && call.callee === userId) return false;
    this.end(call);
    const peer = call.caller === userId ? call.callee : call.caller;
    this.ports.outcome?.('disconnected');
    this.ports.deliver(peer, 'hangup', hangupFrom(userId, 'disconnected'));
    return true;
  }

  /**
   * The incoming-call event of a call still ringing for this callee, or null: a connection that
   * subscribes meanwhile (the callee reloaded the page) gets it again and rings too.
   */
  incomingFor(callee: number): CallEvent | null {
    const call = this.byUser.get(callee);
    return call && call.phase === 'ringing' && call.callee === callee ? { userId: call.caller, name: call.callerName } : null;
  }

  /** Cancels every ring timer (server shutdown). */
  stop(): void {
    for (const call of new Set(this.byUser.values())) this.end(call);
  }

  private ringTimedOut(call: Call): void {
    if (this.byUser.get(call.caller) !== call || call.phase !== 'ringing') return;
    this.end(call);
    this.ports.outcome?.('timeout');
    this.ports.deliver(call.caller, 'hangup', hangupFrom(call.callee, 'timeout'));
    this.ports.deliver(call.callee, 'hangup', hangupFrom(call.caller, 'timeout'));
  }

  private callBetween(a: number, b: number): Call | undefined {
    const call = this.byUser.get(a);
    if (!call) return undefined;
    const pair = (call.caller === a && call.callee === b) || (call.caller === b && call.callee === a);
    return pair ? call : undefined;
  }

  private ringingBetween(caller: number, callee: number): Call | undefined {
    const call = this.byUser.get(callee);
    return call && call.phase === 'ringing' && call.caller === caller && call.callee === callee ? call : undefined;
  }

  private end(call: Call): void {
    call.cancelRing();
    this.byUser.delete(call.caller);
    this.byUser.delete(call.callee);
  }
}
