// The bus over Redis pub/sub (ioredis): one connection publishes, one listens. Redis hands a
// subscriber the messages of one publishing connection in the order they were published, across
// channels too, so what one node publishes reaches every other node in that node's order.
//
// Each node listens only to the channels its clients need (a room's topic while someone here
// has it open, a user's channel while they are connected here), so a message costs Redis one
// delivery per interested node, not per node.
import { randomBytes } from 'node:crypto';
import { Redis, type RedisOptions } from 'ioredis';
import type { Logger } from '../log';
import { ChannelCounts, type Bus, type BusState } from './bus';

/** Channel names carry this prefix; a message is the sender's node id, this separator, then the text. */
const SEPARATOR = '\u001f';
/**
 * A node id followed by this mark heads a batch: several messages published on one channel in a
 * row, each as its length, SEPARATOR, then its text. One PUBLISH instead of several: Redis's one
 * thread and both nodes' command handling pay per PUBLISH, not per byte.
 */
const BATCH_MARK = '*';
const BATCH_MARK_CODE = BATCH_MARK.charCodeAt(0);

/** Consecutive publishes to the same channel within one turn of the event loop. */
interface Run {
  channel: string;
  messages: string[];
}

/** Reconnects quickly at first, then every second, for ever: a node outlives a Redis restart. */
function retryStrategy(times: number): number {
  return Math.min(50 * times, 1000);
}

export function redisOptions(extra: RedisOptions = {}): RedisOptions {
  return { retryStrategy, maxRetriesPerRequest: 1, connectTimeout: 2000, ...extra };
}

/**
 * A command to Redis fails after this (docs/architecture.md §9): a Redis that stopped answering
 * without closing its connections (frozen, or a partition with no reset) must not hang the
 * requests that ask it, so they fall back to what this node knows or answer 503 within it.
 */
export const COMMAND_TIMEOUT_MS = 1000;
/** The bus is PINGed this often; an answer later than COMMAND_TIMEOUT_MS counts it down. */
export const PING_EVERY_MS = 1000;

export class RedisBus implements Bus {
  readonly nodeId = randomBytes(6).toString('base64url');
  /** Commands: PUBLISH, and the call and session keys of the stores that share it. */
  readonly redis: Redis;
  private readonly subscriber: Redis;
  private readonly channels = new ChannelCounts();
  private readonly handlers: Array<(channel: string, message: string) => void> = [];
  private readonly reconnectHandlers: Array<() => void> = [];
  /** What was published this turn, in order, flushed on setImmediate. */
  private runs: Run[] = [];
  private flushScheduled = false;
  private wasUp = false;
  private lostSinceUp = false;
  private readonly pingTimer: NodeJS.Timeout;
  private pinging = false;
  dropped = 0;

  constructor(
    url: string,
    private readonly log: Logger,
    private readonly prefix = 'lc:',
  ) {
    // Publishing while Redis is away fails at once instead of queueing: the bus is lossy, and a
    // queue of unsent fan-out would grow without bound during an outage.
    // Commands time out (COMMAND_TIMEOUT_MS): whoever awaits one gets an answer or an error in time.
    this.redis = new Redis(url, redisOptions({
      enableOfflineQueue: false, enableAutoPipelining: true, commandTimeout: COMMAND_TIMEOUT_MS, connectionName: `letschat-${this.nodeId}`,
    }));
    // The listener keeps its queue: SUBSCRIBE and UNSUBSCRIBE wait for the connection, and
    // ioredis subscribes again to every channel after a reconnect. No command timeout here: it
    // would also fail the SUBSCRIBEs queued during an outage, and they must wait.
    this.subscriber = new Redis(url, redisOptions({ maxRetriesPerRequest: null, connectionName: `letschat-${this.nodeId}-sub` }));
    this.subscriber.on('message', (channel: string, message: string) => this.received(channel, message));
    for (const connection of [this.redis, this.subscriber]) {
      connection.on('ready', () => this.changed());
      connection.on('close', () => this.changed());
      connection.on('end', () => this.changed());
      // ioredis logs unhandled connection errors itself; these are expected while Redis is down.
      connection.on('error', (err: Error) => this.log.debug({ err: err.message }, 'redis connection error'));
    }
    this.pingTimer = setInterval(() => void this.ping(), PING_EVERY_MS).unref();
  }

  get state(): BusState {
    return this.redis.status === 'ready' && this.subscriber.status === 'ready' ? 'up' : 'down';
  }

