// Rooms and their members (with each member's read marker). Rows are mapped to domain objects
// here; nothing else names these columns. Users are the accounts feature's table: queries here
// join it only to name a room's members.
import { isDuplicateKey } from '../../db/errors';
import type { Statement } from '../../db/few-trips';
import { isSqlite, type Knex } from '../../db/knex';
import { changedRows } from '../../db/results';
import { updateFromValues } from '../../db/update-from-values';
import type { AfterCommit, RoomRemoval } from '../types';
import { unindexRoom } from './message-index-repository';

/** Another member of one of a user's rooms. */
export interface Companion { id: number; name: string; photoVersion: string | null }

export interface ChatUser {
  id: number;
  name: string;
  email: string;
  /** Ours, on a room's members (members(), the members cache): the member muted the room, so no Web Push for it. */
  muted?: boolean;
  /** The first seq the member may read (a private past); 0 or 1 for everything. */
  visibleFromSeq?: number;
  /** Ours, on the members cache's lists: whom among the room's members this member blocked. */
  blocks?: number[];
}

/** A member's own settings of a room (docs/protocol.md, PATCH /api/chat-room/settings). */
export interface MemberSettings { muted: boolean; pinned: boolean }

/** A member with their read position: every message up to this seq is read. */
export interface RoomMember extends ChatUser {
  lastReadSeq: number;
  /** When the read position last moved; null if the member never read the room. */
  lastReadAtMs: number | null;
  /** The member's profile (docs/protocol.md, profiles): photo version and status, null when none. */
  photoVersion: string | null;
  statusMessage: string | null;
  /** The first seq the member may read (a private past): 0 or 1 for everything. */
  visibleFromSeq: number;
}

export interface Room {
  name: string;
  /** Someone renamed it: the name is the same for everyone. */
  renamed: boolean;
  /** The seq of the room's newest message; 0 when it has none. */
  lastSeq: number;
  /** Its notice (a message of the room, not deleted), null when none; read by withMembers only. */
  notice?: StoredNotice | null;
}

/** A room's notice as read with the room: the message's text now, who set it and when (and who sent it: kept from whoever blocked them). */
export interface StoredNotice { messageId: number; content: string; setByName: string; setAtMs: number; senderId?: number | null }

export interface RoomSummary {
  roomId: number;
  roomName: string;
  renamed: boolean;
  lastMessage: string | null;
  /** The newest message was deleted for everyone (its content is empty). */
  lastMessageDeleted: boolean;
  lastMessageAtMs: number | null;
  /** Who sent the newest message; null for a system message or none. */
  lastSenderId: number | null;
  /** The newest message's id (the list's order after the pinned rooms); null when none. */
  lastMessageId: number | null;
  lastReadAtMs: number | null;
  lastSeq: number;
  lastReadSeq: number;
  muted: boolean;
  pinned: boolean;
  /** Ours: the user's own memo room (listed first). */
  self?: boolean;
}

/** A room's row with its members, read in one statement (history). */
export interface RoomWithMembers {
  room: Room;
  /** In the order they joined, with their read positions. */
  members: RoomMember[];
}

/** One member's read position to store: forward only. */
export interface ReadPosition { roomId: number; userId: number; seq: number; atMs: number }

/**
 * The statement that moves members' read positions forward to the given seqs (one per member),
 * never back; `stampUnread`: also stamps the time of a position already at its seq but never
 * stamped (a member who read an empty room). Run by markRead, and in the message transaction for
 * its authors.
 */
export function readPositionsForward(sqlite: boolean, positions: readonly ReadPosition[], stampUnread: boolean): Statement {
  return updateFromValues(sqlite, {
    table: 'room_members',
    columns: ['room_id', 'user_id', 'seq', 'at_ms'],
    rows: positions.map((p) => [p.roomId, p.userId, p.seq, p.atMs]),
    key: ['room_id', 'user_id'],
    set: [['last_read_seq', 'seq'], ['last_read_at_ms', 'at_ms']],
    where: `t.last_read_seq < v.seq${stampUnread ? ' or (t.last_read_seq = v.seq and t.last_read_at_ms is null)' : ''}`,
  });
}

export type NotificationClaim = { claimed: true; previousAtMs: number | null } | { claimed: false; lastAtMs: number };

interface RoomRow {
  id: number;
  name: string;
  /** 0 or 1 on SQLite. */
  renamed: boolean | number;
  last_seq: number;
  last_notified_at_ms: number | string | null;
}

