// Call state for a cluster, in Redis: `call:{id}` (a hash: caller, callerName, callee, phase)
// and `call:user:{userId}` (the id of the user's call) for both parties, all with a TTL, and the
// ring deadlines in one sorted set. Each change is one Lua script, so two nodes never both take
// a user or both end a call:
// - take: both users' keys at once, or neither (busy);
// - activate: ringing → active only if the call still rings;
// - end: deletes the users' keys only where they still name this call (compare-and-delete).
// Every node claims due ring deadlines (ZRANGEBYSCORE + ZREM in one script), so a timeout fires
// once, on some node, even when the caller's node died. While a party is connected to a node,
// that node renews the call's TTL; when the peer is online nowhere any more (their node died),
// it ends the call as if the peer had disconnected. A call nobody renews expires.
import { randomBytes } from 'node:crypto';
import { ReplyError, type Redis } from 'ioredis';
import { SharedStateUnavailableError, type Call, type CallStore, type Phase, type SharedCallStorePorts, type TakeResult } from '../features/calls/call-store';
import type { Logger } from '../log';

const TAKE = `
local own = redis.call('GET', KEYS[1])
if own or redis.call('EXISTS', KEYS[2]) == 1 then return own or '' end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[5])
redis.call('SET', KEYS[2], ARGV[1], 'PX', ARGV[5])
redis.call('HSET', KEYS[3], 'caller', ARGV[2], 'callerName', ARGV[3], 'callee', ARGV[4], 'phase', 'ringing')
redis.call('PEXPIRE', KEYS[3], ARGV[5])
redis.call('ZADD', KEYS[4], ARGV[6], ARGV[1])
return false`;

const ACTIVATE = `
if redis.call('HGET', KEYS[1], 'phase') ~= 'ringing' then return 0 end
redis.call('HSET', KEYS[1], 'phase', 'active')
redis.call('ZREM', KEYS[4], ARGV[1])
for i = 1, 3 do redis.call('PEXPIRE', KEYS[i], ARGV[2]) end
return 1`;

const END = `
local phase = redis.call('HGET', KEYS[1], 'phase')
if not phase or (ARGV[2] ~= '' and phase ~= ARGV[2]) then return 0 end
redis.call('DEL', KEYS[1])
for i = 2, 3 do if redis.call('GET', KEYS[i]) == ARGV[1] then redis.call('DEL', KEYS[i]) end end
redis.call('ZREM', KEYS[4], ARGV[1])
return 1`;

const CLAIM_DUE = `
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, 100)
if #due > 0 then redis.call('ZREM', KEYS[1], unpack(due)) end
return due`;

