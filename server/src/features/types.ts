// What every feature is given and what it gives back: a leaf module, so that features and
// the assembly in features/index.ts can share these types without importing each other.
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
}

export interface ServerFeature {
  routes?: Route[];
  stomp?: StompFeature;
  stop?(): Promise<void>;
}
