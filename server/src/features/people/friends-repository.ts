// The friends table (docs/protocol.md, friends): one-sided rows (user → friend) with the
// favourite mark. Friends' names, photos and status are read by joining accounts' users table.
import type { Knex } from '../../db/knex';

export interface FriendRow {
  id: number;
  name: string;
  photoVersion: string | null;
  statusMessage: string | null;
  favourite: boolean;
}

interface Row { id: number; name: string; photo_version: string | null; status_message: string | null; favourite: boolean | number }

export class FriendsRepository {
  constructor(private readonly db: Knex) {}

  /** The user's friends, favourites first, then by name. */
  async list(userId: number): Promise<FriendRow[]> {
    const rows = await this.db('friends as f')
      .join('users as u', 'u.id', 'f.friend_id')
      .select<Row[]>('u.id', 'u.name', 'u.photo_version', 'u.status_message', 'f.favourite')
      .where('f.user_id', userId)
      .orderBy([{ column: 'f.favourite', order: 'desc' }, { column: 'u.name' }, { column: 'u.id' }]);
    return rows.map((r) => ({ id: Number(r.id), name: r.name, photoVersion: r.photo_version ?? null, statusMessage: r.status_message ?? null, favourite: Boolean(r.favourite) }));
  }

  /** Adds the friend (favourite as given, false when new and not given) or changes the mark. */
  async put(userId: number, friendId: number, favourite: boolean | undefined, nowMs: number): Promise<void> {
    const insert = this.db('friends').insert({ user_id: userId, friend_id: friendId, favourite: favourite ?? false, created_at_ms: nowMs }).onConflict(['user_id', 'friend_id']);
    await (favourite === undefined ? insert.ignore() : insert.merge(['favourite']));
  }

  /** Removes the friend; whether they were one. */
  async remove(userId: number, friendId: number): Promise<boolean> {
    return (await this.db('friends').where({ user_id: userId, friend_id: friendId }).del()) > 0;
  }
}
