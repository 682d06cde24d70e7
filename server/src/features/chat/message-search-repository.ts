// Message search, the engine: one interface, so each database can get the engine its
// measurements favour (docs/architecture.md §6a). Both use the bigram index of our own
// (message_bigrams), which finds one- and two-syllable Korean words (SQLite's FTS5 trigram needs
// three characters; MariaDB has no n-gram parser) in time that does not grow with the messages.
// The scoped LIKE it replaced stays as the baseline the bench measures it against.
import { isSqlite, type Knex } from '../../db/knex';
import { rowsOf } from '../../db/results';
import { keywordGrams } from './message-grams';

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
  senderId: number;
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
    private readonly scope: LikeScope = isSqlite(db) ? 'rooms-as-set' : 'joined',
  ) {
    this.name = `scoped LIKE (${scope})`;
  }

  async search(keyword: string, scope: SearchScope): Promise<SearchHit[]> {
    const q = this.db('messages as m');
    if (this.scope === 'rooms-as-set') q.whereIn('m.room_id', this.db('room_members').select('room_id').where({ user_id: scope.userId }));
    else q.join('room_members as rm', (j) => j.on('rm.room_id', 'm.room_id').andOn('rm.user_id', this.db.raw('?', [scope.userId])));
    q.join('rooms as r', 'r.id', 'm.room_id')
      .join('users as u', 'u.id', 'm.sender_id')
      .select('m.id', 'm.room_id', 'm.seq', 'm.content', 'm.created_at_ms', 'r.name as room_name', 'r.renamed', 'u.name as sender_name', 'm.sender_id')
      .whereNull('m.deleted_at_ms')
      .whereNotNull('m.sender_id')
      // SQLite's LIKE is case-insensitive for ASCII; MariaDB's through the column's _ci collation.
      .whereRaw("m.content like ? escape '!'", [likePattern(keyword)])
      .orderBy('m.id', 'desc')
      .limit(scope.limit);
    if (scope.roomId !== undefined) q.where('m.room_id', scope.roomId);
    if (scope.beforeId !== undefined) q.where('m.id', '<', scope.beforeId);
    return ((await q) as HitRow[]).map(toHit);
  }
}

interface HitRow { id: number; room_id: number; seq: number; content: string; created_at_ms: number | string; room_name: string; renamed: unknown; sender_name: string; sender_id: number }

const toHit = (r: HitRow): SearchHit => ({
  roomId: Number(r.room_id), roomName: r.room_name, roomRenamed: Boolean(r.renamed), messageId: Number(r.id), seq: Number(r.seq),
  senderId: Number(r.sender_id), senderName: r.sender_name, content: r.content, createdAtMs: Number(r.created_at_ms),
});

/**
 * Above this many rooms the per-room lookups are not spelled out one by one (SQLite allows 500
 * terms in a compound SELECT); the rooms are then one set and the database sorts the gram's
 * matches of all of them.
 */
const MAX_ROOMS_APART = 200;

/**
 * Grams a candidate is checked against at most. A long keyword (up to 255 characters) would
 * otherwise spell out a key lookup per bigram for every candidate of every room; it is re-checked
 * with LIKE anyway, so its first grams narrow enough.
 */
const MAX_GRAMS_CHECKED = 8;

/**
 * The bigram index (message_bigrams, written after each message's commit: message-indexer.ts), on
 * both databases, and LIKE over the few messages still waiting for it. For each of the user's rooms, the newest ids holding the keyword's first gram come
 * straight off the primary key (gram, room_id, message_id), `limit` of them, the other grams
 * checked by key lookups; the rooms' lists are merged newest first. One or two characters are
 * exact (a gram is the keyword); longer keywords, and ones with spaces between single
 * characters, are re-checked with LIKE on each candidate. Cost: `limit` index entries per room,
 * whatever the number of messages.
 */
export class BigramSearch implements MessageSearchEngine {
  readonly name = 'bigram index';

  constructor(private readonly db: Knex) {}

