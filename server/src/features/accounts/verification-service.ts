// E-mail verification for sign-up: codes, their limits, and sign-up itself, which
// only accepts an address verified here. All state is in the database so any node can answer.
import { LIMITS, isValidEmail, normalizeEmail } from '@common/rules';
import type { Clock } from '../types';
import type { Logger } from '../../log';
import { ConflictError, EmailTakenError, ForbiddenError, InvalidError, RateLimitedError, UpstreamFailedError } from '../errors';
import type { Mailer } from '../mail/mailer';
import { createVerifiedUser, InvalidAccountInputError } from './create-user';
import { retryAfterMs, retryAfterSeconds, type RateWindow } from './rate-window';
import { DuplicateEmailError, type User, type UsersRepository } from './users-repository';
import { codeMatches, generateCode, hashCode, newSalt } from './verification-code';
import { verificationMail } from './verification-mail';
import type { VerificationRepository } from './verification-repository';

export const CODE_TTL_MS = LIMITS.verificationCodeTtlMs;
/** Three codes per address in five minutes; the fourth is refused. */
export const SEND_WINDOW: RateWindow = { limit: 3, windowMs: 5 * 60 * 1000 };
/** Five codes per client address in five minutes, to whatever addresses: no mailing from one client. */
export const CLIENT_SEND_WINDOW: RateWindow = { limit: 5, windowMs: 5 * 60 * 1000 };
export const MAX_WRONG_TRIES = 5;
export const VERIFIED_FOR_MS = 30 * 60 * 1000;

const wrongCode = () => new InvalidError('wrong or expired verification code', 'wrong_code');

export class VerificationService {
  constructor(
    private readonly repo: VerificationRepository,
    private readonly users: UsersRepository,
    private readonly mailer: Mailer,
    private readonly clock: Clock,
    private readonly log: Logger,
  ) {}

  private address(raw: string): string {
    const email = normalizeEmail(raw);
    if (!isValidEmail(email)) throw new InvalidError('invalid e-mail address', 'invalid_email');
    return email;
  }

  async sendCode(rawEmail: string, clientAddress: string): Promise<void> {
    const email = this.address(rawEmail);
    if (await this.users.findByEmail(email)) throw new EmailTakenError();
    const now = this.clock();
    // Record first, then count the others: concurrent requests cannot all slip under the limit.
    const sendId = await this.repo.recordSend(email, clientAddress, now, now - SEND_WINDOW.windowMs);
    const [toAddress, fromClient] = await Promise.all([
      this.repo.sendTimesSince(email, now - SEND_WINDOW.windowMs, sendId),
      this.repo.sendTimesFromAddressSince(clientAddress, now - CLIENT_SEND_WINDOW.windowMs, sendId),
    ]);
    const wait = Math.max(retryAfterMs(toAddress, SEND_WINDOW, now), retryAfterMs(fromClient, CLIENT_SEND_WINDOW, now));
    if (wait > 0) {
      await this.repo.deleteSend(sendId);
      throw new RateLimitedError(retryAfterSeconds(wait), 'too many codes asked for this address; try again later');
    }
    const code = generateCode();
    const stored = { salt: newSalt(), hash: '' };
    stored.hash = hashCode(stored.salt, email, code);
    await this.repo.storeCode(email, stored, now + CODE_TTL_MS);
    try {
      await this.mailer.send(verificationMail(email, code, CODE_TTL_MS / 60_000));
    } catch (err) {
      // A code nobody received must neither work nor count against the address's limit.
      this.log.warn({ err, to: email }, 'verification mail failed');
      await this.repo.clearCode(email, stored.hash);
      await this.repo.deleteSend(sendId);
      throw new UpstreamFailedError('the verification mail could not be sent', 'mail_failed');
    }
  }

  async verifyCode(rawEmail: string, code: string | null): Promise<void> {
    const email = this.address(rawEmail);
    const now = this.clock();
    const tried = await this.repo.spendAttempt(email, now, MAX_WRONG_TRIES);
    if (!tried || code === null || !codeMatches(tried, email, code)) throw wrongCode();
    await this.repo.markVerified(email, tried.hash, now + VERIFIED_FOR_MS);
  }

  async signUp(account: { email: string; name: string; password: string }): Promise<User> {
    const email = this.address(account.email);
    if (!(await this.repo.isVerified(email, this.clock()))) {
      throw new ForbiddenError('verify this e-mail address first', 'email_not_verified');
    }
    let user: User;
    try {
      user = await createVerifiedUser(this.users, { ...account, email });
    } catch (err) {
      if (err instanceof InvalidAccountInputError) throw new InvalidError(err.message, 'invalid_input');
      if (err instanceof DuplicateEmailError) throw new ConflictError('an account with this e-mail already exists', 'email_taken');
      throw err;
    }
    await this.repo.forget(email);
    return user;
  }
}
