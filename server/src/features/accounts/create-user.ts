// Creating a verified user: shared by sign-up, OAuth, the admin CLI and test support, so all
// of them apply the same rules.
import { isValidEmail, isValidName, normalizeEmail, normalizeName } from '@common/rules';
import { hashPassword } from './passwords';
import type { User, UsersRepository } from './users-repository';

export class InvalidAccountInputError extends Error {}

export interface NewAccount {
  email: string;
  name: string;
  password: string;
}

/** Throws InvalidAccountInputError for a bad address, name or empty password; DuplicateEmailError when taken. */
export async function createVerifiedUser(users: UsersRepository, account: NewAccount): Promise<User> {
  const email = normalizeEmail(account.email);
  const name = normalizeName(account.name);
  if (!isValidEmail(email)) throw new InvalidAccountInputError(`invalid e-mail address: "${account.email}"`);
  if (!isValidName(account.name)) {
    throw new InvalidAccountInputError(`invalid name: "${account.name}" (letters, spaces and - . ' only, starting with a letter or - . ', 1 to 100 characters)`);
  }
  if (account.password.length === 0) throw new InvalidAccountInputError('the password must not be empty');
  const passwordHash = await hashPassword(account.password);
  const id = await users.insert({ email, name, passwordHash });
  return { id, email, name, passwordHash };
}