interface MemberRow {
  id: number; name: string; email: string; last_read_seq: number; last_read_at_ms: number | string | null;
  photo_version: string | null; status_message: string | null;
  /** 0 or 1 on SQLite. */
  muted: boolean | number;
  visible_from_seq: number;
}

/** What a member's row selects (members, withMembers). */
const MEMBER_COLUMNS = ['u.id', 'u.name', 'u.email', 'u.photo_version', 'u.status_message', 'rm.last_read_seq', 'rm.last_read_at_ms', 'rm.muted', 'rm.visible_from_seq'];

/** A row of the chat list: the room, its newest message (all null without one) and the member's read position. */
interface ChatListRow {
  room_id: number;
  room_name: string;
  renamed: boolean | number;
  last_seq: number;
  content: string | null;
  deleted_at_ms: number | string | null;
  created_at_ms: number | string | null;
  sender_id: number | null;
  message_id: number | null;
  last_read_at_ms: number | string | null;
  last_read_seq: number;
  muted: boolean | number;
  pinned: boolean | number;
  self_user_id?: number | null;
}

const toMember = (r: MemberRow): RoomMember => ({
  id: Number(r.id), name: r.name, email: r.email, lastReadSeq: Number(r.last_read_seq), lastReadAtMs: msOrNull(r.last_read_at_ms),
  photoVersion: r.photo_version ?? null, statusMessage: r.status_message ?? null, muted: Boolean(r.muted),
  visibleFromSeq: Number(r.visible_from_seq ?? 0),
});
const msOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

interface NoticeRow {
  notice_id: number | null; notice_content: string | null; notice_deleted_at_ms: number | string | null;
  notice_by: string | null; notice_at_ms: number | string | null; notice_sender_id: number | null;
}

/** A notice whose message was deleted (or is gone) is none. */
const toNotice = (r: NoticeRow): StoredNotice | null =>
  r.notice_id === null || r.notice_content === null || r.notice_deleted_at_ms !== null
    ? null
    : { messageId: Number(r.notice_id), content: r.notice_content, setByName: r.notice_by ?? '', setAtMs: Number(r.notice_at_ms), senderId: r.notice_sender_id === null ? null : Number(r.notice_sender_id) };


export class RoomsRepository {
  /** `roomRemovals`: other features' parts in deleting a room (removeMember). */
  constructor(private readonly db: Knex, private readonly roomRemovals: readonly RoomRemoval[] = []) {}

  /** `hiddenFor`: a member whose chat list leaves the room out (they blocked its creator). */
  async createRoom(name: string, memberIds: number[], nowMs: number, hiddenFor: number | null = null): Promise<number> {
    return this.db.transaction(async (trx) => {
      // Both engines answer [the new auto-increment id] to a plain insert.
      const [inserted] = await trx('rooms').insert({ name, created_at_ms: nowMs });
      const roomId = Number(inserted);
      await trx('room_members').insert(memberIds.map((userId) => ({ room_id: roomId, user_id: userId, joined_at_ms: nowMs, hidden: userId === hiddenFor })));
      return roomId;
    });
  }

  /** Ours: the user's own memo room (one member: them), if they have one. */
  async selfRoom(userId: number): Promise<number | null> {
    const row = (await this.db('rooms').select('id').where({ self_user_id: userId }).first()) as { id: number } | undefined;
    return row ? Number(row.id) : null;
  }

  /**
   * Ours: makes the user's memo room, named for everyone (renamed) and pinned for them, and
   * answers its id and whether this call made it. `self_user_id` is unique: of concurrent first
   * uses one makes it and the others answer it.
   */
  async createSelfRoom(userId: number, name: string, nowMs: number): Promise<{ roomId: number; made: boolean }> {
    try {
      const roomId = await this.db.transaction(async (trx) => {
        const [inserted] = await trx('rooms').insert({ name, created_at_ms: nowMs, renamed: true, self_user_id: userId });
        const id = Number(inserted);
        await trx('room_members').insert({ room_id: id, user_id: userId, joined_at_ms: nowMs, pinned: true });
        return id;
      });
      return { roomId, made: true };
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
      const roomId = await this.selfRoom(userId);
      if (roomId === null) throw err;
      return { roomId, made: false };
    }
  }

