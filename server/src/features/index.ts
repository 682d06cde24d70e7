// The features of the server, assembled. Each feature folder exports one factory that takes
// the shared dependencies and returns its REST routes and STOMP handlers; this is the only
// file that lists them.
import type { Config } from '../config';
import type { Knex } from '../db/knex';
import type { Logger } from '../log';
import type { Publisher, StompFeature } from '../stomp/api';
import type { Route, SessionAuthenticator } from '../transport/http';

/** Milliseconds since the epoch; injected so tests can move time. */
export type Clock = () => number;

export interface Deps {
  config: Config;
  db: Knex;
  log: Logger;
  clock: Clock;
  publisher: Publisher;
}

export interface ServerFeature {
  routes?: Route[];
  stomp?: StompFeature;
  stop?(): Promise<void>;
}

export interface Features {
  authenticator: SessionAuthenticator;
  list: ServerFeature[];
}

export function createFeatures(deps: Deps): Features {
  void deps;
  // Until the accounts feature lands nobody can sign in.
  const authenticator: SessionAuthenticator = { authenticate: async () => null };
  return { authenticator, list: [] };
}
