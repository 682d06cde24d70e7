// GET /api/oauth/{google,kakao}/login → {url}; GET /api/oauth/{provider}/callback → redirect.
import { OAUTH_PROVIDERS, api, type OAuthProvider, type OAuthStartResponse } from '@common/api';
import type { Logger } from '../../log';
import { cookie } from '../../transport/cookies';
import type { RequestContext, Route } from '../../transport/route';
import type { AccountsService } from '../accounts/accounts-service';
import { sessionCookie } from '../accounts/session-cookie';
import { STATE_TTL_MS, type OAuthService } from './oauth-service';

export const STATE_COOKIE = 'oauth_state';

export interface OAuthRoutesDeps {
  oauth: OAuthService;
  accounts: AccountsService;
  secureCookies: boolean;
  log: Logger;
}

/** Where the client shows '구글 로그인 에러' or '카카오 로그인 에러'. */
export const failureLocation = (provider: OAuthProvider) => `/login?oauthError=${provider}`;
export const SUCCESS_LOCATION = '/chat-list';

function param(ctx: RequestContext, key: string): string | null {
  const value = ctx.query.get(key);
  return value && value.length <= 2048 ? value : null;
}

export function oauthRoutes({ oauth, accounts, secureCookies, log }: OAuthRoutesDeps): Route[] {
  // Sent only to that provider's callback, and only for the life of a pending login.
  const stateCookie = (provider: OAuthProvider, value: string, maxAgeMs: number) =>
    cookie(STATE_COOKIE, value, { secure: secureCookies, path: api.oauthCallback(provider), maxAge: Math.floor(maxAgeMs / 1000) });

  return OAUTH_PROVIDERS.flatMap((provider): Route[] => [
    {
      method: 'GET',
      path: api.oauthLogin(provider),
      public: true,
      async handle(ctx) {
        const { url, state } = await oauth.start(provider, ctx.remoteAddress);
        const json: OAuthStartResponse = { url };
        return { json, setCookies: [stateCookie(provider, state, STATE_TTL_MS)] };
      },
    },
    {
      method: 'GET',
      path: api.oauthCallback(provider),
      public: true,
      async handle(ctx) {
        const clearState = stateCookie(provider, '', 0);
        let userId: number;
        try {
          userId = await oauth.finish(provider, {
            state: param(ctx, 'state'),
            cookieState: ctx.cookies[STATE_COOKIE] ?? null,
            code: param(ctx, 'code'),
            error: param(ctx, 'error'),
          });
        } catch (err) {
          log.warn({ err, provider }, 'OAuth sign-in failed');
          return { redirect: failureLocation(provider), setCookies: [clearState] };
        }
        const session = await accounts.startSession(userId);
        // Same rotation as a password login: the browser's previous session ends.
        if (ctx.user) await accounts.endSession(ctx.user.sessionId);
        return { redirect: SUCCESS_LOCATION, setCookies: [clearState, sessionCookie(session.token, secureCookies)] };
      },
    },
  ]);
}
