// Account rules: logging in (with the per-address failure limit), sessions, profile reads and
// updates. Routes decode input and call exactly one of these.
import { isValidName, normalizeEmail, normalizeName } from '@common/rules';
import { ForbiddenError, InvalidError, RateLimitedError, UnauthenticatedError } from '../errors';
import type { Publisher } from '../../stomp/api';
import type { Clock } from '../types';
import type { LoginFailuresRepository } from './login-failures-repository';
import { hashPassword, verifyAgainstDummy, verifyPassword } from './passwords';
import { retryAfterMs, retryAfterSeconds, type RateWindow } from './rate-window';
import type { NewSession, Sessions } from './sessions';
import type { User, UserPreferences, UsersRepository } from './users-repository';

/** Failed logins an account takes in 15 minutes before addresses that failed on it wait. */
export const LOGIN_FAILURE_WINDOW: RateWindow = { limit: 10, windowMs: 15 * 60 * 1000 };
/** Failed logins one client address may make in 15 minutes, whatever the accounts. */
export const ADDRESS_FAILURE_WINDOW: RateWindow = { limit: 30, windowMs: 15 * 60 * 1000 };
const LOGIN_MISMATCH = 'email or password does not match';
const TOO_MANY_FAILURES = 'too many failed logins; try again later';

/**
 * The password checks of a profile update count among the login attempts under this key, one per
 * user: never an e-mail address (no @), so a login neither spends nor forgives them, while the
 * client address they come from shares its budget with logins.
 */
const passwordCheckKey = (userId: number) => `user#${userId}`;

export interface LoggedIn {
  user: User;
  session: NewSession;
}

export class AccountsService {
  constructor(
    private readonly users: UsersRepository,
    private readonly sessions: Sessions,
    private readonly failures: LoginFailuresRepository,
    private readonly clock: Clock,
    /** Closes the WebSockets opened with a login session. */
    private readonly sockets: Pick<Publisher, 'closeAuthSession'>,
  ) {}

  /**
   * Two limits, both in the database so every node counts the same attempts. Per client address,
   * across accounts: credential stuffing from one address meets a 429. Per account: failures
   * slow guessing down, but do not lock the owner out: an address with no recent failures still
   * gets its password checked, so only the addresses that guessed wrong are held back.
   */
  async login(rawEmail: string, password: string, clientAddress: string): Promise<LoggedIn> {
    const email = normalizeEmail(rawEmail);
    const now = this.clock();
    const since = now - LOGIN_FAILURE_WINDOW.windowMs;
    // Record the attempt as a failure before the slow password check, then count only the
    // attempts recorded before it: parallel guesses count each other, so at most `limit` of them
    // are checked, and those stay recorded (as failures) to hold the refusal for later ones.
    const attempt = await this.failures.record(email, clientAddress, now);
    const [forAccount, fromAddress] = await Promise.all([
      this.failures.timesBefore(email, since, attempt),
      this.failures.timesFromAddressBefore(clientAddress, since, attempt),
    ]);
    const addressWait = retryAfterMs(fromAddress, ADDRESS_FAILURE_WINDOW, now);
    const accountWait = fromAddress.length > 0 ? retryAfterMs(forAccount, LOGIN_FAILURE_WINDOW, now) : 0;
    const wait = Math.max(addressWait, accountWait);
    if (wait > 0) {
      await this.failures.forget(attempt);
      throw new RateLimitedError(retryAfterSeconds(wait), TOO_MANY_FAILURES);
    }

    const user = await this.users.findByEmail(email);
    const matches = user?.passwordHash ? await verifyPassword(user.passwordHash, password) : await verifyAgainstDummy(password);
    if (!user || !matches) throw new UnauthenticatedError(LOGIN_MISMATCH);
    // Forgives earlier failures and removes this attempt's own record.
    await this.failures.clear(email, since);
    return { user, session: await this.sessions.create(user.id) };
  }

  /** A session for a user already proven by other means (OAuth). */
  startSession(userId: number): Promise<NewSession> {
    return this.sessions.create(userId);
  }

