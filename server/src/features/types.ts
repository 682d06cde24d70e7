// What every feature is given and what it gives back: a leaf module, so that features and
// the assembly in features/index.ts can share these types without importing each other.
import type { Redis } from 'ioredis';
import type { Presence } from '../cluster/presence';
import type { Signals } from '../cluster/signals';
import type { Throttle } from '../cluster/throttle';
import type { Config } from '../config';
import type { Knex } from '../db/knex';
import type { Logger } from '../log';
import type { Metrics } from '../observability/metrics';
import type { Publisher, StompFeature } from '../stomp/api';
import type { Route } from '../transport/http';
import type { Mailer } from './mail/mailer';

/** Milliseconds since the epoch; injected so tests can move time. */
export type Clock = () => number;

export interface Deps {
  config: Config;
  db: Knex;
  log: Logger;
  clock: Clock;
  publisher: Publisher;
  mailer: Mailer;
  metrics: Metrics;
  cluster: ClusterDeps;
}

/** What features need to work across nodes; one process alone has no Redis and local signals. */
export interface ClusterDeps {
  signals: Signals;
  /** Whether a user is connected to any node. */
  presence: Presence;
  /** "At most once per interval" across nodes (typing). */
  throttle: Throttle;
  /** Shared state (call state, presence) lives here when set; in this process's memory otherwise. */
  redis: Redis | null;
  nodeId: string;
}

export interface ServerFeature {
  routes?: Route[];
  stomp?: StompFeature;
  stop?(): Promise<void>;
}