  /** Ours: whether the room is someone's memo room (no one can be added to it). */
  async isSelfRoom(roomId: number): Promise<boolean> {
    const row = (await this.db('rooms').select('self_user_id').where({ id: roomId }).first()) as { self_user_id: number | null } | undefined;
    return row?.self_user_id != null;
  }

  async roomName(roomId: number): Promise<string | null> {
    return (await this.room(roomId))?.name ?? null;
  }

  async room(roomId: number): Promise<Room | null> {
    const row = await this.db<RoomRow>('rooms').select('name', 'last_seq', 'renamed').where({ id: roomId }).first();
    return row ? { name: row.name, lastSeq: Number(row.last_seq), renamed: Boolean(row.renamed) } : null;
  }

  async rename(roomId: number, name: string): Promise<void> {
    await this.db('rooms').where({ id: roomId }).update({ name, renamed: true });
  }

  /** The oldest room of exactly these two users that no one renamed, if any. */
  async twoPersonRoom(userId: number, otherId: number): Promise<number | null> {
    const row = await this.db('rooms as r')
      .join('room_members as a', (j) => j.on('a.room_id', 'r.id').andOnVal('a.user_id', userId))
      .join('room_members as b', (j) => j.on('b.room_id', 'r.id').andOnVal('b.user_id', otherId))
      .where('r.renamed', false)
      .whereRaw('(select count(*) from room_members m where m.room_id = r.id) = 2')
      .orderBy('r.id')
      .first<{ id: number } | undefined>('r.id');
    return row ? Number(row.id) : null;
  }

  /** For each of the user's rooms, the names of its other members in the order they joined. */
  async companyOf(userId: number): Promise<Map<number, string[]>> {
    const company = await this.companionsOf(userId);
    return new Map([...company].map(([roomId, others]) => [roomId, others.map((o) => o.name)]));
  }

  /** The other members of each of the user's rooms, in the order they joined (ours: their photos on chat-list rows). */
  async companionsOf(userId: number): Promise<Map<number, Companion[]>> {
    const rows = await this.db('room_members as rm')
      .join('users as u', 'u.id', 'rm.user_id')
      .select<Array<{ room_id: number; id: number; name: string; photo_version: string | null }>>('rm.room_id', 'u.id', 'u.name', 'u.photo_version')
      .whereIn('rm.room_id', this.db('room_members').select('room_id').where({ user_id: userId }))
      .whereNot('rm.user_id', userId)
      .orderBy([{ column: 'rm.room_id' }, { column: 'rm.joined_at_ms' }, { column: 'u.id' }]);
    const company = new Map<number, Companion[]>();
    for (const r of rows) {
      const roomId = Number(r.room_id);
      const others = company.get(roomId) ?? [];
      others.push({ id: Number(r.id), name: r.name, photoVersion: r.photo_version ?? null });
      company.set(roomId, others);
    }
    return company;
  }

  /** Makes the message the room's notice (replacing any), set by the member at the time. */
  async setNotice(roomId: number, messageId: number, setBy: number, atMs: number): Promise<void> {
    await this.db('room_notices')
      .insert({ room_id: roomId, message_id: messageId, set_by: setBy, set_at_ms: atMs })
      .onConflict('room_id')
      .merge(['message_id', 'set_by', 'set_at_ms']);
  }

  /** Removes the room's notice (all of them, or only if it is that message); whether there was one. */
  async removeNotice(roomId: number, messageId?: number): Promise<boolean> {
    const which = messageId === undefined ? { room_id: roomId } : { room_id: roomId, message_id: messageId };
    return (await this.db('room_notices').where(which).del()) > 0;
  }

  /** The rooms both users are members of. */
  async sharedRooms(userId: number, otherId: number): Promise<number[]> {
    const rows = await this.db('room_members as a')
      .join('room_members as b', (j) => j.on('b.room_id', 'a.room_id').andOnVal('b.user_id', otherId))
      .select<Array<{ room_id: number }>>('a.room_id')
      .where('a.user_id', userId);
    return rows.map((r) => Number(r.room_id));
  }

  /** Shows (or leaves out) the room in the member's chat list. */
  async setHidden(roomId: number, userId: number, hidden: boolean): Promise<void> {
    await this.db('room_members').where({ room_id: roomId, user_id: userId }).update({ hidden });
  }