  async search(keyword: string, scope: SearchScope): Promise<SearchHit[]> {
    const k = keywordGrams(keyword);
    if (k === null) return [];
    const memberships = this.db('room_members').where({ user_id: scope.userId });
    if (scope.roomId !== undefined) memberships.where({ room_id: scope.roomId });
    const rooms = ((await memberships.pluck('room_id')) as Array<number | string>).map(Number);
    if (rooms.length === 0) return [];
    const [driver, ...others] = k.grams.slice(0, MAX_GRAMS_CHECKED);
    const perRoom = (room: number | 'members'): { sql: string; bindings: Array<string | number> } => {
      const bindings: Array<string | number> = [driver];
      let sql = 'select b.message_id from message_bigrams b';
      if (!k.exact) sql += ' join messages m on m.id = b.message_id';
      sql += ' where b.gram = ?';
      if (room === 'members') {
        sql += ' and b.room_id in (select room_id from room_members where user_id = ?)';
        bindings.push(scope.userId);
      } else {
        sql += ' and b.room_id = ?';
        bindings.push(room);
      }
      if (scope.beforeId !== undefined) {
        sql += ' and b.message_id < ?';
        bindings.push(scope.beforeId);
      }
      for (const gram of others) {
        sql += ' and exists (select 1 from message_bigrams x where x.gram = ? and x.room_id = b.room_id and x.message_id = b.message_id)';
        bindings.push(gram);
      }
      if (!k.exact) {
        // SQLite's LIKE is case-insensitive for ASCII; MariaDB's through the column's _ci collation.
        sql += " and m.content like ? escape '!'";
        bindings.push(likePattern(keyword));
      }
      sql += ' order by b.message_id desc limit ?';
      bindings.push(scope.limit);
      return { sql, bindings };
    };
    // Messages stored a moment ago wait for the index (MessageIndexer): those are read with LIKE.
    // In the same statement as the index, so a message being indexed meanwhile is found once.
    const waiting = (): { sql: string; bindings: Array<string | number> } => {
      const apart = rooms.length <= MAX_ROOMS_APART;
      const bindings: Array<string | number> = apart ? [...rooms] : [scope.userId];
      let sql = `select m.id as message_id from messages m where m.indexed = 0 and m.room_id in (${apart ? rooms.map(() => '?').join(', ') : 'select room_id from room_members where user_id = ?'})`;
      sql += " and m.sender_id is not null and m.deleted_at_ms is null and m.content like ? escape '!'";
      bindings.push(likePattern(keyword));
      if (scope.beforeId !== undefined) {
        sql += ' and m.id < ?';
        bindings.push(scope.beforeId);
      }
      sql += ' order by m.id desc limit ?';
      bindings.push(scope.limit);
      return { sql, bindings };
    };
    const parts = [...(rooms.length > MAX_ROOMS_APART ? [perRoom('members')] : rooms.map(perRoom)), waiting()];
    const union = parts.map((p, i) => `select message_id from (${p.sql}) as t${i}`).join(' union all ');
    // Two statements: joined in one, MariaDB walks all messages by id and probes the union.
    const ids = rowsOf<{ message_id: number | string }>(await this.db.raw(
      `select message_id from (${union}) as h order by message_id desc limit ?`,
      [...parts.flatMap((p) => p.bindings), scope.limit],
    )).map((r) => Number(r.message_id));
    if (ids.length === 0) return [];
    const rows = (await this.db('messages as m')
      .join('rooms as r', 'r.id', 'm.room_id')
      .join('users as u', 'u.id', 'm.sender_id')
      .select('m.id', 'm.room_id', 'm.seq', 'm.content', 'm.created_at_ms', 'r.name as room_name', 'r.renamed', 'u.name as sender_name', 'm.sender_id')
      .whereIn('m.id', ids)
      .whereNull('m.deleted_at_ms')
      .orderBy('m.id', 'desc')) as HitRow[];
    return rows.map(toHit);
  }
}


/** The engine each database uses, chosen by measurement (bench/message-search.ts, docs/architecture.md §6a). */
export function searchEngineFor(db: Knex): MessageSearchEngine {
  return new BigramSearch(db);
}
