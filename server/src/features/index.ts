// The features of the server, assembled. Each feature folder exports one factory that takes
// the shared dependencies and returns its REST routes and STOMP handlers; this is the only
// file that lists them, and where every route and handler gets its edge (edges.ts).
import type { StompFeature } from '../stomp/api';
import type { SessionAuthenticator } from '../transport/http';
import { createAccounts } from './accounts';
import { createCalls } from './calls';
import { createChat } from './chat';
import { restEdge, stompEdge } from './edges';
import { createMailer, type Mailer } from './mail/mailer';
import { createOAuth } from './oauth';
import type { Deps, ServerFeature } from './types';

export interface Features {
  authenticator: SessionAuthenticator;
  list: ServerFeature[];
}

function withEdges(feature: ServerFeature): ServerFeature {
  const stomp: StompFeature | undefined = feature.stomp && {
    ...feature.stomp,
    handlers: Object.fromEntries(Object.entries(feature.stomp.handlers ?? {}).map(([d, h]) => [d, stompEdge(h)])),
  };
  return { ...feature, routes: feature.routes?.map(restEdge), stomp };
}

/** The mailer may be passed in (tests); otherwise it is made from the configuration. */
export function createFeatures(input: Omit<Deps, 'mailer'> & { mailer?: Mailer }): Features {
  const deps: Deps = { ...input, mailer: input.mailer ?? createMailer(input.config, input.log) };
  const accounts = createAccounts(deps);
  const list = [accounts.feature, createOAuth(deps, accounts), createCalls(deps, accounts.users), createChat(deps, accounts.users)];
  return { authenticator: accounts.sessions, list: list.map(withEdges) };
}
