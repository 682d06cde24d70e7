// The cluster as the composition root sees it: one process alone (no REDIS_URL) or a node of
// several joined by the Redis bus (docs/architecture.md §9). Which one runs is decided here
// only; the rest of the server gets the same small interface either way.
import type { SharedCallStore } from '../features/calls/call-store';
import type { Logger } from '../log';
import type { Broker, LocalInterest } from '../stomp/broker';
import { LocalBus, type Bus, type BusState } from './bus';
import { busInterest, ClusterPublisher } from './cluster-publisher';
import { LocalPresence, RedisPresence, type Presence } from './presence';
import { RedisBus } from './redis-bus';
import { RedisCallStore } from './redis-call-store';
import { RedisGroupCallStore } from './redis-group-call-store';
import type { GroupCallStore } from '../features/group-calls/group-call-store';
import { LocalThrottle, RedisThrottle, type Throttle } from './throttle';

export interface ClusterNode {
  /** This node's id, unique per process start ('local' alone). */
  readonly nodeId: string;
  /** 'local' alone; 'up' or 'down' as the bus is reachable or not (health, the startup log). */
  readonly state: BusState;
  /** For the broker: what this node's clients listen to, so the bus carries only that here. */
  readonly interest: LocalInterest;
  /** "At most once per interval" across nodes. */
  readonly throttle: Throttle;
  /** Call state every node shares; null alone, where calls live in the process's memory. */
  readonly sharedCallStore: SharedCallStore | null;
  /** Group calls every node sees (made at most once, closed with the node); null alone. */
  readonly sharedGroupCallStore: (() => GroupCallStore) | null;
  /**
   * The node's broker joins the cluster (once): the Publisher and Signals features use, and
   * who is online on any node.
   */
  join(broker: Broker): { publisher: ClusterPublisher; presence: Presence };
  /**
   * Called when the bus comes back after being down (news may have been lost), after the
   * handlers registered before (the features' Signals.onLost).
   */
  onReconnect(handler: () => void): void;
  close(): Promise<void>;
}

export function createCluster(redisUrl: string | null, log: Logger): ClusterNode {
  return redisUrl ? new RedisCluster(new RedisBus(redisUrl, log.child({ component: 'bus' })), log) : new LocalCluster(log);
}

/** What every cluster shape does the same way over its bus. */
abstract class BusCluster {
  constructor(
    protected readonly bus: Bus,
    protected readonly log: Logger,
  ) {}

  get nodeId(): string {
    return this.bus.nodeId;
  }

  get state(): BusState {
    return this.bus.state;
  }

  onReconnect(handler: () => void): void {
    this.bus.onReconnect(handler);
  }

  protected publisherFor(broker: Broker): ClusterPublisher {
    return new ClusterPublisher(broker, this.bus, this.log.child({ component: 'cluster' }));
  }
}

/** One process: nothing to tell anyone, online means connected here. */
class LocalCluster extends BusCluster implements ClusterNode {
  readonly interest = busInterest(this.bus);
  readonly throttle = new LocalThrottle();
  readonly sharedCallStore = null;
  readonly sharedGroupCallStore = null;

  constructor(log: Logger) {
    super(new LocalBus(), log);
  }

  join(broker: Broker): { publisher: ClusterPublisher; presence: Presence } {
    return { publisher: this.publisherFor(broker), presence: new LocalPresence((userId) => broker.connectionCount(userId)) };
  }

  close(): Promise<void> {
    return this.bus.close();
  }
}

/** A node of several: the Redis bus, and presence, throttles and call state kept in Redis. */
class RedisCluster extends BusCluster implements ClusterNode {
  readonly interest: LocalInterest;
  readonly throttle: Throttle;
  readonly sharedCallStore: SharedCallStore;
  readonly sharedGroupCallStore: () => GroupCallStore;
  private readonly presence: RedisPresence;
  private groupCalls: RedisGroupCallStore | null = null;

  constructor(
    protected readonly bus: RedisBus,
    log: Logger,
  ) {
    super(bus, log);
    this.presence = new RedisPresence(bus.redis, bus.nodeId, log.child({ component: 'presence' }));
    const channels = busInterest(bus);
    this.interest = {
      destination: channels.destination,
      user: (userId, connected) => {
        channels.user(userId, connected);
        this.presence.changed(userId, connected);
      },
    };
    this.throttle = new RedisThrottle(bus.redis);
    this.sharedCallStore = (ringTimeoutMs, ports, featureLog) => new RedisCallStore(bus.redis, ringTimeoutMs, ports, featureLog);
    this.sharedGroupCallStore = () => (this.groupCalls ??= new RedisGroupCallStore(bus.redis));
  }

  join(broker: Broker): { publisher: ClusterPublisher; presence: Presence } {
    // Redis may have come back without this node's entries (restarted, or they expired meanwhile).
    this.bus.onReconnect(() => this.presence.renewNow());
    return { publisher: this.publisherFor(broker), presence: this.presence };
  }

  async close(): Promise<void> {
    this.presence.stop();
    this.groupCalls?.close();
    await this.bus.close();
  }
}
