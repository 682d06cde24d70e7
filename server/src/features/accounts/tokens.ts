// Random secrets and their stored digests. Only digests reach the database.
import crypto from 'node:crypto';

/** 256 random bits, URL-safe: session tokens, OAuth state, PKCE verifiers. */
export function randomToken(): string {
  return crypto.randomBytes(32).toString('base64url');
}

export function sha256Hex(value: string): string {
  return crypto.createHash('sha256').update(value).digest('hex');
}

export function timingSafeEqualStrings(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && crypto.timingSafeEqual(left, right);
}
