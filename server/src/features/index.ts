// The features of the server, assembled. Each feature folder exports one factory that takes
// the shared dependencies and returns its REST routes and STOMP handlers; this is the only
// file that lists them.
import type { Config } from '../config';
import type { Knex } from '../db/knex';
import type { Logger } from '../log';
import type { Publisher, StompFeature } from '../stomp/api';
import type { Route, SessionAuthenticator } from '../transport/http';
import { createAccounts } from './accounts';
import { createCalls } from './calls';
import { createChat } from './rooms/chat-feature';
import { createMailer, type Mailer } from './mail/mailer';
import { createOAuth } from './oauth';

/** Milliseconds since the epoch; injected so tests can move time. */
export type Clock = () => number;

export interface Deps {
  config: Config;
  db: Knex;
  log: Logger;
  clock: Clock;
  publisher: Publisher;
  mailer: Mailer;
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

/** The mailer may be passed in (tests); otherwise it is made from the configuration. */
export function createFeatures(input: Omit<Deps, 'mailer'> & { mailer?: Mailer }): Features {
  const deps: Deps = { ...input, mailer: input.mailer ?? createMailer(input.config, input.log) };
  const accounts = createAccounts(deps);
  const authenticator: SessionAuthenticator = accounts.sessions;
  return { authenticator, list: [accounts.feature, createOAuth(deps, accounts), createCalls(deps), createChat(deps)] };
}
