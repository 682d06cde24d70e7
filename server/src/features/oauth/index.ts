// The OAuth feature assembled (Google and Kakao sign-in). It signs users in through the
// accounts feature's sessions.
import type { Deps, ServerFeature } from '../types';
import type { AccountsFeature } from '../accounts';
import { OAuthRepository } from './oauth-repository';
import { oauthRoutes } from './oauth-routes';
import { OAuthService } from './oauth-service';

export function createOAuth(deps: Deps, accounts: AccountsFeature): ServerFeature {
  const oauth = new OAuthService(deps.config, new OAuthRepository(deps.db), accounts.users, deps.clock);
  return {
    routes: oauthRoutes({
      oauth,
      accounts: accounts.accounts,
      secureCookies: deps.config.secureCookies,
      log: deps.log.child({ feature: 'oauth' }),
    }),
  };
}
