// Login attempts (epoch milliseconds) by e-mail address and by the client address they came
// from, for the login rate limits. An attempt is recorded before its password is checked and
// deleted if it succeeds or is refused, so the rows are the failures plus the attempts still
// being checked.
import type { Knex } from '../../db/knex';

export class LoginFailuresRepository {
  constructor(private readonly db: Knex) {}

  /** Records an attempt about to be checked; returns its id, ordered after every earlier one. */
  async record(email: string, clientAddress: string, atMs: number): Promise<number> {
    const [id] = await this.db('login_failures').insert({ email, client_address: clientAddress, failed_at_ms: atMs });
    return Number(id);
  }

  /** Times of the e-mail address's attempts since `sinceMs` recorded before attempt `id`. */
  timesBefore(email: string, sinceMs: number, id: number): Promise<number[]> {
    return this.times({ email }, sinceMs, id);
  }

  /** Times of the attempts from a client address (on any account) since `sinceMs`, before attempt `id`. */
  timesFromAddressBefore(clientAddress: string, sinceMs: number, id: number): Promise<number[]> {
    return this.times({ client_address: clientAddress }, sinceMs, id);
  }

  private async times(where: Record<string, string>, sinceMs: number, id: number): Promise<number[]> {
    const rows = await this.db('login_failures')
      .where(where)
      .andWhere('failed_at_ms', '>', sinceMs)
      .andWhere('id', '<', id)
      .select('failed_at_ms');
    return rows.map((r: { failed_at_ms: number | string }) => Number(r.failed_at_ms));
  }

  /** Forgets one attempt: it was refused unchecked, so it is no failure. */
  async forget(id: number): Promise<void> {
    await this.db('login_failures').where({ id }).delete();
  }

  /** A successful login forgives earlier failures; rows out of the window are pruned too. */
  async clear(email: string, olderThanMs: number): Promise<void> {
    await this.db('login_failures').where({ email }).orWhere('failed_at_ms', '<', olderThanMs).delete();
  }
}
