// The one thing calls read from the database: users' display names (the callee's incoming
// overlay shows the caller's name, and a call to an unknown user is refused).
import type { Knex } from '../../db/knex';

export class CallsRepository {
  constructor(private readonly db: Knex) {}

  /** The names of those of the given users that exist. */
  async names(userIds: number[]): Promise<Map<number, string>> {
    const rows: Array<{ id: number; name: string }> = await this.db('users').select('id', 'name').whereIn('id', userIds);
    return new Map(rows.map((r) => [Number(r.id), r.name]));
  }
}
