// The blocks table (docs/protocol.md, blocks): one-sided rows (user → blocked). People's REST
// writes it; chat and calls read it (through chat-deps' BlockLookup and the calls' port) to keep
// the blocked person's messages and calls from the one who blocked them.
import type { BlockedUser } from '@common/api';
import type { Knex } from '../../db/knex';

interface Row { id: number; name: string; photo_version: string | null }

export class BlocksRepository {
  constructor(private readonly db: Knex) {}

  /** The people the user blocked, by name. */
  async list(userId: number): Promise<BlockedUser[]> {
    const rows = await this.db('blocks as b')
      .join('users as u', 'u.id', 'b.blocked_id')
      .select<Row[]>('u.id', 'u.name', 'u.photo_version')
      .where('b.user_id', userId)
      .orderBy([{ column: 'u.name' }, { column: 'u.id' }]);
    return rows.map((r) => ({ userId: Number(r.id), name: r.name, photoVersion: r.photo_version ?? null }));
  }

  /**
   * Blocks the person (again is once) and, in the same transaction, removes them from the
   * blocker's friends. Answers whether the block is new.
   */
  async put(userId: number, blockedId: number, nowMs: number): Promise<boolean> {
    return this.db.transaction(async (trx) => {
      const existing = await trx('blocks').where({ user_id: userId, blocked_id: blockedId }).first<{ user_id: number } | undefined>('user_id');
      if (!existing) await trx('blocks').insert({ user_id: userId, blocked_id: blockedId, created_at_ms: nowMs }).onConflict(['user_id', 'blocked_id']).ignore();
      await trx('friends').where({ user_id: userId, friend_id: blockedId }).del();
      return !existing;
    });
  }

  /** Unblocks; whether they were blocked. */
  async remove(userId: number, blockedId: number): Promise<boolean> {
    return (await this.db('blocks').where({ user_id: userId, blocked_id: blockedId }).del()) > 0;
  }

  /** Whom the user blocked. */
  async blockedBy(userId: number): Promise<Set<number>> {
    const rows = await this.db('blocks').select<Array<{ blocked_id: number }>>('blocked_id').where('user_id', userId);
    return new Set(rows.map((r) => Number(r.blocked_id)));
  }

  /** Who blocked the user. */
  async blockersOf(userId: number): Promise<Set<number>> {
    const rows = await this.db('blocks').select<Array<{ user_id: number }>>('user_id').where('blocked_id', userId);
    return new Set(rows.map((r) => Number(r.user_id)));
  }

  /** Whether `userId` blocked `otherId`. */
  async blocks(userId: number, otherId: number): Promise<boolean> {
    return (await this.db('blocks').where({ user_id: userId, blocked_id: otherId }).first<{ user_id: number } | undefined>('user_id')) !== undefined;
  }

  /** Among these users, who blocked whom. */
  async among(userIds: readonly number[]): Promise<Array<{ userId: number; blockedId: number }>> {
    if (userIds.length < 2) return [];
    const rows = await this.db('blocks')
      .select<Array<{ user_id: number; blocked_id: number }>>('user_id', 'blocked_id')
      .whereIn('user_id', userIds)
      .whereIn('blocked_id', userIds);
    return rows.map((r) => ({ userId: Number(r.user_id), blockedId: Number(r.blocked_id) }));
  }
}
