// The accounts feature assembled: repositories, session authenticator, service and routes.
import type { Deps, ServerFeature } from '../types';
import { AccountsService } from './accounts-service';
import { accountsRoutes } from './accounts-routes';
import { LoginFailuresRepository } from './login-failures-repository';
import { SessionCache } from './session-cache';
import { Sessions } from './sessions';
import { SessionsRepository } from './sessions-repository';
import { UsersRepository } from './users-repository';
import { VerificationRepository } from './verification-repository';
import { verificationRoutes } from './verification-routes';
import { VerificationService } from './verification-service';

export interface AccountsFeature {
  feature: ServerFeature;
  sessions: Sessions;
  accounts: AccountsService;
  users: UsersRepository;
}

/** The cluster signal that a login session ended (its data: the session id). */
const SESSION_ENDED = 'accounts.session-ended';

export function createAccounts(deps: Deps): AccountsFeature {
  const users = new UsersRepository(deps.db);
  const { signals } = deps.cluster;
  const sessions = new Sessions(new SessionsRepository(deps.db), deps.clock, new SessionCache(undefined, deps.config.sessionCacheTtlMs), (id) => signals.broadcast(SESSION_ENDED, id));
  signals.onSignal(SESSION_ENDED, (id) => sessions.forgetCached(id));
  signals.onLost(() => sessions.forgetAllCached());
  const accounts = new AccountsService(users, sessions, new LoginFailuresRepository(deps.db), deps.clock, deps.publisher);
  const routes = accountsRoutes({ accounts, secureCookies: deps.config.secureCookies });
  const verification = new VerificationService(new VerificationRepository(deps.db), users, deps.mailer, deps.clock, deps.log.child({ feature: 'accounts' }));
  return { feature: { routes: [...routes, ...verificationRoutes(verification)] }, sessions, accounts, users };
}
