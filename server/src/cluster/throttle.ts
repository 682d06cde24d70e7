// "At most once per interval" that holds across nodes: the first caller for a key in an
// interval is allowed, the others are not, whichever node they reach. One process alone needs
// nothing more than its own memory (the features keep a local first check); a cluster takes the
// key in Redis with SET NX PX, which expires by itself.
import type { Redis } from 'ioredis';

export interface Throttle {
  /** True for the first call with this key in `intervalMs`, anywhere. */
  allow(key: string, intervalMs: number): Promise<boolean>;
}

/** One process: the feature's own memory already decided. */
export class LocalThrottle implements Throttle {
  allow(): Promise<boolean> {
    return Promise.resolve(true);
  }
}

export class RedisThrottle implements Throttle {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'lc:throttle:',
  ) {}

  async allow(key: string, intervalMs: number): Promise<boolean> {
    if (this.redis.status !== 'ready') return true;
    try {
      return (await this.redis.set(this.prefix + key, '1', 'PX', intervalMs, 'NX')) === 'OK';
    } catch {
      // Redis away: the node's own throttle still holds; across nodes it opens for the while.
      return true;
    }
  }
}
