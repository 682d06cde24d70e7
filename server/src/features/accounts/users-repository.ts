// The users table. Rows are mapped to domain objects here; nothing else names its columns.
import type { Knex } from '../../db/knex';

export interface User {
  id: number;
  email: string;
  name: string;
  /** Null for accounts that only sign in through Google or Kakao. Never leaves the server. */
  passwordHash: string | null;
}

interface UserRow {
  id: number;
  email: string;
  name: string;
  password_hash: string | null;
}

export interface NewUser {
  email: string;
  name: string;
  passwordHash: string | null;
}

export class DuplicateEmailError extends Error {
  constructor(email: string) {
    super(`an account with the e-mail ${email} already exists`);
  }
}

const toUser = (row: UserRow): User => ({ id: Number(row.id), email: row.email, name: row.name, passwordHash: row.password_hash });

/** Unique-key violations of both engines. */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: string }).code;
  return code === 'ER_DUP_ENTRY' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

export class UsersRepository {
  constructor(private readonly db: Knex) {}

  async findByEmail(email: string): Promise<User | null> {
    const row = await this.db<UserRow>('users').where({ email }).first();
    return row ? toUser(row) : null;
  }

  async findById(id: number): Promise<User | null> {
    const row = await this.db<UserRow>('users').where({ id }).first();
    return row ? toUser(row) : null;
  }

  /** Inserts one user; DuplicateEmailError when the address is taken. */
  async insert(user: NewUser, trx: Knex = this.db): Promise<number> {
    try {
      // Both engines answer [insert id] without a RETURNING clause.
      const [id] = await trx('users').insert({ email: user.email, name: user.name, password_hash: user.passwordHash });
      return Number(id);
    } catch (err) {
      if (isUniqueViolation(err)) throw new DuplicateEmailError(user.email);
      throw err;
    }
  }

  /** Inserts many users in batches, skipping addresses that already exist; returns how many were new. */
  async insertMany(users: NewUser[], batchSize = 500): Promise<number> {
    let created = 0;
    for (let i = 0; i < users.length; i += batchSize) {
      const batch = users.slice(i, i + batchSize);
      const existing = new Set(
        (await this.db<UserRow>('users').whereIn('email', batch.map((u) => u.email)).select('email')).map((r) => r.email),
      );
      const fresh = batch.filter((u) => !existing.has(u.email));
      if (fresh.length === 0) continue;
      await this.db('users')
        .insert(fresh.map((u) => ({ email: u.email, name: u.name, password_hash: u.passwordHash })))
        .onConflict('email')
        .ignore();
      created += fresh.length;
    }
    return created;
  }

  async update(id: number, fields: { name: string; passwordHash: string }): Promise<void> {
    await this.db('users').where({ id }).update({ name: fields.name, password_hash: fields.passwordHash, updated_at: this.db.fn.now() });
  }
}
