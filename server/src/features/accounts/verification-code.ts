// Verification codes: six digits from a CSPRNG, stored only as a salted SHA-256 digest.
import crypto from 'node:crypto';
import { timingSafeEqualStrings } from './tokens';

export const CODE_DIGITS = 6;

export function generateCode(): string {
  return String(crypto.randomInt(0, 10 ** CODE_DIGITS)).padStart(CODE_DIGITS, '0');
}

export function newSalt(): string {
  return crypto.randomBytes(16).toString('hex');
}

/** Bound to the address too, so a digest copied to another row matches nothing. */
export function hashCode(salt: string, email: string, code: string): string {
  return crypto.createHash('sha256').update(`${salt}:${email}:${code}`).digest('hex');
}

export function codeMatches(stored: { salt: string; hash: string }, email: string, code: string): boolean {
  return timingSafeEqualStrings(hashCode(stored.salt, email, code), stored.hash);
}

/**
 * The code as sent by a client: docs/spec.md §3 makes it a number, so leading zeros may be lost
 * (012345 arrives as 12345); a string must be exactly six digits. Null when unusable.
 */
export function parseCode(value: unknown): string | null {
  if (typeof value === 'number') {
    return Number.isInteger(value) && value >= 0 && value < 10 ** CODE_DIGITS ? String(value).padStart(CODE_DIGITS, '0') : null;
  }
  if (typeof value === 'string') {
    const trimmed = value.trim();
    return /^\d{6}$/.test(trimmed) ? trimmed : null;
  }
  return null;
}
