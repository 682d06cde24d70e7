// Account rules: logging in (with the per-address failure limit), sessions, profile reads and
// updates. Routes decode input and call exactly one of these.
import { isValidName, normalizeEmail, normalizeName } from '../../../../common/rules';
import { InvalidError, RateLimitedError, UnauthenticatedError } from '../errors';
import type { Publisher } from '../../stomp/api';
import type { Clock } from '../types';
import type { LoginFailuresRepository } from './login-failures-repository';
import { hashPassword, verifyAgainstDummy, verifyPassword } from './passwords';
import { retryAfterMs, retryAfterSeconds, type RateWindow } from './rate-window';
import type { NewSession, Sessions } from './sessions';
import type { User, UsersRepository } from './users-repository';

export const LOGIN_FAILURE_WINDOW: RateWindow = { limit: 10, windowMs: 15 * 60 * 1000 };
const LOGIN_MISMATCH = 'email or password does not match';

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

  async login(rawEmail: string, password: string): Promise<LoggedIn> {
    const email = normalizeEmail(rawEmail);
    const now = this.clock();
    const since = now - LOGIN_FAILURE_WINDOW.windowMs;
    // Record the attempt as a failure before the slow password check, then count only the
    // attempts recorded before it: parallel guesses count each other, so at most `limit` of them
    // are checked, and those stay recorded (as failures) to hold the refusal for later ones.
    const attempt = await this.failures.record(email, now);
    const wait = retryAfterMs(await this.failures.timesBefore(email, since, attempt), LOGIN_FAILURE_WINDOW, now);
    if (wait > 0) {
      await this.failures.forget(attempt);
      throw new RateLimitedError(retryAfterSeconds(wait), 'too many failed logins for this address');
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

  async profile(userId: number): Promise<User> {
    const user = await this.users.findById(userId);
    // The session outlived its user (deleted by an operator): treat as signed out.
    if (!user) throw new UnauthenticatedError();
    return user;
  }

  /**
   * Sets name and password. 'name' (and no change) when the name is the current one and the
   * password is the current password: there is nothing to update.
   */
  async updateInfo(userId: number, rawName: string, password: string): Promise<'success' | 'name'> {
    if (!isValidName(rawName)) throw new InvalidError('invalid name', 'invalid_name');
    const name = normalizeName(rawName);
    if (password.length === 0) throw new InvalidError('the password must not be empty', 'empty_password');
    const user = await this.profile(userId);
    if (user.name === name && user.passwordHash && (await verifyPassword(user.passwordHash, password))) return 'name';
    await this.users.update(userId, { name, passwordHash: await hashPassword(password) });
    return 'success';
  }
}

