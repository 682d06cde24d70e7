// Whether a user has an open connection on any node: a call rings only someone who can hear it,
// and ends when a party's last connection anywhere is gone. One process alone asks its broker;
// a cluster keeps, per user, a Redis sorted set of the nodes holding them, each entry scored by
// when it expires: every node renews its own entries while they last, so a node that died
// without saying goodbye drops out after ENTRY_TTL_MS.
import type { Redis } from 'ioredis';
import type { Logger } from '../log';

export interface Presence {
  isOnline(userId: number): Promise<boolean>;
  /** Which of the users are online anywhere, in one round trip (a room's members, search results). */
  onlineAmong(userIds: readonly number[]): Promise<Set<number>>;
}

export const PRESENCE_RENEW_MS = 10_000;
const ENTRY_TTL_MS = 3 * PRESENCE_RENEW_MS;

/** One process: online means connected to this process. */
export class LocalPresence implements Presence {
  constructor(private readonly connectionCount: (userId: number) => number) {}

  isOnline(userId: number): Promise<boolean> {
    return Promise.resolve(this.connectionCount(userId) > 0);
  }

  onlineAmong(userIds: readonly number[]): Promise<Set<number>> {
    return Promise.resolve(new Set(userIds.filter((id) => this.connectionCount(id) > 0)));
  }
}

export class RedisPresence implements Presence {
  private readonly local = new Set<number>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly redis: Redis,
    private readonly nodeId: string,
    private readonly log: Logger,
    private readonly prefix = 'lc:online:',
  ) {
    this.timer = setInterval(() => void this.renew(), PRESENCE_RENEW_MS).unref();
  }

  /** The user's first connection on this node opened (true) or their last closed (false). */
  changed(userId: number, connected: boolean): void {
    if (connected) {
      this.local.add(userId);
      this.write(userId, true);
    } else {
      this.local.delete(userId);
      this.write(userId, false);
    }
  }

  async isOnline(userId: number): Promise<boolean> {
    if (this.local.has(userId)) return true;
    // The bus down: answer at once from what this node knows rather than wait out a timeout.
    if (this.redis.status !== 'ready') return false;
    try {
      return (await this.redis.zcount(this.prefix + userId, Date.now(), '+inf')) > 0;
    } catch (err) {
      // Redis away: nobody elsewhere can be reached through it either.
      this.log.debug({ err: String(err) }, 'presence unknown while Redis is away');
      return false;
    }
  }

  async onlineAmong(userIds: readonly number[]): Promise<Set<number>> {
    const online = new Set(userIds.filter((id) => this.local.has(id)));
    const elsewhere = userIds.filter((id) => !online.has(id));
    if (elsewhere.length === 0 || this.redis.status !== 'ready') return online;
    const now = Date.now();
    const batch = this.redis.pipeline();
    for (const id of elsewhere) batch.zcount(this.prefix + id, now, '+inf');
    try {
      const counts = (await batch.exec()) ?? [];
      counts.forEach(([err, count], i) => {
        if (!err && Number(count) > 0) online.add(elsewhere[i]);
      });
    } catch (err) {
      // Redis away: only this node's users are known to be online.
      this.log.debug({ err: String(err) }, 'presence unknown while Redis is away');
    }
    return online;
  }

  /** Writes this node's entries again after Redis came back without them. */
  renewNow(): void {
    void this.renew();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private write(userId: number, connected: boolean): void {
    if (this.redis.status !== 'ready') return;
    const key = this.prefix + userId;
    const op = connected
      ? this.redis.multi().zadd(key, Date.now() + ENTRY_TTL_MS, this.nodeId).pexpire(key, ENTRY_TTL_MS).exec()
      : this.redis.zrem(key, this.nodeId);
    op.catch(() => {});
  }

  private async renew(): Promise<void> {
    if (this.redis.status !== 'ready' || this.local.size === 0) return;
    const expires = Date.now() + ENTRY_TTL_MS;
    const batch = this.redis.pipeline();
    for (const userId of this.local) {
      const key = this.prefix + userId;
      batch.zadd(key, expires, this.nodeId).pexpire(key, ENTRY_TTL_MS).zremrangebyscore(key, '-inf', Date.now());
    }
    await batch.exec().catch((err: unknown) => this.log.debug({ err: String(err) }, 'presence renewal failed'));
  }
}
