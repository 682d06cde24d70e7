// Rooms and their members (with each member's read marker). Rows are mapped to domain objects
// here; nothing else names these columns. Users are the accounts feature's table: queries here
// join it only to name a room's members.
import { isDuplicateKey } from '../../db/errors';
import type { Knex } from '../../db/knex';

export interface ChatUser {
  id: number;
  name: string;
  email: string;
}

export interface RoomSummary {
  roomId: number;
  roomName: string;
  lastMessage: string | null;
  lastMessageAtMs: number | null;
  lastReadAtMs: number | null;
}

export type NotificationClaim = { claimed: true; previousAtMs: number | null } | { claimed: false; lastAtMs: number };

interface MemberRow { id: number; name: string; email: string }

const toUser = (r: MemberRow): ChatUser => ({ id: Number(r.id), name: r.name, email: r.email });
const msOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

export class RoomsRepository {
  constructor(private readonly db: Knex) {}

  async createRoom(name: string, memberIds: number[], nowMs: number): Promise<number> {
    return this.db.transaction(async (trx) => {
      // Both engines answer [the new auto-increment id] to a plain insert.
      const [inserted] = await trx('rooms').insert({ name, created_at_ms: nowMs });
      const roomId = Number(inserted);
      await trx('room_members').insert(memberIds.map((userId) => ({ room_id: roomId, user_id: userId, joined_at_ms: nowMs })));
      return roomId;
    });
  }

  async roomName(roomId: number): Promise<string | null> {
    const row = await this.db('rooms').select('name').where({ id: roomId }).first();
    return row ? (row.name as string) : null;
  }

  async rename(roomId: number, name: string): Promise<void> {
    await this.db('rooms').where({ id: roomId }).update({ name });
  }

  /** The room's members in the order they joined. */
  async members(roomId: number): Promise<ChatUser[]> {
    const rows: MemberRow[] = await this.db('room_members as rm')
      .join('users as u', 'u.id', 'rm.user_id')
      .select('u.id', 'u.name', 'u.email')
      .where('rm.room_id', roomId)
      .orderBy([{ column: 'rm.joined_at_ms' }, { column: 'u.id' }]);
    return rows.map(toUser);
  }

  async isMember(roomId: number, userId: number): Promise<boolean> {
    const row = await this.db('room_members').select('user_id').where({ room_id: roomId, user_id: userId }).first();
    return row !== undefined;
  }

  /** False when the user already is a member. */
  async addMember(roomId: number, userId: number, nowMs: number): Promise<boolean> {
    try {
      await this.db('room_members').insert({ room_id: roomId, user_id: userId, joined_at_ms: nowMs });
      return true;
    } catch (err) {
      if (isDuplicateKey(err)) return false;
      throw err;
    }
  }

  /**
   * Removes the member; a room left empty is deleted with its messages (cascade). Answers
   * whether the user was a member and whether the room still exists.
   */
  async removeMember(roomId: number, userId: number): Promise<{ removed: boolean; roomDeleted: boolean }> {
    return this.db.transaction(async (trx) => {
      // Leaves of one room take turns: without the lock, under MariaDB's REPEATABLE READ the
      // last two members leaving at once each still see the other and neither deletes the
      // room. (SQLite already runs one writer at a time; knex leaves the clause out there.)
      await trx('rooms').where({ id: roomId }).forUpdate().first('id');
      const removed = (await trx('room_members').where({ room_id: roomId, user_id: userId }).del()) > 0;
      if (!removed) return { removed, roomDeleted: false };
      const left = await trx('room_members').where({ room_id: roomId }).first('user_id');
      if (left) return { removed, roomDeleted: false };
      await trx('messages').where({ room_id: roomId }).del();
      await trx('rooms').where({ id: roomId }).del();
      return { removed, roomDeleted: true };
    });
  }

  /**
   * The user's rooms with their newest message, newest activity first, rooms without messages
   * last: one query, each room's newest message found through the (room_id, id) index.
   */
  async chatList(userId: number): Promise<RoomSummary[]> {
    const rows = await this.db('room_members as rm')
      .join('rooms as r', 'r.id', 'rm.room_id')
      // ORDER BY ... LIMIT 1 reads one index entry; MariaDB scans the whole room for a correlated MAX().
      .leftJoin('messages as m', 'm.id', this.db.raw('(select m2.id from messages m2 where m2.room_id = r.id order by m2.id desc limit 1)'))
      .select('r.id as room_id', 'r.name as room_name', 'm.content', 'm.created_at_ms', 'rm.last_read_at_ms')
      .where('rm.user_id', userId)
      .orderByRaw('case when m.id is null then 1 else 0 end, m.id desc, r.id desc');
    return rows.map((r) => ({
      roomId: Number(r.room_id),
      roomName: r.room_name,
      lastMessage: r.content ?? null,
      lastMessageAtMs: msOrNull(r.created_at_ms),
      lastReadAtMs: msOrNull(r.last_read_at_ms),
    }));
  }

  /** Moves the members' read markers forward to the message, never backwards. */
  async markRead(roomId: number, userIds: number[], messageId: number, atMs: number): Promise<void> {
    if (userIds.length === 0) return;
    await this.db('room_members')
      .where('room_id', roomId)
      .whereIn('user_id', userIds)
      .where((q) => q.whereNull('last_read_message_id').orWhere('last_read_message_id', '<', messageId))
      .update({ last_read_message_id: messageId, last_read_at_ms: atMs });
  }

  /** Marks everything in the room read for the user. */
  async markAllRead(roomId: number, userId: number, atMs: number): Promise<void> {
    const newest = () => this.db('messages').max('id').where('room_id', roomId);
    await this.db('room_members')
      .where({ room_id: roomId, user_id: userId })
      // Only when something newer arrived: re-opening a room already read then writes nothing,
      // so it costs no commit flush. (An empty room is marked once, with no message id.)
      .where((q) => q.whereNull('last_read_message_id').orWhere('last_read_message_id', '<', newest()))
      .update({ last_read_message_id: newest(), last_read_at_ms: atMs });
  }

  /**
   * Takes the room's notification slot when the last one is at least intervalMs old. A
   * compare-and-set on the stored time, so two nodes cannot both take it.
   */
  async claimNotification(roomId: number, nowMs: number, intervalMs: number): Promise<NotificationClaim> {
    const row = await this.db('rooms').select('last_notified_at_ms').where({ id: roomId }).first();
    const lastAtMs = msOrNull(row?.last_notified_at_ms);
    if (lastAtMs !== null && nowMs - lastAtMs < intervalMs) return { claimed: false, lastAtMs };
    const taken = await this.db('rooms')
      .where({ id: roomId })
      .where((q) => (lastAtMs === null ? q.whereNull('last_notified_at_ms') : q.where('last_notified_at_ms', lastAtMs)))
      .update({ last_notified_at_ms: nowMs });
    if (taken === 1) return { claimed: true, previousAtMs: lastAtMs };
    // Another request took the slot between the read and the update.
    return { claimed: false, lastAtMs: nowMs };
  }

  /** Gives the slot back after a failed send, unless a newer notification took it since. */
  async releaseNotification(roomId: number, claimedAtMs: number, previousAtMs: number | null): Promise<void> {
    await this.db('rooms').where({ id: roomId, last_notified_at_ms: claimedAtMs }).update({ last_notified_at_ms: previousAtMs });
  }
}
