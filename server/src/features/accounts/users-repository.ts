// The users table, its only reader and writer. Rows are mapped to domain objects here; nothing
// else names its columns.
import { isDuplicateKey } from '../../db/errors';
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
  /** 0 or 1 on SQLite. */
  send_typing: boolean | number;
  photo_version: string | null;
  status_message: string | null;
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

const toPublicUser = (r: Pick<UserRow, 'id' | 'name' | 'email' | 'photo_version' | 'status_message'>): PublicUser => ({
  id: Number(r.id), name: r.name, email: r.email, photoVersion: r.photo_version ?? null, statusMessage: r.status_message ?? null,
});

const toUser = (row: UserRow): User => ({ id: Number(row.id), email: row.email, name: row.name, passwordHash: row.password_hash });

/** What the user chose in the settings (ours): whether others see them typing. */
export interface UserPreferences {
  sendTyping: boolean;
}

/** What other users may see of a user: no password hash. */
export interface PublicUser {
  id: number;
  name: string;
  email: string;
  /** Changes with every profile photo; null when none (docs/protocol.md, profiles). */
  photoVersion: string | null;
  statusMessage: string | null;
}

/** The keyword with LIKE's % and _ (and the escape '!') matched literally (ESCAPE '!'). */
function literal(keyword: string): string {
  return keyword.replace(/[!%_]/g, '!$&');
}

/** LIKE pattern for "contains", with % and _ in the keyword matched literally (ESCAPE '!'). */
export function containsPattern(keyword: string): string {
  return `%${literal(keyword)}%`;
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

  /**
   * Users whose name contains the keyword (literally, case-insensitively), or whose e-mail
   * address is the keyword or has it as its whole local part: a fragment such as "@" or a
   * domain does not list the directory.
   */
  async search(keyword: string, limit: number): Promise<PublicUser[]> {
    const email = keyword.toLowerCase();
    const rows = await this.db<UserRow>('users')
      .select('id', 'name', 'email', 'photo_version', 'status_message')
      .where((q) =>
        q
          .whereRaw("name like ? escape '!'", [containsPattern(keyword)])
          .orWhere('email', email)
          .orWhereRaw("email like ? escape '!'", [`${literal(email)}@%`]),
      )
      .orderBy('id')
      .limit(limit);
    return rows.map(toPublicUser);
  }

  /** What others may see of the user; null when there is no such user. */
  async publicUser(id: number): Promise<PublicUser | null> {
    const row = await this.db<UserRow>('users').select('id', 'name', 'email', 'photo_version', 'status_message').where({ id }).first();
    return row ? toPublicUser(row) : null;
  }

  /**
   * Sets the photo's version, in the transaction that stores (or removes, null) the photo's
   * bytes (people/photos-repository.ts), so the two never disagree.
   */
  async setPhotoVersion(id: number, version: string | null, trx: Knex = this.db): Promise<void> {
    await trx('users').where({ id }).update({ photo_version: version, updated_at: trx.fn.now() });
  }

  /** Sets (or clears, null) the user's status message. */
  async setStatusMessage(id: number, statusMessage: string | null): Promise<void> {
    await this.db('users').where({ id }).update({ status_message: statusMessage, updated_at: this.db.fn.now() });
  }

  /** The names of those of the given users that exist. */
  async names(ids: number[]): Promise<Map<number, string>> {
    const rows = await this.db<UserRow>('users').select('id', 'name').whereIn('id', ids);
    return new Map(rows.map((r) => [Number(r.id), r.name]));
  }

  /** Inserts one user; DuplicateEmailError when the address is taken. */
  async insert(user: NewUser, trx: Knex = this.db): Promise<number> {
    try {
      // Both engines answer [insert id] without a RETURNING clause.
      const [id] = await trx('users').insert({ email: user.email, name: user.name, password_hash: user.passwordHash });
      return Number(id);
    } catch (err) {
      if (isDuplicateKey(err)) throw new DuplicateEmailError(user.email);
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

  /** The user's preferences; null when there is no such user. */
  async preferences(id: number): Promise<UserPreferences | null> {
    const row = await this.db<UserRow>('users').select('send_typing').where({ id }).first();
    return row ? { sendTyping: Boolean(row.send_typing) } : null;
  }

  async setPreferences(id: number, preferences: UserPreferences): Promise<void> {
    await this.db('users').where({ id }).update({ send_typing: preferences.sendTyping, updated_at: this.db.fn.now() });
  }
}