  /** The user's rooms whose past they may not read, with the first seq they may (a private past). */
  async visibleFrom(userId: number): Promise<Map<number, number>> {
    const rows = await this.db('room_members')
      .select<Array<{ room_id: number; visible_from_seq: number }>>('room_id', 'visible_from_seq')
      .where('user_id', userId)
      .where('visible_from_seq', '>', 1);
    return new Map(rows.map((r) => [Number(r.room_id), Number(r.visible_from_seq)]));
  }

  /**
   * The user's rooms with an unread message that mentions them, each with who sent those
   * messages (so the chat list can leave out mentions by people the user has blocked since).
   */
  async mentionedRooms(userId: number): Promise<Map<number, number[]>> {
    const rows = await this.db('message_mentions as mm')
      .join('room_members as rm', (j) => j.on('rm.room_id', 'mm.room_id').andOn('rm.user_id', 'mm.user_id'))
      .join('messages as m', (j) => j.on('m.room_id', 'mm.room_id').andOn('m.seq', 'mm.seq'))
      .distinct<Array<{ room_id: number; sender_id: number }>>('mm.room_id', 'm.sender_id')
      .where('mm.user_id', userId)
      .whereRaw('mm.seq > rm.last_read_seq');
    const bySender = new Map<number, number[]>();
    for (const r of rows) {
      const roomId = Number(r.room_id);
      bySender.set(roomId, [...(bySender.get(roomId) ?? []), Number(r.sender_id)]);
    }
    return bySender;
  }

  /** The room's newest message not sent by these people (whom the reader blocked); null when none. */
  async newestExcept(roomId: number, senderIds: readonly number[]): Promise<{ id: number; seq: number; content: string; deleted: boolean; atMs: number } | null> {
    const row = (await this.db('messages')
      .select('id', 'seq', 'content', 'deleted_at_ms', 'created_at_ms')
      .where('room_id', roomId)
      .where((q) => q.whereNull('sender_id').orWhereNotIn('sender_id', senderIds))
      .orderBy('seq', 'desc')
      .first()) as { id: number; seq: number; content: string; deleted_at_ms: number | string | null; created_at_ms: number | string } | undefined;
    return row ? { id: Number(row.id), seq: Number(row.seq), content: row.content, deleted: row.deleted_at_ms !== null, atMs: Number(row.created_at_ms) } : null;
  }

  /** Per room of the user, how many of its unread messages come from these senders (whom they blocked). */
  async unreadFrom(userId: number, senderIds: readonly number[]): Promise<Map<number, number>> {
    if (senderIds.length === 0) return new Map();
    const rows = await this.db('room_members as rm')
      .join('messages as m', (j) => j.on('m.room_id', 'rm.room_id').andOn('m.seq', '>', 'rm.last_read_seq'))
      .select<Array<{ room_id: number; n: number | string }>>('rm.room_id')
      .count('* as n')
      .where('rm.user_id', userId)
      .whereIn('m.sender_id', senderIds)
      .groupBy('rm.room_id');
    return new Map(rows.map((r) => [Number(r.room_id), Number(r.n)]));
  }

  /** The room's members in the order they joined, with their read positions. */
  async members(roomId: number): Promise<RoomMember[]> {
    const rows = await this.db('room_members as rm')
      .join('users as u', 'u.id', 'rm.user_id')
      .select<MemberRow[]>(...MEMBER_COLUMNS)
      .where('rm.room_id', roomId)
      .orderBy([{ column: 'rm.joined_at_ms' }, { column: 'u.id' }]);
    return rows.map(toMember);
  }

  /**
   * The room and its members in one statement, so opening a room costs one round trip before
   * its messages; null when the room does not exist.
   */
  async withMembers(roomId: number): Promise<RoomWithMembers | null> {
    const rows = await this.db('rooms as r')
      .join('room_members as rm', 'rm.room_id', 'r.id')
      .join('users as u', 'u.id', 'rm.user_id')
      // The room's notice rides along on every row (a room has at most one).
      .leftJoin('room_notices as n', 'n.room_id', 'r.id')
      .leftJoin('messages as nm', 'nm.id', 'n.message_id')
      .leftJoin('users as nu', 'nu.id', 'n.set_by')
      .select<Array<MemberRow & { room_name: string; last_seq: number; renamed: number | boolean } & NoticeRow>>(
        ...MEMBER_COLUMNS, 'r.name as room_name', 'r.last_seq', 'r.renamed',
        'n.message_id as notice_id', 'nm.content as notice_content', 'nm.sender_id as notice_sender_id', 'nm.deleted_at_ms as notice_deleted_at_ms', 'nu.name as notice_by', 'n.set_at_ms as notice_at_ms',
      )
      .where('r.id', roomId)
      .orderBy([{ column: 'rm.joined_at_ms' }, { column: 'u.id' }]);
    if (rows.length === 0) return null;
    const [first] = rows;
    return {
      room: { name: first.room_name, lastSeq: Number(first.last_seq), renamed: Boolean(first.renamed), notice: toNotice(first) },
      members: rows.map(toMember),
    };
  }

