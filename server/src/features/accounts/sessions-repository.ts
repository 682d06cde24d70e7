// The sessions table: token digests, owners and last use (epoch milliseconds).
import type { Knex } from '../../db/knex';

export interface StoredSession {
  id: number;
  userId: number;
  lastSeenAtMs: number;
}

interface SessionRow {
  id: number;
  token_hash: string;
  user_id: number;
  last_seen_at_ms: number | string;
}

export class SessionsRepository {
  constructor(private readonly db: Knex) {}

  async insert(tokenHash: string, userId: number, nowMs: number): Promise<number> {
    const [id] = await this.db('sessions').insert({ token_hash: tokenHash, user_id: userId, created_at_ms: nowMs, last_seen_at_ms: nowMs });
    return Number(id);
  }

  async findByTokenHash(tokenHash: string): Promise<StoredSession | null> {
    const row = await this.db<SessionRow>('sessions').where({ token_hash: tokenHash }).first('id', 'user_id', 'last_seen_at_ms');
    return row ? { id: Number(row.id), userId: Number(row.user_id), lastSeenAtMs: Number(row.last_seen_at_ms) } : null;
  }

  async touch(id: number, nowMs: number): Promise<void> {
    await this.db('sessions').where({ id }).update({ last_seen_at_ms: nowMs });
  }

  async delete(id: number): Promise<void> {
    await this.db('sessions').where({ id }).delete();
  }

  /** Ids of the user's sessions but one. */
  async idsOfUserExcept(userId: number, exceptId: number): Promise<number[]> {
    const rows = await this.db<SessionRow>('sessions').where({ user_id: userId }).andWhereNot({ id: exceptId }).select('id');
    return rows.map((r) => Number(r.id));
  }

  /** Removes the user's sessions idle since before the cutoff (they can never be used again). */
  async deleteIdleOf(userId: number, cutoffMs: number): Promise<void> {
    await this.db('sessions').where({ user_id: userId }).andWhere('last_seen_at_ms', '<', cutoffMs).delete();
  }
}
