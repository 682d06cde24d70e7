// Sign-in with Google or Kakao (authorisation code + PKCE S256). Start hands out the
// provider's URL with a one-time state; finish checks that state against the browser's
// cookie, exchanges the code, reads the profile and finds or makes the local account.
import { api, type OAuthProvider } from '@common/api';
import { isValidEmail } from '@common/rules';
import type { Clock } from '../types';
import type { Config, OAuthClientConfig } from '../../config';
import { randomToken, sha256Hex, timingSafeEqualStrings } from '../accounts/tokens';
import { NotConfiguredError, RateLimitedError } from '../errors';
import { DuplicateEmailError, type UsersRepository } from '../accounts/users-repository';
import type { OAuthRepository } from './oauth-repository';
import { codeChallengeS256 } from './pkce';
import { PROFILE_READERS, displayName, type OAuthProfile } from './profiles';
import { exchangeCode, fetchUserInfo } from './provider-client';

export const STATE_TTL_MS = 10 * 60 * 1000;
/**
 * Sign-ins in progress (each a row until used or expired): at most this many from one client
 * address, and in all, so starting logins cannot fill the database.
 */
export const PENDING_LIMITS = { perAddress: 20, total: 50_000 };

const SCOPES: Record<OAuthProvider, string> = {
  google: 'openid email profile',
  kakao: 'account_email profile_nickname',
};

/** A refused sign-in; the reason is logged, the browser only learns which provider failed. */
export class OAuthLoginError extends Error {}

export interface CallbackInput {
  state: string | null;
  /** The state this browser was given at start, from its cookie. */
  cookieState: string | null;
  code: string | null;
  /** Set when the provider itself reports a failure (e.g. the user declined). */
  error: string | null;
}

export class OAuthService {
  constructor(
    private readonly config: Config,
    private readonly repo: OAuthRepository,
    private readonly users: UsersRepository,
    private readonly clock: Clock,
  ) {}

  redirectUri(provider: OAuthProvider): string {
    return this.config.publicUrl + api.oauthCallback(provider);
  }

  private client(provider: OAuthProvider): OAuthClientConfig | null {
    return this.config.oauth[provider];
  }

  /** The provider's authorisation URL and the state the browser must bring back. */
  async start(provider: OAuthProvider, clientAddress: string): Promise<{ url: string; state: string }> {
    const client = this.client(provider);
    if (!client) throw new NotConfiguredError(`${provider} sign-in is not configured on this server`, 'oauth_not_configured');
    const now = this.clock();
    const pending = await this.repo.pendingCounts(clientAddress, now);
    if (pending.fromAddress >= PENDING_LIMITS.perAddress || pending.all >= PENDING_LIMITS.total) {
      throw new RateLimitedError(60, 'too many sign-ins in progress; try again later');
    }
    const state = randomToken();
    const verifier = randomToken();
    await this.repo.savePending(sha256Hex(state), provider, verifier, clientAddress, now + STATE_TTL_MS, now);
    const url = new URL(client.authUrl);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('client_id', client.clientId);
    url.searchParams.set('redirect_uri', this.redirectUri(provider));
    url.searchParams.set('scope', SCOPES[provider]);
    url.searchParams.set('state', state);
    url.searchParams.set('code_challenge', codeChallengeS256(verifier));
    url.searchParams.set('code_challenge_method', 'S256');
    return { url: url.toString(), state };
  }

  /** The signed-in user's id, or OAuthLoginError. */
  async finish(provider: OAuthProvider, input: CallbackInput): Promise<number> {
    const client = this.client(provider);
    if (!client) throw new OAuthLoginError('provider not configured');
    if (!input.state || !input.cookieState || !timingSafeEqualStrings(input.state, input.cookieState)) {
      throw new OAuthLoginError('state missing or not the one given to this browser');
    }
    // Taken even when the provider reports an error, so a state is never usable twice.
    const verifier = await this.repo.takePending(sha256Hex(input.state), provider, this.clock());
    if (!verifier) throw new OAuthLoginError('state unknown, used or expired');
    if (input.error) throw new OAuthLoginError(`provider reported: ${input.error}`);
    if (!input.code) throw new OAuthLoginError('no authorisation code');
    const accessToken = await exchangeCode(client, input.code, verifier, this.redirectUri(provider));
    const profile = PROFILE_READERS[provider](await fetchUserInfo(client, accessToken));
    return this.accountFor(provider, profile);
  }

  private async accountFor(provider: OAuthProvider, profile: OAuthProfile): Promise<number> {
    const linked = await this.repo.userIdFor(provider, profile.subject);
    if (linked !== null) return linked;
    if (!profile.email) throw new OAuthLoginError(`${provider} gave no e-mail address (consent to share it is required)`);
    // Refused like any invalid address (over 100 characters among them): it could never sign in.
    if (!isValidEmail(profile.email)) throw new OAuthLoginError(`${provider} gave an address that is not valid here`);
    // An address the provider has not checked proves nothing. Joining an account on it would
    // hand that account to whoever typed the address into their provider profile; creating one
    // would squat the address and stay linked when the real owner later joins it.
    if (!profile.emailVerified) throw new OAuthLoginError(`${provider} has not verified ${profile.email}`);
    const now = this.clock();
    const existing = await this.users.findByEmail(profile.email);
    if (existing) {
      await this.repo.link(provider, profile.subject, existing.id, now);
      return existing.id;
    }
    try {
      const newUser = { email: profile.email, name: displayName(profile), passwordHash: null };
      return await this.repo.linkNewUser(provider, profile.subject, now, (trx) => this.users.insert(newUser, trx));
    } catch (err) {
      if (err instanceof DuplicateEmailError) throw new OAuthLoginError('the address got an account meanwhile; try again');
      throw err;
    }
  }
}
