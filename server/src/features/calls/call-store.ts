// Where call state lives: who is in which call, in what phase, and the ring deadline. One process
// keeps it in memory (MemoryCallStore); a cluster keeps it in Redis (cluster/redis-call-store.ts)
// so that any node sees every call. Both take a call for both users at once or not at all, change
// and end it only if it is still the call the caller read (compare-and-set, compare-and-delete),
// and hand a call whose ring timed out to onRingTimeout exactly once.
import type { Logger } from '../../log';

/** What a shared store's methods reject with when the state they share cannot be reached in time. */
export { SharedStateUnavailableError } from '../errors';

export type Phase = 'ringing' | 'active';

export interface Call {
  id: string;
  caller: number;
  callerName: string;
  callee: number;
  phase: Phase;
}

export type TakeResult = { kind: 'taken'; call: Call } | { kind: 'busy'; own: Call | null };

/** A shared store's methods reject with SharedStateUnavailableError when its state is out of reach. */
export interface CallStore {
  /** The call the user is in, or null. */
  of(userId: number): Promise<Call | null>;
  /** A new ringing call, unless the caller or the callee is in one (then `own` is the caller's). */
  take(caller: number, callerName: string, callee: number): Promise<TakeResult>;
  /** Ringing → active, if the call still rings; its ring deadline is gone. */
  activate(call: Call): Promise<boolean>;
  /** Ends the call if it still exists (and is in `onlyIf` phase when given); true if this ended it. */
  end(call: Call, onlyIf?: Phase): Promise<boolean>;
  /** A party of the call is connected to this node: keep the call alive while they are. */
  hold(call: Call, userId: number): void;
  /** Where calls whose ring timed out go (once each, on one node). */
  onRingTimeout(handler: (call: Call) => Promise<void>): void;
  stop(): void;
}

/** What a call store shared by several nodes asks of the node it runs on. */
export interface SharedCallStorePorts {
  /** Whether the user has a connection on this node. */
  isLocal(userId: number): boolean;
  /** Whether the user has a connection on any node. */
  isOnline(userId: number): Promise<boolean>;
  /** The peer of a call held here is online nowhere: end the call as their disconnection. */
  peerGone(userId: number): Promise<void>;
}

/** Makes the call store every node of a cluster shares; the node's logger is the feature's. */
export type SharedCallStore = (ringTimeoutMs: number, ports: SharedCallStorePorts, log: Logger) => CallStore;

/** Runs `fire` after `ms` milliseconds; the returned function cancels it. */
export type Schedule = (ms: number, fire: () => void | Promise<void>) => () => void;

let nextId = 0;

export class MemoryCallStore implements CallStore {
  /** Both parties of a call map to the same record. */
  private readonly byUser = new Map<number, Call>();
  private readonly cancelRing = new Map<string, () => void>();
  private ringTimedOut: (call: Call) => Promise<void> = () => Promise.resolve();

  constructor(
    private readonly schedule: Schedule,
    private readonly ringTimeoutMs: number,
  ) {}

  of(userId: number): Promise<Call | null> {
    return Promise.resolve(this.byUser.get(userId) ?? null);
  }

  take(caller: number, callerName: string, callee: number): Promise<TakeResult> {
    if (this.byUser.has(caller) || this.byUser.has(callee)) return Promise.resolve({ kind: 'busy', own: this.byUser.get(caller) ?? null });
    const call: Call = { id: String(++nextId), caller, callerName, callee, phase: 'ringing' };
    this.byUser.set(caller, call);
    this.byUser.set(callee, call);
    this.cancelRing.set(call.id, this.schedule(this.ringTimeoutMs, () => this.ringTimedOut(call)));
    return Promise.resolve({ kind: 'taken', call });
  }

  activate(call: Call): Promise<boolean> {
    const current = this.byUser.get(call.callee);
    if (current?.id !== call.id || current.phase !== 'ringing') return Promise.resolve(false);
    this.stopRing(call.id);
    current.phase = 'active';
    call.phase = 'active';
    return Promise.resolve(true);
  }

  end(call: Call, onlyIf?: Phase): Promise<boolean> {
    const current = this.byUser.get(call.caller);
    if (current?.id !== call.id || (onlyIf && current.phase !== onlyIf)) return Promise.resolve(false);
    this.stopRing(call.id);
    this.byUser.delete(call.caller);
    this.byUser.delete(call.callee);
    return Promise.resolve(true);
  }

  hold(): void {}

  onRingTimeout(handler: (call: Call) => Promise<void>): void {
    this.ringTimedOut = handler;
  }

  stop(): void {
    for (const cancel of this.cancelRing.values()) cancel();
    this.cancelRing.clear();
    this.byUser.clear();
  }

  private stopRing(id: string): void {
    this.cancelRing.get(id)?.();
    this.cancelRing.delete(id);
  }
}