  /** Ends a login session (logout, or a browser's old session at a new login) and closes its sockets. */
  async endSession(sessionId: string): Promise<void> {
    await this.sessions.destroy(sessionId);
    this.sockets.closeAuthSession(sessionId);
  }

  async preferences(userId: number): Promise<UserPreferences> {
    const preferences = await this.users.preferences(userId);
    if (!preferences) throw new UnauthenticatedError();
    return preferences;
  }

  async setPreferences(userId: number, preferences: UserPreferences): Promise<void> {
    await this.users.setPreferences(userId, preferences);
  }

  async profile(userId: number): Promise<User> {
    const user = await this.users.findById(userId);
    // The session outlived its user (deleted by an operator): treat as signed out.
    if (!user) throw new UnauthenticatedError();
    return user;
  }

  /**
   * Sets name and password. The spec's one password field holds the current password (the name
   * alone changes) or a new one: then the current password must come too, unless the account
   * has none yet (OAuth), and every other login session of the user ends, its sockets closed.
   * 'name' (and no change) when the name is the current one and the password is the current
   * password: there is nothing to update.
   *
   * Either field tells whether a guess is the password (403 or 200), so the checks are limited
   * like logins: per user and per client address, the same 429 (docs/protocol.md, Accounts).
   */
  async updateInfo(userId: number, sessionId: string, rawName: string, password: string, currentPassword: string | null, clientAddress: string): Promise<'success' | 'name'> {
    if (!isValidName(rawName)) throw new InvalidError('invalid name', 'invalid_name');
    const name = normalizeName(rawName);
    if (password.length === 0) throw new InvalidError('the password must not be empty', 'empty_password');
    const user = await this.profile(userId);
    // An account with no password yet (OAuth) has nothing to guess.
    if (user.passwordHash !== null) await this.passwordCheckAllowed(userId, clientAddress);
    const result = await this.checkedUpdate(user, sessionId, name, password, currentPassword);
    // A right password forgives earlier wrong ones, as a login does; a 403 stays counted.
    if (user.passwordHash !== null) await this.failures.clear(passwordCheckKey(userId), this.clock() - LOGIN_FAILURE_WINDOW.windowMs);
    return result;
  }

  /**
   * Records the password check about to be made, or refuses it (429) when the user's, or the
   * address's, recent failures fill their window. Parallel checks count each other, as logins do.
   */
  private async passwordCheckAllowed(userId: number, clientAddress: string): Promise<void> {
    const key = passwordCheckKey(userId);
    const now = this.clock();
    const since = now - LOGIN_FAILURE_WINDOW.windowMs;
    const attempt = await this.failures.record(key, clientAddress, now);
    const [forUser, fromAddress] = await Promise.all([
      this.failures.timesBefore(key, since, attempt),
      this.failures.timesFromAddressBefore(clientAddress, since, attempt),
    ]);
    const wait = Math.max(retryAfterMs(forUser, LOGIN_FAILURE_WINDOW, now), retryAfterMs(fromAddress, ADDRESS_FAILURE_WINDOW, now));
    if (wait > 0) {
      await this.failures.forget(attempt);
      throw new RateLimitedError(retryAfterSeconds(wait), TOO_MANY_FAILURES);
    }
  }

  private async checkedUpdate(user: User, sessionId: string, name: string, password: string, currentPassword: string | null): Promise<'success' | 'name'> {
    const userId = user.id;
    const keepsPassword = user.passwordHash !== null && (await verifyPassword(user.passwordHash, password));
    if (user.name === name && keepsPassword) return 'name';
    if (!keepsPassword && user.passwordHash !== null) {
      if (currentPassword === null) throw new ForbiddenError('changing the password needs the current password', 'current_password_required');
      if (!(await verifyPassword(user.passwordHash, currentPassword))) throw new ForbiddenError('the current password does not match', 'wrong_current_password');
    }
    await this.users.update(userId, { name, passwordHash: keepsPassword ? user.passwordHash! : await hashPassword(password) });
    if (!keepsPassword) {
      for (const other of await this.sessions.othersOf(userId, sessionId)) await this.endSession(other);
    }
    return 'success';
  }
}

