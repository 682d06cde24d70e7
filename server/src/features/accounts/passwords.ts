// Password hashing: argon2id with the OWASP minimum parameters (19 MiB, 2 passes, 1 lane).
import { hash, verify, type Algorithm } from '@node-rs/argon2';

const ARGON2ID = 2 as Algorithm; // Algorithm.Argon2id; the enum is const, so tsx cannot inline it

/** Long enough for any password manager, short enough to bound the hashing work per request. */
export const MAX_PASSWORD_LENGTH = 1024;

const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    // A malformed stored hash is a non-match, never a crash.
    return false;
  }
}

let dummyHash: Promise<string> | null = null;

/**
 * Spends the same work as a real check, for unknown addresses and password-less accounts, so
 * response time does not reveal whether an address has an account.
 */
export async function verifyAgainstDummy(password: string): Promise<false> {
  dummyHash ??= hashPassword('dummy password that matches nothing');
  await verifyPassword(await dummyHash, password);
  return false;
}