  /** The ids of the user's rooms. */
  async roomIdsOf(userId: number): Promise<number[]> {
    const rows = await this.db('room_members').select<Array<{ room_id: number }>>('room_id').where({ user_id: userId });
    return rows.map((r) => Number(r.room_id));
  }

  async isMember(roomId: number, userId: number): Promise<boolean> {
    const row = await this.db('room_members').where({ room_id: roomId, user_id: userId }).first<{ user_id: number } | undefined>('user_id');
    return row !== undefined;
  }

  /** Adds the member, who has read nothing said before; false when the user already is a member. */
  async addMember(roomId: number, userId: number, nowMs: number): Promise<boolean> {
    try {
      // What was said before they came is not theirs to read (a private past): their position
      // starts at the newest, and what they may read after it.
      await this.db('room_members').insert({
        room_id: roomId, user_id: userId, joined_at_ms: nowMs,
        last_read_seq: this.db.raw('(select r.last_seq from rooms r where r.id = ?)', [roomId]),
        visible_from_seq: this.db.raw('(select r.last_seq + 1 from rooms r where r.id = ?)', [roomId]),
      });
      return true;
    } catch (err) {
      if (isDuplicateKey(err)) return false;
      throw err;
    }
  }

  /**
   * Removes the member; a room left empty is deleted in the same transaction with everything
   * of it: its messages, their search index rows, its members' rows (cascade), and what other
   * features keep of it (the removals given: attachments and their bytes). What they can only
   * do after the commit (files in a folder) runs once it committed. Answers whether the user
   * was a member and whether the room still exists.
   */
  async removeMember(roomId: number, userId: number): Promise<{ removed: boolean; roomDeleted: boolean }> {
    const afterCommit: AfterCommit[] = [];
    const outcome = await this.db.transaction(async (trx) => {
      // Leaves of one room take turns: without the lock, under MariaDB's REPEATABLE READ the
      // last two members leaving at once each still see the other and neither deletes the
      // room. (SQLite already runs one writer at a time; knex leaves the clause out there.)
      await trx('rooms').where({ id: roomId }).forUpdate().first('id');
      const removed = (await trx('room_members').where({ room_id: roomId, user_id: userId }).del()) > 0;
      if (!removed) return { removed, roomDeleted: false };
      const left = await trx('room_members').where({ room_id: roomId }).first<{ user_id: number } | undefined>('user_id');
      if (left) return { removed, roomDeleted: false };
      await unindexRoom(trx, roomId); // reads the messages' texts: before they go
      for (const removal of this.roomRemovals) {
        const after = await removal(trx, roomId);
        if (after) afterCommit.push(after);
      }
      await trx('messages').where({ room_id: roomId }).del();
      await trx('rooms').where({ id: roomId }).del();
      return { removed, roomDeleted: true };
    });
    for (const after of afterCommit) await after();
    return outcome;
  }

