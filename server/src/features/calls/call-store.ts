// Where call state lives: who is in which call, in what phase, the ring deadline and the
// reconnect graces. One process keeps it in memory (MemoryCallStore); a cluster keeps it in
// Redis (cluster/redis-call-store.ts) so that any node sees every call. Both take a call for
// both users at once or not at all, change and end it only if it is still the call the caller
// read (compare-and-set, compare-and-delete), and hand a call whose ring timed out, or whose
// away party's grace passed, to its handler exactly once.
import type { CallMedia } from '@common/api';
import type { Logger } from '../../log';

/**
 * ringing → active (accepted) → reconnecting (a party's last connection closed; back to active
 * when they return within the grace) → ended (the call is gone from the store).
 */
export type Phase = 'ringing' | 'active' | 'reconnecting';

export interface Call {
  id: string;
  caller: number;
  callerName: string;
  callee: number;
  media: CallMedia;
  phase: Phase;
  /** When the caller initiated it, and when the callee accepted it (null while it rings). */
  startedAtMs: number;
  answeredAtMs: number | null;
  /** Since when each party has been away (their last connection closed), null while connected. */
  callerAwayMs: number | null;
  calleeAwayMs: number | null;
}

export type TakeResult = { kind: 'taken'; call: Call } | { kind: 'busy'; own: Call | null };

/** What must still hold for end() to end the call: its phase, or that this party is still away. */
export interface EndCondition {
  phase?: Phase;
  away?: number;
}

export interface CallStore {
  /** The call the user is in, or null. */
  of(userId: number): Promise<Call | null>;
  /** A new ringing call, unless the caller or the callee is in one (then `own` is the caller's). */
  take(caller: number, callerName: string, callee: number, media: CallMedia, nowMs: number): Promise<TakeResult>;
  /** Ringing → active, if the call still rings; its ring deadline is gone. */
  activate(call: Call, nowMs: number): Promise<boolean>;
  /** Ends the call if it still exists (and meets the condition); the call as it ended, if this ended it. */
  end(call: Call, condition?: EndCondition): Promise<Call | null>;
  /**
   * The party's last connection closed during an accepted call: the call is reconnecting until
   * they come back or `graceMs` passes (then onGraceOver). False if the call is not accepted or
   * they are already away.
   */
  leave(call: Call, userId: number, nowMs: number, graceMs: number): Promise<boolean>;
  /** The away party is back within the grace: the call as it is now, or null if they were not away. */
  back(call: Call, userId: number): Promise<Call | null>;
  /** A party of the call is connected to this node: keep the call alive while they are. */
  hold(call: Call, userId: number): void;
  /** Where calls whose ring timed out go (once each, on one node). */
  onRingTimeout(handler: (call: Call) => Promise<void>): void;
  /** Where calls whose away party's grace passed go (once each, on one node). */
  onGraceOver(handler: (call: Call, userId: number) => Promise<void>): void;
  stop(): void;
}

/** What a call store shared by several nodes asks of the node it runs on. */
export interface SharedCallStorePorts {
  /** Whether the user has a connection on this node. */
  isLocal(userId: number): boolean;
  /** Whether the user has a connection on any node. */
  isOnline(userId: number): Promise<boolean>;
  /** The peer of a call held here is online nowhere (their node died): treat it as their disconnection. */
  peerGone(userId: number): Promise<void>;
}

/** Makes the call store every node of a cluster shares; the node's logger is the feature's. */
export type SharedCallStore = (ringTimeoutMs: number, ports: SharedCallStorePorts, log: Logger) => CallStore;

/** Runs `fire` after `ms` milliseconds; the returned function cancels it. */
export type Schedule = (ms: number, fire: () => void | Promise<void>) => () => void;

/** The away field of a party: the caller's or the callee's. */
export function awayOf(call: Call, userId: number): number | null {
  return userId === call.caller ? call.callerAwayMs : userId === call.callee ? call.calleeAwayMs : null;
}

/** The phase a call with these away parties is in, once accepted. */
export function acceptedPhase(call: Pick<Call, 'callerAwayMs' | 'calleeAwayMs'>): Phase {
  return call.callerAwayMs === null && call.calleeAwayMs === null ? 'active' : 'reconnecting';
}

