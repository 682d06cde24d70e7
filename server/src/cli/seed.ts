// Bulk creation of test users for QA and load tests: the shared password is hashed once and
// rows go in by batches, so a thousand users take seconds.
import { isValidName } from '@common/rules';
import { InvalidAccountInputError } from '../features/accounts/create-user';
import { hashPassword } from '../features/accounts/passwords';
import type { UsersRepository } from '../features/accounts/users-repository';

export const SEED_EMAIL_DOMAIN = 'example.test';

export interface SeedOptions {
  users: number;
  password: string;
  prefix: string;
}

export interface SeedSummary {
  users: number;
  created: number;
  existing: number;
  firstEmail: string;
  lastEmail: string;
}

export async function seedUsers(repo: UsersRepository, { users, password, prefix }: SeedOptions): Promise<SeedSummary> {
  // Names are "{prefix}{n}"; the name rule allows no digits, so check the prefix alone and the
  // digits are the one exception we make for seeded load-test accounts.
  if (!isValidName(prefix) || /\s/.test(prefix)) throw new InvalidAccountInputError(`invalid prefix: "${prefix}" (letters and - . ' only)`);
  if (password.length === 0) throw new InvalidAccountInputError('the password must not be empty');
  const passwordHash = await hashPassword(password);
  const rows = Array.from({ length: users }, (_, i) => ({
    email: `${prefix}${i + 1}@${SEED_EMAIL_DOMAIN}`.toLowerCase(),
    name: `${prefix}${i + 1}`,
    passwordHash,
  }));
  const created = await repo.insertMany(rows);
  return { users, created, existing: users - created, firstEmail: rows[0].email, lastEmail: rows[rows.length - 1].email };
}