  /**
   * The user's rooms with their newest message, the rooms the user pinned first (ours), then
   * newest activity first, rooms without messages last: one query, each room's newest message
   * found by its seq (the room's counter).
   */
  async chatList(userId: number): Promise<RoomSummary[]> {
    const rows = await this.db('room_members as rm')
      .join('rooms as r', 'r.id', 'rm.room_id')
      .leftJoin('messages as m', (j) => j.on('m.room_id', 'r.id').andOn('m.seq', 'r.last_seq'))
      .select<ChatListRow[]>('r.id as room_id', 'r.name as room_name', 'r.renamed', 'r.last_seq', 'm.id as message_id', 'm.content', 'm.deleted_at_ms', 'm.created_at_ms', 'm.sender_id', 'rm.last_read_at_ms', 'rm.last_read_seq', 'rm.muted', 'rm.pinned', 'r.self_user_id')
      .where('rm.user_id', userId)
      .where('rm.hidden', false)
      .orderByRaw('case when r.self_user_id is null then 1 else 0 end, rm.pinned desc, case when m.id is null then 1 else 0 end, m.id desc, r.id desc');
    return rows.map((r) => ({
      roomId: Number(r.room_id),
      roomName: r.room_name,
      renamed: Boolean(r.renamed),
      lastMessage: r.content ?? null,
      lastMessageDeleted: r.deleted_at_ms !== null && r.deleted_at_ms !== undefined,
      lastMessageAtMs: msOrNull(r.created_at_ms),
      lastSenderId: r.sender_id === null || r.sender_id === undefined ? null : Number(r.sender_id),
      lastMessageId: r.message_id === null || r.message_id === undefined ? null : Number(r.message_id),
      lastReadAtMs: msOrNull(r.last_read_at_ms),
      lastSeq: Number(r.last_seq),
      lastReadSeq: Number(r.last_read_seq),
      muted: Boolean(r.muted),
      pinned: Boolean(r.pinned),
      ...(r.self_user_id != null ? { self: true } : {}),
    }));
  }

  /**
   * Changes the member's own settings of the room (those given) and answers them as stored;
   * null when the user is no member.
   */
  async setSettings(roomId: number, userId: number, changes: Partial<MemberSettings>): Promise<MemberSettings | null> {
    const set: Record<string, boolean> = {};
    if (changes.muted !== undefined) set.muted = changes.muted;
    if (changes.pinned !== undefined) set.pinned = changes.pinned;
    if (Object.keys(set).length > 0) await this.db('room_members').where({ room_id: roomId, user_id: userId }).update(set);
    const row = await this.db('room_members')
      .select<Array<{ muted: boolean | number; pinned: boolean | number }>>('muted', 'pinned')
      .where({ room_id: roomId, user_id: userId })
      .first();
    return row ? { muted: Boolean(row.muted), pinned: Boolean(row.pinned) } : null;
  }

  /** The rooms' newest seqs (rooms that are gone are left out). A plain read: it locks nothing. */
  async lastSeqs(roomIds: number[]): Promise<Array<{ roomId: number; lastSeq: number }>> {
    if (roomIds.length === 0) return [];
    const rows = await this.db<RoomRow>('rooms').select('id', 'last_seq').whereIn('id', roomIds);
    return rows.map((r) => ({ roomId: Number(r.id), lastSeq: Number(r.last_seq) }));
  }

  /**
   * Moves the members' read positions forward to the given seqs, never backwards, in one
   * statement (a member whose position is already there is left alone; a member who read an
   * empty room gets its time once). Answers how many rows moved. The caller has checked that no
   * seq is beyond its room's newest message (ReadMarkers): a subquery on rooms here would wait
   * for the rooms' message transactions (a locking read in InnoDB).
   */
  async markRead(positions: ReadPosition[]): Promise<number> {
    if (positions.length === 0) return 0;
    const { sql, bindings } = readPositionsForward(isSqlite(this.db), positions, true);
    return changedRows(await this.db.raw(sql, bindings as Knex.RawBinding[]));
  }

  /** The members' stored read positions, and whether each has its time stamped. */
  async readPositions(pairs: Array<{ roomId: number; userId: number }>): Promise<Array<{ roomId: number; userId: number; seq: number; stamped: boolean }>> {
    if (pairs.length === 0) return [];
    const rows = await this.db('room_members')
      .select<Array<{ room_id: number; user_id: number; last_read_seq: number; last_read_at_ms: number | null }>>('room_id', 'user_id', 'last_read_seq', 'last_read_at_ms')
      .where((q) => {
        for (const p of pairs) q.orWhere({ room_id: p.roomId, user_id: p.userId });
      });
    return rows.map((r) => ({ roomId: Number(r.room_id), userId: Number(r.user_id), seq: Number(r.last_read_seq), stamped: r.last_read_at_ms !== null }));
  }

  /**
   * Takes the room's notification slot when the last one is at least intervalMs old. A
   * compare-and-set on the stored time, so two nodes cannot both take it.
   */
  async claimNotification(roomId: number, nowMs: number, intervalMs: number): Promise<NotificationClaim> {
    const row = await this.db<RoomRow>('rooms').select('last_notified_at_ms').where({ id: roomId }).first();
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
