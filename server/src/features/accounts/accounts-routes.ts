// REST routes of the accounts feature: login, logout, who am I, profile.
import { api, type LoginResponse, type NameAndEmail, type Preferences, type UpdateInfoResponse, type UserIdResponse } from '@common/api';
import { LIMITS } from '@common/rules';
import { SESSION_COOKIE } from '../../transport/cookies';
import { userOf, type Route } from '../../transport/route';
import type { AccountsService } from './accounts-service';
import { MAX_PASSWORD_LENGTH } from './passwords';
import { clearedSessionCookie, sessionCookie } from './session-cookie';
import { InvalidError } from '../errors';
import { objectBody, stringField } from '../request-fields';

export interface AccountsRoutesDeps {
  accounts: AccountsService;
  secureCookies: boolean;
}

export function accountsRoutes({ accounts, secureCookies }: AccountsRoutesDeps): Route[] {
  return [
    {
      method: 'POST',
      path: api.login,
      public: true,
      async handle(ctx) {
        const body = objectBody(ctx.body);
        const email = stringField(body.email, 'email', LIMITS.loginInput);
        const password = stringField(body.password, 'password', MAX_PASSWORD_LENGTH);
        const { user, session } = await accounts.login(email, password, ctx.remoteAddress);
        // A new token at every login: the one this browser held before stops working.
        if (ctx.user) await accounts.endSession(ctx.user.sessionId);
        const json: LoginResponse = { name: user.name, userId: user.id };
        return { json, setCookies: [sessionCookie(session.token, secureCookies)] };
      },
    },
    {
      method: 'POST',
      path: api.logout,
      async handle(ctx) {
        const { sessionId } = userOf(ctx);
        await accounts.endSession(sessionId);
        return { json: { status: 'success' }, setCookies: [clearedSessionCookie(secureCookies)] };
      },
    },
    {
      method: 'GET',
      path: api.userId,
      async handle(ctx) {
        const { userId } = userOf(ctx);
        const user = await accounts.profile(userId);
        const json: UserIdResponse = { userId: user.id };
        // The app asks this on every start: renew the cookie's lifetime as the session's idle
        // limit slides forward.
        const token = ctx.cookies[SESSION_COOKIE];
        return { json, setCookies: token ? [sessionCookie(token, secureCookies)] : [] };
      },
    },
    {
      method: 'GET',
      path: api.nameAndEmail,
      async handle(ctx) {
        const user = await accounts.profile(userOf(ctx).userId);
        const json: NameAndEmail = { name: user.name, email: user.email };
        return { json };
      },
    },
    {
      method: 'PATCH',
      path: api.userInfo,
      async handle(ctx) {
        const body = objectBody(ctx.body);
        const name = stringField(body.name, 'name', LIMITS.name);
        const password = stringField(body.password, 'password', MAX_PASSWORD_LENGTH);
        const currentPassword = body.currentPassword === undefined ? null : stringField(body.currentPassword, 'currentPassword', MAX_PASSWORD_LENGTH);
        const { userId, sessionId } = userOf(ctx);
        const json: UpdateInfoResponse = { status: await accounts.updateInfo(userId, sessionId, name, password, currentPassword, ctx.remoteAddress) };
        return { json };
      },
    },
    {
      method: 'GET',
      path: api.preferences,
      async handle(ctx) {
        const json: Preferences = await accounts.preferences(userOf(ctx).userId);
        return { json };
      },
    },
    {
      method: 'PATCH',
      path: api.preferences,
      async handle(ctx) {
        const body = objectBody(ctx.body);
        if (typeof body.sendTyping !== 'boolean') throw new InvalidError('sendTyping must be true or false');
        const { userId } = userOf(ctx);
        await accounts.setPreferences(userId, { sendTyping: body.sendTyping });
        const json: Preferences = await accounts.preferences(userId);
        return { json };
      },
    },
  ];
}
