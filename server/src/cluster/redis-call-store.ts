// Call state for a cluster, in Redis: `call:{id}` (a hash: caller, callerName, callee, media,
// phase, startedAt, answeredAt, and callerAway / calleeAway while a party is away) and
// `call:user:{userId}` (the id of the user's call) for both parties, all with a TTL, the ring
// deadlines in one sorted set and the reconnect graces in another (member `{id}|{userId}`).
// Each change is one Lua script, so two nodes never both take a user or both end a call:
// - take: both users' keys at once, or neither (busy);
// - activate: ringing → active only if the call still rings;
// - leave / back: a party away (reconnecting) or back, only if the call is accepted and they
//   were not (were) away already;
// - end: deletes the users' keys only where they still name this call (compare-and-delete), and
//   only if the call is still in the given phase, or the given party still away.
// Every node claims due ring deadlines and graces (ZRANGEBYSCORE + ZREM in one script), so a
// timeout fires once, on some node, even when the node that set it died. While a party is
// connected to a node, that node renews the call's TTL; when the peer is online nowhere any more
// (their node died), it tells the service, which starts their grace. A call nobody renews expires,
// but never before the grace of an away party has run out.
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { CallMedia } from '@common/api';
import { acceptedPhase, type Call, type CallStore, type EndCondition, type Phase, type SharedCallStorePorts, type TakeResult } from '../features/calls/call-store';
import type { Logger } from '../log';

const TAKE = `
local own = redis.call('GET', KEYS[1])
if own or redis.call('EXISTS', KEYS[2]) == 1 then return own or '' end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[5])
redis.call('SET', KEYS[2], ARGV[1], 'PX', ARGV[5])
redis.call('HSET', KEYS[3], 'caller', ARGV[2], 'callerName', ARGV[3], 'callee', ARGV[4], 'phase', 'ringing', 'media', ARGV[7], 'startedAt', ARGV[8])
redis.call('PEXPIRE', KEYS[3], ARGV[5])
redis.call('ZADD', KEYS[4], ARGV[6], ARGV[1])
return false`;

const ACTIVATE = `
if redis.call('HGET', KEYS[1], 'phase') ~= 'ringing' then return 0 end
redis.call('HSET', KEYS[1], 'phase', 'active', 'answeredAt', ARGV[3])
redis.call('ZREM', KEYS[4], ARGV[1])
for i = 1, 3 do redis.call('PEXPIRE', KEYS[i], ARGV[2]) end
return 1`;

// Answers the call's fields as it ended, or an empty list when it did not end it.
const END = `
local phase = redis.call('HGET', KEYS[1], 'phase')
if not phase or (ARGV[2] ~= '' and phase ~= ARGV[2]) then return {} end
if ARGV[3] ~= '' and redis.call('HEXISTS', KEYS[1], ARGV[3]) == 0 then return {} end
local fields = redis.call('HGETALL', KEYS[1])
redis.call('DEL', KEYS[1])
for i = 2, 3 do if redis.call('GET', KEYS[i]) == ARGV[1] then redis.call('DEL', KEYS[i]) end end
redis.call('ZREM', KEYS[4], ARGV[1])
redis.call('ZREM', KEYS[5], ARGV[1] .. '|' .. ARGV[4], ARGV[1] .. '|' .. ARGV[5])
return fields`;

// KEYS: call, caller's key, callee's key, graces. ARGV: away field, since, deadline, grace member, TTL.
const LEAVE = `
local phase = redis.call('HGET', KEYS[1], 'phase')
if phase ~= 'active' and phase ~= 'reconnecting' then return 0 end
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'phase', 'reconnecting', ARGV[1], ARGV[2])
redis.call('ZADD', KEYS[4], ARGV[3], ARGV[4])
for i = 1, 3 do if redis.call('PTTL', KEYS[i]) < tonumber(ARGV[5]) then redis.call('PEXPIRE', KEYS[i], ARGV[5]) end end
return 1`;

// KEYS: call, graces. ARGV: away field, grace member, the other party's away field.
const BACK = `
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then return 0 end
redis.call('HDEL', KEYS[1], ARGV[1])
redis.call('ZREM', KEYS[2], ARGV[2])
if redis.call('HEXISTS', KEYS[1], ARGV[3]) == 0 then redis.call('HSET', KEYS[1], 'phase', 'active') end
return 1`;