let nextId = 0;

export class MemoryCallStore implements CallStore {
  /** Both parties of a call map to the same record. */
  private readonly byUser = new Map<number, Call>();
  /** Ring timers by call id, grace timers by `${call id}|${user id}`. */
  private readonly timers = new Map<string, () => void>();
  private ringTimedOut: (call: Call) => Promise<void> = () => Promise.resolve();
  private graceOver: (call: Call, userId: number) => Promise<void> = () => Promise.resolve();

  constructor(
    private readonly schedule: Schedule,
    private readonly ringTimeoutMs: number,
  ) {}

  of(userId: number): Promise<Call | null> {
    return Promise.resolve(this.byUser.get(userId) ?? null);
  }

  take(caller: number, callerName: string, callee: number, media: CallMedia, nowMs: number): Promise<TakeResult> {
    if (this.byUser.has(caller) || this.byUser.has(callee)) return Promise.resolve({ kind: 'busy', own: this.byUser.get(caller) ?? null });
    const call: Call = {
      id: `m${++nextId}`, caller, callerName, callee, media, phase: 'ringing', startedAtMs: nowMs, answeredAtMs: null, callerAwayMs: null, calleeAwayMs: null,
    };
    this.byUser.set(caller, call);
    this.byUser.set(callee, call);
    this.timers.set(call.id, this.schedule(this.ringTimeoutMs, () => this.ringTimedOut(call)));
    return Promise.resolve({ kind: 'taken', call });
  }

  activate(call: Call, nowMs: number): Promise<boolean> {
    const current = this.current(call);
    if (current?.phase !== 'ringing') return Promise.resolve(false);
    this.stopTimer(call.id);
    current.phase = 'active';
    current.answeredAtMs = nowMs;
    Object.assign(call, current);
    return Promise.resolve(true);
  }

  end(call: Call, condition: EndCondition = {}): Promise<Call | null> {
    const current = this.current(call);
    if (!current || (condition.phase && current.phase !== condition.phase)) return Promise.resolve(null);
    if (condition.away !== undefined && awayOf(current, condition.away) === null) return Promise.resolve(null);
    this.stopTimer(call.id);
    for (const userId of [call.caller, call.callee]) this.stopTimer(`${call.id}|${userId}`);
    this.byUser.delete(call.caller);
    this.byUser.delete(call.callee);
    return Promise.resolve({ ...current });
  }

  leave(call: Call, userId: number, nowMs: number, graceMs: number): Promise<boolean> {
    const current = this.current(call);
    if (!current || current.phase === 'ringing' || awayOf(current, userId) !== null) return Promise.resolve(false);
    if (userId === current.caller) current.callerAwayMs = nowMs;
    else current.calleeAwayMs = nowMs;
    current.phase = 'reconnecting';
    this.timers.set(`${call.id}|${userId}`, this.schedule(graceMs, () => this.graceOver(current, userId)));
    return Promise.resolve(true);
  }

  back(call: Call, userId: number): Promise<Call | null> {
    const current = this.current(call);
    if (!current || awayOf(current, userId) === null) return Promise.resolve(null);
    this.stopTimer(`${call.id}|${userId}`);
    if (userId === current.caller) current.callerAwayMs = null;
    else current.calleeAwayMs = null;
    current.phase = acceptedPhase(current);
    return Promise.resolve({ ...current });
  }

  hold(): void {}

  onRingTimeout(handler: (call: Call) => Promise<void>): void {
    this.ringTimedOut = handler;
  }

  onGraceOver(handler: (call: Call, userId: number) => Promise<void>): void {
    this.graceOver = handler;
  }

  stop(): void {
    for (const cancel of this.timers.values()) cancel();
    this.timers.clear();
    this.byUser.clear();
  }

  /** The stored call if it is still this one. */
  private current(call: Call): Call | null {
    const current = this.byUser.get(call.caller);
    return current?.id === call.id ? current : null;
  }

  private stopTimer(key: string): void {
    this.timers.get(key)?.();
    this.timers.delete(key);
  }
}