  /**
   * Queued for the end of this turn of the event loop: consecutive messages on one channel go as
   * one PUBLISH (a burst into a room costs Redis one command, not one per message). Only runs of
   * one channel are merged, so what other nodes receive keeps this node's order across channels
   * (a user's unsubscribe before the room's next message stays before it).
   */
  publish(channel: string, message: string): void {
    if (this.redis.status !== 'ready') {
      this.dropped++;
      return;
    }
    const last = this.runs[this.runs.length - 1];
    if (last?.channel === channel) last.messages.push(message);
    else this.runs.push({ channel, messages: [message] });
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(() => this.flush());
    }
  }

  private flush(): void {
    this.flushScheduled = false;
    const runs = this.runs;
    this.runs = [];
    for (const { channel, messages } of runs) {
      if (this.redis.status !== 'ready') {
        this.dropped += messages.length;
        continue;
      }
      const text = messages.length === 1
        ? this.nodeId + SEPARATOR + messages[0]
        : this.nodeId + BATCH_MARK + SEPARATOR + messages.map((m) => m.length + SEPARATOR + m).join('');
      this.redis.publish(this.prefix + channel, text).catch(() => {
        this.dropped += messages.length;
      });
    }
  }

  listen(channel: string): void {
    if (this.channels.add(channel)) this.subscriber.subscribe(this.prefix + channel).catch((err: unknown) => this.failed('subscribe', err));
  }

  unlisten(channel: string): void {
    if (this.channels.remove(channel)) this.subscriber.unsubscribe(this.prefix + channel).catch((err: unknown) => this.failed('unsubscribe', err));
  }

  onMessage(handler: (channel: string, message: string) => void): void {
    this.handlers.push(handler);
  }

  onReconnect(handler: () => void): void {
    this.reconnectHandlers.push(handler);
  }

  /** Channels this node listens to. */
  get listening(): number {
    return this.channels.size;
  }

  async close(): Promise<void> {
    clearInterval(this.pingTimer);
    this.flush();
    await Promise.allSettled([this.redis.quit(), this.subscriber.quit()]);
    this.redis.disconnect();
    this.subscriber.disconnect();
  }

  private received(prefixed: string, raw: string): void {
    const at = raw.indexOf(SEPARATOR);
    if (at < 0) return;
    const batch = raw.charCodeAt(at - 1) === BATCH_MARK_CODE;
    if (raw.slice(0, batch ? at - 1 : at) === this.nodeId) return;
    const channel = prefixed.slice(this.prefix.length);
    if (!batch) {
      this.handle(channel, raw.slice(at + 1));
      return;
    }
    for (let i = at + 1; i < raw.length; ) {
      const sep = raw.indexOf(SEPARATOR, i);
      const length = Number(raw.slice(i, sep));
      if (sep < 0 || !Number.isInteger(length) || length < 0) {
        this.log.warn({ channel }, 'malformed bus batch');
        return;
      }
      this.handle(channel, raw.slice(sep + 1, sep + 1 + length));
      i = sep + 1 + length;
    }
  }

  private handle(channel: string, message: string): void {
    for (const handler of this.handlers) {
      try {
        handler(channel, message);
      } catch (err) {
        this.log.error({ err, channel }, 'bus message handler failed');
      }
    }
  }

  /**
   * A connection stays 'ready' while Redis is frozen or cut off without a reset: only an answer
   * proves it is there. Without one within COMMAND_TIMEOUT_MS twice in a row, both connections
   * are dropped, so the bus is down (health says so, commands fail at once instead of waiting out
   * their timeout) until Redis answers again, and then comes back as after any outage
   * (reconnect handlers).
   */
  private async ping(): Promise<void> {
    if (this.pinging || this.redis.status !== 'ready') return;
    this.pinging = true;
    try {
      await this.redis.ping().catch(() => {
        // An event loop stalled past the timeout fails a PING whose answer had already come (the
        // timer runs before the socket is read): one more before calling Redis gone.
        if (this.redis.status === 'ready') return this.redis.ping();
        return undefined;
      });
    } catch (err) {
      if (this.redis.status !== 'ready') return;
      this.log.warn({ err: err instanceof Error ? err.message : String(err) }, `redis did not answer a PING within ${COMMAND_TIMEOUT_MS} ms: reconnecting`);
      // destroy(), not end(): a frozen peer never finishes a graceful close.
      for (const connection of [this.redis, this.subscriber]) connection.stream?.destroy();
    } finally {
      this.pinging = false;
    }
  }

  private changed(): void {
    const up = this.state === 'up';
    if (up === this.wasUp) return;
    this.wasUp = up;
    if (!up) {
      this.lostSinceUp = true;
      this.log.warn('cluster bus down: serving local clients only until Redis is back');
      return;
    }
    // The first time up: nothing was lost unless this node already served (and dropped) news
    // before Redis first answered (a node started during an outage).
    if (!this.lostSinceUp && this.dropped === 0) return;
    // ioredis says ready before its SUBSCRIBEs again are answered; a PING on the same connection
    // is answered after them, so from then on nothing published elsewhere misses this node, and
    // the clients told to catch up (ClusterPublisher.resync) find everything in the database or
    // on their topics.
    this.subscriber.ping().then(
      () => {
        if (this.state !== 'up') return; // down again: this runs at the next comeback
        this.log.info('cluster bus back');
        for (const handler of this.reconnectHandlers) {
          try {
            handler();
          } catch (err) {
            this.log.error({ err }, 'bus reconnect handler failed');
          }
        }
      },
      (err: unknown) => this.failed('ping after the comeback', err),
    );
  }

  private failed(what: string, err: unknown): void {
    this.log.warn({ err: err instanceof Error ? err.message : String(err) }, `redis ${what} failed`);
  }
}
