// Failed login attempts per address (epoch milliseconds), for the login rate limit.
import type { Knex } from '../../db/knex';

export class LoginFailuresRepository {
  constructor(private readonly db: Knex) {}

  async record(email: string, atMs: number): Promise<void> {
    await this.db('login_failures').insert({ email, failed_at_ms: atMs });
  }

  async timesSince(email: string, sinceMs: number): Promise<number[]> {
    const rows = await this.db('login_failures').where({ email }).andWhere('failed_at_ms', '>', sinceMs).select('failed_at_ms');
    return rows.map((r: { failed_at_ms: number | string }) => Number(r.failed_at_ms));
  }

  /** A successful login forgives earlier failures; rows out of the window are pruned too. */
  async clear(email: string, olderThanMs: number): Promise<void> {
    await this.db('login_failures').where({ email }).orWhere('failed_at_ms', '<', olderThanMs).delete();
  }
}
