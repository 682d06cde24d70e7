// Message search, the engine: one interface, so each database can get the engine its
// measurements favour (docs/architecture.md, "Searching messages"). Today both use a LIKE scoped
// to the user's rooms: it finds any substring, so one- and two-syllable Korean words are found
// (SQLite's FTS5 trigram needs three characters; MariaDB has no n-gram parser), and deleted
// messages (emptied, deleted_at_ms set) and system messages are never matched.
import type { Knex } from '../../db/knex';

export interface SearchScope {
  userId: number;
  /** Only this room (the caller must be a member: the join checks it). */
  roomId?: number;
  /** Only messages older than this id (the next page). */
  beforeId?: number;
  limit: number;
}

export interface SearchHit {
  roomId: number;
  roomName: string;
  roomRenamed: boolean;
  messageId: number;
  seq: number;
  senderName: string;
  content: string;
  createdAtMs: number;
}

export interface MessageSearchEngine {
  /** The name printed beside measurements. */
  readonly name: string;
  /** Messages of the user's rooms containing `keyword` (already trimmed), newest first. */
  search(keyword: string, scope: SearchScope): Promise<SearchHit[]>;
}

/** `%`, `_` and the escape character itself match literally. '!' is an escape both SQLite and MariaDB read the same way (a backslash is not: MariaDB unescapes it in literals). */
export function likePattern(keyword: string): string {
  return `%${keyword.replace(/[!%_]/g, (c) => `!${c}`)}%`;
}

/**
 * How the user's rooms scope the scan, chosen per database by measurement (bench/message-search.ts):
 * SQLite walks messages newest first by the primary key and checks the rooms as a set (`in`),
 * stopping at the page's end; MariaDB turns that `in` into a slow semi-join and does better
 * joined to the memberships.
 */
export type LikeScope = 'rooms-as-set' | 'joined';

export class ScopedLikeSearch implements MessageSearchEngine {
  readonly name: string;

  constructor(
    private readonly db: Knex,
    private readonly scope: LikeScope = db.client.config.client === 'better-sqlite3' ? 'rooms-as-set' : 'joined',
  ) {
    this.name = `scoped LIKE (${scope})`;
  }

  async search(keyword: string, scope: SearchScope): Promise<SearchHit[]> {
    const q = this.db('messages as m');
    if (this.scope === 'rooms-as-set') q.whereIn('m.room_id', this.db('room_members').select('room_id').where({ user_id: scope.userId }));
    else q.join('room_members as rm', (j) => j.on('rm.room_id', 'm.room_id').andOn('rm.user_id', this.db.raw('?', [scope.userId])));
    q.join('rooms as r', 'r.id', 'm.room_id')
      .join('users as u', 'u.id', 'm.sender_id')
      .select('m.id', 'm.room_id', 'm.seq', 'm.content', 'm.created_at_ms', 'r.name as room_name', 'r.renamed', 'u.name as sender_name')
      .whereNull('m.deleted_at_ms')
      .whereNotNull('m.sender_id')
      // SQLite's LIKE is case-insensitive for ASCII; MariaDB's through the column's _ci collation.
      .whereRaw("m.content like ? escape '!'", [likePattern(keyword)])
      .orderBy('m.id', 'desc')
      .limit(scope.limit);
    if (scope.roomId !== undefined) q.where('m.room_id', scope.roomId);
    if (scope.beforeId !== undefined) q.where('m.id', '<', scope.beforeId);
    const rows = (await q) as Array<{
      id: number; room_id: number; seq: number; content: string; created_at_ms: number | string; room_name: string; renamed: unknown; sender_name: string;
    }>;
    return rows.map((r) => ({
      roomId: Number(r.room_id), roomName: r.room_name, roomRenamed: Boolean(r.renamed), messageId: Number(r.id), seq: Number(r.seq),
      senderName: r.sender_name, content: r.content, createdAtMs: Number(r.created_at_ms),
    }));
  }
}