const CLAIM_DUE = `
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, 100)
if #due > 0 then redis.call('ZREM', KEYS[1], unpack(due)) end
return due`;

// Renewal never shortens a TTL that leave() stretched over a grace.
const RENEW = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
for i = 1, 3 do if redis.call('PTTL', KEYS[i]) < tonumber(ARGV[1]) then redis.call('PEXPIRE', KEYS[i], ARGV[1]) end end
return 1`;

/** How often due rings and graces are claimed and held calls renewed. */
const POLL_MS = 250;
const RENEW_EVERY_MS = 5000;
/** An active call lives this long without renewal. */
const ACTIVE_TTL_MS = 30_000;

type Script = 'callTake' | 'callActivate' | 'callEnd' | 'callLeave' | 'callBack' | 'callClaimDue' | 'callRenew';
type Scripted = Redis & Record<Script, (...args: Array<string | number>) => Promise<unknown>>;

const SCRIPTS: ReadonlyArray<readonly [Script, string, number]> = [
  ['callTake', TAKE, 4], ['callActivate', ACTIVATE, 4], ['callEnd', END, 5], ['callLeave', LEAVE, 4], ['callBack', BACK, 2],
  ['callClaimDue', CLAIM_DUE, 1], ['callRenew', RENEW, 3],
];

export class RedisCallStore implements CallStore {
  private readonly redis: Scripted;
  private readonly ringsKey: string;
  private readonly gracesKey: string;
  private readonly held = new Map<string, { call: Call; userId: number }>();
  private readonly timers: NodeJS.Timeout[] = [];
  private ringTimedOut: (call: Call) => Promise<void> = () => Promise.resolve();
  private graceOver: (call: Call, userId: number) => Promise<void> = () => Promise.resolve();
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
    for (const [name, lua, keys] of SCRIPTS) {
      if (!(name in redis)) redis.defineCommand(name, { numberOfKeys: keys, lua });
    }
    this.ringsKey = `${prefix}rings`;
    this.gracesKey = `${prefix}graces`;
    this.timers.push(setInterval(() => void this.claimDue(), POLL_MS).unref());
    this.timers.push(setInterval(() => void this.renewHeld(), RENEW_EVERY_MS).unref());
  }

  async of(userId: number): Promise<Call | null> {
    const id = await this.redis.get(this.userKey(userId));
    return id ? this.load(id) : null;
  }

  async take(caller: number, callerName: string, callee: number, media: CallMedia, nowMs: number): Promise<TakeResult> {
    const id = randomBytes(9).toString('base64url');
    // A ringing call lives until well after its deadline, so the deadline always finds it.
    const ttl = this.ringTimeoutMs + ACTIVE_TTL_MS;
    const own = (await this.redis.callTake(
      this.userKey(caller), this.userKey(callee), this.callKey(id), this.ringsKey,
      id, caller, callerName, callee, ttl, Date.now() + this.ringTimeoutMs, media, nowMs,
    )) as string | null;
    if (own === null) {
      return { kind: 'taken', call: { id, caller, callerName, callee, media, phase: 'ringing', startedAtMs: nowMs, answeredAtMs: null, callerAwayMs: null, calleeAwayMs: null } };
    }
    return { kind: 'busy', own: own ? await this.load(own) : null };
  }

  async activate(call: Call, nowMs: number): Promise<boolean> {
    const done = (await this.redis.callActivate(this.callKey(call.id), this.userKey(call.caller), this.userKey(call.callee), this.ringsKey, call.id, ACTIVE_TTL_MS, nowMs)) === 1;
    if (done) Object.assign(call, { phase: 'active', answeredAtMs: nowMs });
    return done;
  }

  async end(call: Call, condition: EndCondition = {}): Promise<Call | null> {
    const away = condition.away === undefined ? '' : this.awayField(call, condition.away);
    const fields = (await this.redis.callEnd(
      this.callKey(call.id), this.userKey(call.caller), this.userKey(call.callee), this.ringsKey, this.gracesKey,
      call.id, condition.phase ?? '', away, call.caller, call.callee,
    )) as string[];
    if (fields.length === 0) return null;
    this.held.delete(call.id);
    const hash: Record<string, string> = {};
    for (let i = 0; i + 1 < fields.length; i += 2) hash[fields[i]] = fields[i + 1];
    return this.fromHash(call.id, hash);
  }

  async leave(call: Call, userId: number, nowMs: number, graceMs: number): Promise<boolean> {
    // The call outlives the grace by a renewal period, so the grace always finds it.
    const ttl = graceMs + ACTIVE_TTL_MS;
    return (await this.redis.callLeave(
      this.callKey(call.id), this.userKey(call.caller), this.userKey(call.callee), this.gracesKey,
      this.awayField(call, userId), nowMs, Date.now() + graceMs, this.graceMember(call.id, userId), ttl,
    )) === 1;
  }

  async back(call: Call, userId: number): Promise<Call | null> {
    const other = userId === call.caller ? call.callee : call.caller;
    const done = (await this.redis.callBack(this.callKey(call.id), this.gracesKey, this.awayField(call, userId), this.graceMember(call.id, userId), this.awayField(call, other))) === 1;
    return done ? this.load(call.id) : null;
  }

  hold(call: Call, userId: number): void {
    this.held.set(call.id, { call, userId });
  }

  onRingTimeout(handler: (call: Call) => Promise<void>): void {
    this.ringTimedOut = handler;
  }

  onGraceOver(handler: (call: Call, userId: number) => Promise<void>): void {
    this.graceOver = handler;
  }

  stop(): void {
    for (const t of this.timers) clearInterval(t);
    this.held.clear();
  }

  private async claimDue(): Promise<void> {
    if (this.polling || this.redis.status !== 'ready') return;
    this.polling = true;
    try {
      const now = Date.now();
      const due = (await this.redis.callClaimDue(this.ringsKey, now)) as string[];
      for (const id of due) {
        const call = await this.load(id);
        if (call?.phase === 'ringing') await this.ringTimedOut(call);
      }
      const graces = (await this.redis.callClaimDue(this.gracesKey, now)) as string[];
      for (const member of graces) {
        const [id, userId] = member.split('|');
        const call = await this.load(id);
        if (call) await this.graceOver(call, Number(userId));
      }
    } catch (err) {
      this.log.debug({ err: String(err) }, 'could not claim due rings or graces');
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
        // The peer's node died: their grace starts (once; telling it again changes nothing).
        if (!(await this.ports.isOnline(peer))) await this.ports.peerGone(peer);
        if ((await this.redis.callRenew(this.callKey(id), this.userKey(call.caller), this.userKey(call.callee), ACTIVE_TTL_MS)) !== 1) this.held.delete(id);
      } catch (err) {
        this.log.debug({ err: String(err) }, 'could not renew a call');
      }
    }
  }

  private async load(id: string): Promise<Call | null> {
    const h = await this.redis.hgetall(this.callKey(id));
    return h.phase ? this.fromHash(id, h) : null;
  }

  private fromHash(id: string, h: Record<string, string>): Call {
    const msOrNull = (v: string | undefined) => (v === undefined ? null : Number(v));
    const call: Call = {
      id, caller: Number(h.caller), callerName: h.callerName, callee: Number(h.callee), media: h.media === 'video' ? 'video' : 'audio',
      phase: h.phase as Phase, startedAtMs: Number(h.startedAt ?? 0), answeredAtMs: msOrNull(h.answeredAt),
      callerAwayMs: msOrNull(h.callerAway), calleeAwayMs: msOrNull(h.calleeAway),
    };
    if (call.phase !== 'ringing') call.phase = acceptedPhase(call);
    return call;
  }

  private awayField(call: Call, userId: number): string {
    return userId === call.caller ? 'callerAway' : 'calleeAway';
  }

  private graceMember(id: string, userId: number): string {
    return `${id}|${userId}`;
  }

  private callKey(id: string): string {
    return `${this.prefix}id:${id}`;
  }

  private userKey(userId: number): string {
    return `${this.prefix}user:${userId}`;
  }
}