const RENEW = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
for i = 1, 3 do redis.call('PEXPIRE', KEYS[i], ARGV[1]) end
return 1`;

/** How often due rings are claimed and held calls renewed. */
const POLL_MS = 250;
const RENEW_EVERY_MS = 5000;
/** An active call lives this long without renewal. */
const ACTIVE_TTL_MS = 30_000;

/**
 * Redis away or too slow (a command timeout, docs/architecture.md §9) becomes "try again in a
 * moment" for the caller; Redis's own refusals (a script error) stay what they are.
 */
function orUnavailable(err: unknown): never {
  if (err instanceof ReplyError) throw err;
  throw new SharedStateUnavailableError(err);
}

type Script = 'callTake' | 'callActivate' | 'callEnd' | 'callClaimDue' | 'callRenew';
type Scripted = Redis & Record<Script, (...args: Array<string | number>) => Promise<unknown>>;

export class RedisCallStore implements CallStore {
  private readonly redis: Scripted;
  private readonly ringsKey: string;
  private readonly held = new Map<string, { call: Call; userId: number }>();
  private readonly timers: NodeJS.Timeout[] = [];
  private ringTimedOut: (call: Call) => Promise<void> = () => Promise.resolve();
  private polling = false;

  constructor(
    redis: Redis,
    private readonly ringTimeoutMs: number,
    private readonly ports: SharedCallStorePorts,
    private readonly log: Logger,
    private readonly prefix = 'lc:call:',
  ) {
    this.redis = redis as Scripted;
    // Named apart from ioredis' own methods (it has an `end`).
    for (const [name, lua, keys] of [['callTake', TAKE, 4], ['callActivate', ACTIVATE, 4], ['callEnd', END, 4], ['callClaimDue', CLAIM_DUE, 1], ['callRenew', RENEW, 3]] as const) {
      if (!(name in redis)) redis.defineCommand(name, { numberOfKeys: keys, lua });
    }
    this.ringsKey = `${prefix}rings`;
    this.timers.push(setInterval(() => void this.claimDue(), POLL_MS).unref());
    this.timers.push(setInterval(() => void this.renewHeld(), RENEW_EVERY_MS).unref());
  }

  async of(userId: number): Promise<Call | null> {
    const id = await this.redis.get(this.userKey(userId)).catch(orUnavailable);
    return id ? this.load(id) : null;
  }

  async take(caller: number, callerName: string, callee: number): Promise<TakeResult> {
    const id = randomBytes(9).toString('base64url');
    // A ringing call lives until well after its deadline, so the deadline always finds it.
    const ttl = this.ringTimeoutMs + ACTIVE_TTL_MS;
    const own = (await this.redis.callTake(
      this.userKey(caller), this.userKey(callee), this.callKey(id), this.ringsKey,
      id, caller, callerName, callee, ttl, Date.now() + this.ringTimeoutMs,
    ).catch(orUnavailable)) as string | null;
    if (own === null) return { kind: 'taken', call: { id, caller, callerName, callee, phase: 'ringing' } };
    return { kind: 'busy', own: own ? await this.load(own) : null };
  }

  async activate(call: Call): Promise<boolean> {
    const done = (await this.redis.callActivate(this.callKey(call.id), this.userKey(call.caller), this.userKey(call.callee), this.ringsKey, call.id, ACTIVE_TTL_MS).catch(orUnavailable)) === 1;
    if (done) call.phase = 'active';
    return done;
  }

  async end(call: Call, onlyIf?: Phase): Promise<boolean> {
    this.held.delete(call.id);
    return (await this.redis.callEnd(this.callKey(call.id), this.userKey(call.caller), this.userKey(call.callee), this.ringsKey, call.id, onlyIf ?? '').catch(orUnavailable)) === 1;
  }

  hold(call: Call, userId: number): void {
    this.held.set(call.id, { call, userId });
  }

  onRingTimeout(handler: (call: Call) => Promise<void>): void {
    this.ringTimedOut = handler;
  }

  stop(): void {
    for (const t of this.timers) clearInterval(t);
    this.held.clear();
  }

  private async claimDue(): Promise<void> {
    if (this.polling || this.redis.status !== 'ready') return;
    this.polling = true;
    try {
      const due = (await this.redis.callClaimDue(this.ringsKey, Date.now())) as string[];
      for (const id of due) {
        const call = await this.load(id);
        if (call?.phase === 'ringing') await this.ringTimedOut(call);
      }
    } catch (err) {
      this.log.debug({ err: String(err) }, 'could not claim due rings');
    } finally {
      this.polling = false;
    }
  }

  private async renewHeld(): Promise<void> {
    if (this.redis.status !== 'ready') return;
    for (const [id, { call, userId }] of [...this.held]) {
      try {
        if (!this.ports.isLocal(userId)) {
          this.held.delete(id);
          continue;
        }
        const peer = call.caller === userId ? call.callee : call.caller;
        if (!(await this.ports.isOnline(peer))) {
          this.held.delete(id);
          await this.ports.peerGone(peer);
          continue;
        }
        if ((await this.redis.callRenew(this.callKey(id), this.userKey(call.caller), this.userKey(call.callee), ACTIVE_TTL_MS)) !== 1) this.held.delete(id);
      } catch (err) {
        this.log.debug({ err: String(err) }, 'could not renew a call');
      }
    }
  }

  private async load(id: string): Promise<Call | null> {
    const h = await this.redis.hgetall(this.callKey(id)).catch(orUnavailable);
    if (!h.phase) return null;
    return { id, caller: Number(h.caller), callerName: h.callerName, callee: Number(h.callee), phase: h.phase as Phase };
  }

  private callKey(id: string): string {
    return `${this.prefix}id:${id}`;
  }

  private userKey(userId: number): string {
    return `${this.prefix}user:${userId}`;
  }
}
