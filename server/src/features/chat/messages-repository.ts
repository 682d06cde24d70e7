// Messages. Concurrent messages are stored together in one transaction: the rooms' sequence
// counters are moved under their row locks, then one multi-row INSERT ... RETURNING (valid on
// SQLite and MariaDB 10.5+) stores them, so a burst costs two round trips, not one per
// message, and a room's commit order is its seq order. Rows are mapped to domain objects here.
import type { SystemEvent } from '@common/api';
import { isSqlite, type Knex } from '../../db/knex';
import { stepByStep, type FewTrips, type Statement, type Trips } from '../../db/few-trips';
import { rowsOf } from '../../db/results';
import { updateFromValues } from '../../db/update-from-values';
import type { AttachmentFacts } from '../attachments/attachments-service';
import { voiceOf } from '../attachments/attachments-repository';
import { indexMessages, unindexMessage, type IndexedText } from './message-index-repository';
import { drawerLink } from './message-links';
import { readPositionsForward, type ReadPosition } from './rooms-repository';

export interface Message {
  id: number;
  roomId: number;
  /** The message's place in its room: gap-free from 1, in commit order. */
  seq: number;
  senderId: number | null;
  /** The sender's name; for system messages, the room's name. */
  senderName: string;
  content: string;
  createdAtMs: number;
  clientMsgId: string | null;
  leftUserId: number | null;
  addedUserEmail: string | null;
  systemEvent: SystemEvent | null;
  /** When the text was last edited; null or absent if never. */
  editedAtMs?: number | null;
  /** When it was deleted for everyone (content is then empty); null or absent if not. */
  deletedAtMs?: number | null;
  /** The message this one replies to, as it is now. */
  replyTo?: RepliedMessage | null;
  /** The room's change counter when this message last changed; null or absent if never. */
  changeSeq?: number | null;
  /** The photo or file it sent; null or absent if none (or removed with the message). */
  attachment?: AttachmentFacts | null;
  /** Ours: the photos it sent at once, in order (the first is `attachment`); null or absent for one or none. */
  attachments?: AttachmentFacts[] | null;
  /** Ours: the members it mentions; null, absent or empty if none. */
  mentions?: number[] | null;
  /** Ours: forwarded from another message (its attachment, if any, is the original's). */
  forwarded?: boolean;
  /** Ours: the reader hid it for themselves (delete for me); read by page() for a viewer only. */
  hidden?: boolean;
}

/** The original of a reply, read with it: its sender's name, its text unless deleted. */
export interface RepliedMessage { id: number; senderName: string; content: string; deleted: boolean; /** null: a system message's (never replied to) or unknown. */ senderId?: number | null }

/** A message to store: a user's (senderId set) or a system message (senderId null). */
export interface NewMessage {
  roomId: number;
  senderId: number | null;
  content: string;
  clientMsgId: string | null;
  leftUserId: number | null;
  addedUserEmail: string | null;
  systemEvent: SystemEvent | null;
  atMs: number;
  /** The id of a message of the same room this one replies to. */
  replyToId?: number | null;
  /** The attachment it sends (claimed beforehand; unique, so sent once). */
  attachmentId?: number | null;
  /**
   * Ours: every attachment it sends, in order (claimed beforehand), each a row of
   * message_attachments with its kind; the first is `attachmentId`. Absent: `attachmentId`'s alone.
   */
  attachmentRows?: Array<{ id: number; kind: MediaKindOfAttachment }>;
  /** Ours: the members it mentions (already checked: members, not the sender, at most 50). */
  mentions?: number[];
  /** Ours: a forward of another message. */
  forwarded?: boolean;
  /** Ours: the attachment a forward references (the original's row key; never unique, unlike attachmentId). */
  forwardedAttachmentId?: number | null;
}

/** How the room's drawer files an attachment: a photo (an image we decoded) or a file. */
export type MediaKindOfAttachment = 'photo' | 'file';

/**
 * Who wrote a message: its sender, or the member whose act a system message tells of (a call's
 * record: its caller, so the callee has it unread, as a missed call should be).
 */
export function authorOf(m: Pick<NewMessage, 'senderId' | 'systemEvent'>): number | null {
  return m.senderId ?? m.systemEvent?.actorUserId ?? null;
}

/** A stored message: its id and its place in its room. */
export interface StoredMessage { id: number; seq: number }
/** What storeBatch did with one message: stored it, or found the message its clientMsgId repeats. */
export type BatchOutcome = StoredMessage | { duplicateOf: number };

/**
 * Which part of a room's history: by page number (0 = newest), the page strictly before an id
 * or a seq (newest first, answered oldest first), or the messages strictly after a seq (oldest
 * first, for catching up).
 */
export type HistoryPage = { page: number } | { beforeId: number } | { beforeSeq: number } | { afterSeq: number } | { aroundSeq: number };

/** Which part of the history: a page of messages, or the messages changed since a counter. */
export type HistoryQuery = HistoryPage | { changedSince: number };

/** Part of a room's history with the room's counters, as one statement saw them all. */
export interface RoomPage { lastSeq: number; lastChangeSeq: number; messages: Message[] }

/**
 * The seqs a page holds when its query names them (seqs are gap-free): after a seq, before one,
 * or around one (half the page before it, it, the rest after; shorter near either end). Null
 * for a page by number or before an id, which must be looked up.
 */
export function pageSeqRange(which: HistoryPage, limit: number): { from: number; to: number } | null {
  if ('afterSeq' in which) return { from: which.afterSeq + 1, to: which.afterSeq + limit };
  if ('beforeSeq' in which) return { from: which.beforeSeq - limit, to: which.beforeSeq - 1 };
  if ('aroundSeq' in which) {
    const from = which.aroundSeq - Math.floor(limit / 2);
    return { from, to: from + limit - 1 };
  }
  return null;
}

/** A room that no longer exists (deleted while a message to it waited): nothing was stored. */
export class RoomGoneError extends Error {
  constructor(readonly roomIds: number[]) {
    super(`no such room: ${roomIds.join(', ')}`);
  }
}

interface MessageRow {
  id: number;
  room_id: number;
  seq: number;
  sender_id: number | null;
  sender_name: string | null;
  room_name: string;
  content: string;
  created_at_ms: number | string;
  client_msg_id: string | null;
  left_user_id: number | null;
  added_user_email: string | null;
  system_event: string | null;
  edited_at_ms: number | string | null;
  deleted_at_ms: number | string | null;
  change_seq: number | null;
  reply_to_id: number | null;
  reply_sender_name: string | null;
  reply_sender_id: number | null;
  reply_content: string | null;
  reply_deleted_at_ms: number | string | null;
  att_id: number | null;
  att_public_id: string | null;
  att_name: string | null;
  att_size: number | string | null;
  att_content_type: string | null;
  att_thumb_key: string | null;
  att_width: number | null;
  att_height: number | null;
  att_kind: string | null;
  att_duration_ms: number | string | null;
  att_waveform: string | null;
  mentions: string | null;
  forwarded?: boolean | number | null;
  hidden_by?: number | null;
}

const keyOf = (senderId: number, roomId: number, clientMsgId: string) => `${senderId}:${roomId}:${clientMsgId}`;

const msOrNull = (v: number | string | null): number | null => (v === null ? null : Number(v));

/** Mentions are stored as comma-separated ids (null when none). */
const mentionsText = (ids: readonly number[] | undefined): string | null => (ids && ids.length > 0 ? ids.join(',') : null);
const mentionsOf = (text: string | null): number[] | null => (text ? text.split(',').map(Number) : null);

const toMessage = (r: MessageRow): Message => ({
  mentions: mentionsOf(r.mentions ?? null),
  ...(r.forwarded ? { forwarded: true } : {}),
  ...(r.hidden_by != null ? { hidden: true } : {}),
  id: Number(r.id),
  roomId: Number(r.room_id),
  seq: Number(r.seq),
  senderId: r.sender_id === null ? null : Number(r.sender_id),
  senderName: r.sender_id === null ? r.room_name : (r.sender_name ?? ''),
  content: r.content,
  createdAtMs: Number(r.created_at_ms),
  clientMsgId: r.client_msg_id,
  leftUserId: r.left_user_id === null ? null : Number(r.left_user_id),
  addedUserEmail: r.added_user_email,
  systemEvent: r.system_event === null ? null : (JSON.parse(r.system_event) as SystemEvent),
  editedAtMs: msOrNull(r.edited_at_ms),
  deletedAtMs: msOrNull(r.deleted_at_ms),
  changeSeq: r.change_seq === null ? null : Number(r.change_seq),
  replyTo: r.reply_to_id === null
    ? null
    : { id: Number(r.reply_to_id), senderName: r.reply_sender_name ?? '', content: r.reply_content ?? '', deleted: r.reply_deleted_at_ms !== null, senderId: r.reply_sender_id === null ? null : Number(r.reply_sender_id) },
  attachment: attachmentFactsOf(r),
});

/** An attachment's facts from the row's att_ columns; null when it has none. */
export function attachmentFactsOf(
  r: Pick<MessageRow, 'att_id' | 'att_public_id' | 'att_name' | 'att_size' | 'att_content_type' | 'att_thumb_key' | 'att_width' | 'att_height'> & Partial<Pick<MessageRow, 'att_kind' | 'att_duration_ms' | 'att_waveform'>>,
): AttachmentFacts | null {
  return r.att_id === null
    ? null
    : {
      id: Number(r.att_id), publicId: r.att_public_id ?? '', name: r.att_name ?? '', size: Number(r.att_size), contentType: r.att_content_type ?? 'application/octet-stream',
      hasThumbnail: r.att_thumb_key !== null, width: r.att_width === null ? null : Number(r.att_width), height: r.att_height === null ? null : Number(r.att_height),
      voice: voiceOf(r.att_kind, r.att_duration_ms, r.att_waveform),
    };
}

/** What an edit, a deletion or a reaction changed: the room's change counter it took. */
export interface Change { changeSeq: number }


export class MessagesRepository {
  private readonly sqlite: boolean;

  /** `trips`: how the message transaction reaches the database (two round trips on MariaDB, db/few-trips.ts). */
  constructor(
    private readonly db: Knex,
    private readonly trips: FewTrips = stepByStep(db),
  ) {
    this.sqlite = isSqlite(db);
  }

  /**
   * Stores the messages in one transaction and answers each one's id and seq, in the order
   * given. The rooms' rows are locked (in id order, so two writers cannot deadlock) as their
   * counters move, so another writer's message to the same room waits for this commit and then
   * takes the next seq. A duplicate clientMsgId fails the whole transaction (nothing is stored,
   * no seq is used); a room that no longer exists fails it with RoomGoneError. People's messages
   * are stored waiting for the search index (`indexed` 0), which MessageIndexer writes after
   * this commit, in its own transaction. Two round trips on MariaDB: BEGIN with the rooms'
   * counters, locked; then their UPDATE, the INSERT, the authors' read positions and COMMIT.
   */
  async insertMany(messages: NewMessage[]): Promise<StoredMessage[]> {
    const outcomes = await this.store(messages, false);
    return outcomes.map((o) => o as StoredMessage);
  }

  /**
   * Stores the messages as insertMany does, but recognises each repeated clientMsgId (one the
   * sender already used in the room, stored before or earlier in the same batch) by itself: it
   * is not stored again and answers the stored message's id, and the rest of the batch is
   * stored in the same transaction (docs/architecture.md §6). The lookup runs after the rooms'
   * rows are locked, so no other writer is storing into those rooms meanwhile: what it finds is
   * committed, and what it does not find cannot arrive before this commit. Still two round
   * trips on MariaDB: the lookup goes with the lock.
   */
  async storeBatch(messages: NewMessage[]): Promise<BatchOutcome[]> {
    return this.store(messages, true);
  }

  private async store(all: NewMessage[], recogniseRepeats: boolean): Promise<BatchOutcome[]> {
    const roomIds = [...new Set(all.map((m) => m.roomId))].sort((a, b) => a - b);
    const inList = roomIds.map(() => '?').join(', ');
    const keyed = recogniseRepeats ? all.filter((m) => m.senderId !== null && m.clientMsgId !== null) : [];
    return this.trips.transaction(async (trips) => {
      // The rooms' rows locked in id order (so two writers cannot deadlock) until the commit.
      // (SQLite runs one writer at a time already, and has no FOR UPDATE.)
      const [locked, found] = await trips.send([
        { sql: `select id, last_seq from rooms where id in (${inList}) order by id${this.sqlite ? '' : ' for update'}`, bindings: roomIds },
        ...(keyed.length === 0 ? [] : [{
          // Each (sender, room, clientMsgId) an equality on the unique key, so each is one index lookup.
          sql: `select id, sender_id, room_id, client_msg_id from messages where ${keyed.map(() => '(sender_id = ? and room_id = ? and client_msg_id = ?)').join(' or ')}`,
          bindings: keyed.flatMap((m) => [m.senderId, m.roomId, m.clientMsgId]),
        }]),
      ]);
      const last = new Map(rowsOf<{ id: number; last_seq: number }>(locked).map((r) => [Number(r.id), Number(r.last_seq)]));
      const gone = roomIds.filter((id) => !last.has(id));
      if (gone.length > 0) throw new RoomGoneError(gone);
      const stored = new Map<string, number>();
      if (found) for (const r of rowsOf<{ id: number; sender_id: number; room_id: number; client_msg_id: string }>(found)) stored.set(keyOf(Number(r.sender_id), Number(r.room_id), r.client_msg_id), Number(r.id));
      // Per message: the id it repeats (stored before), the batch index it repeats, or new (-1).
      const firstInBatch = new Map<string, number>();
      const repeats = all.map((m, i): { id: number } | { index: number } | null => {
        if (!recogniseRepeats || m.senderId === null || m.clientMsgId === null) return null;
        const key = keyOf(m.senderId, m.roomId, m.clientMsgId);
        const id = stored.get(key);
        if (id !== undefined) return { id };
        const first = firstInBatch.get(key);
        if (first !== undefined) return { index: first };
        firstInBatch.set(key, i);
        return null;
      });
      const fresh = all.filter((_, i) => repeats[i] === null);
      const inserted = fresh.length === 0 ? [] : await this.insertLocked(trips, fresh, last, roomIds);
      const byIndex = new Map<number, StoredMessage>();
      let next = 0;
      all.forEach((_, i) => {
        if (repeats[i] === null) byIndex.set(i, inserted[next++]);
      });
      return all.map((_, i): BatchOutcome => {
        const repeat = repeats[i];
        if (repeat === null) return byIndex.get(i)!;
        return { duplicateOf: 'id' in repeat ? repeat.id : byIndex.get(repeat.index)!.id };
      });
    });
  }

  /** The messages' seqs taken from their locked rooms' counters, then stored with them (the second trip). */
  private async insertLocked(trips: Trips, messages: NewMessage[], last: Map<number, number>, roomIds: number[]): Promise<StoredMessage[]> {
    const seqs = messages.map((m) => {
      const seq = last.get(m.roomId)! + 1;
      last.set(m.roomId, seq);
      return seq;
    });
    const [, inserted] = await trips.send([
      updateFromValues(this.sqlite, {
        table: 'rooms',
        columns: ['id', 'last_seq'],
        rows: roomIds.map((id) => [id, last.get(id)!]),
        key: ['id'],
        set: [['last_seq', 'last_seq']],
        where: 't.last_seq < v.last_seq',
      }),
      {
        sql: `insert into messages (room_id, seq, sender_id, content, client_msg_id, left_user_id, added_user_email, system_event, created_at_ms, reply_to_id, attachment_id, indexed, mentions, forwarded, forwarded_attachment_id)
          values ${messages.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')} returning id, room_id, seq`,
        bindings: messages.flatMap((m, i) => [
          m.roomId, seqs[i], m.senderId, m.content, m.clientMsgId, m.leftUserId, m.addedUserEmail,
          m.systemEvent === null ? null : JSON.stringify(m.systemEvent), m.atMs, m.replyToId ?? null, m.attachmentId ?? null,
          // People's messages wait for the search index (MessageIndexer); system messages never go in it.
          m.senderId === null ? 1 : 0,
          mentionsText(m.mentions),
          m.forwarded === true, m.forwardedAttachmentId ?? null,
        ]),
      },
      ...this.mentionRows(messages, seqs),
      ...this.drawerRows(messages, seqs),
      ...this.authorsHaveRead(messages, seqs),
    ], true);
    const ids = new Map(rowsOf<{ id: number; room_id: number; seq: number }>(inserted).map((r) => [`${Number(r.room_id)}:${Number(r.seq)}`, Number(r.id)]));
    return messages.map((m, i) => {
      const id = ids.get(`${m.roomId}:${seqs[i]}`);
      if (id === undefined) throw new Error(`message ${seqs[i]} of room ${m.roomId} was not stored`);
      return { id, seq: seqs[i] };
    });
  }

  /** Each mention as a (member, room, seq) row, in the message's commit: the chat list's "@". */
  private mentionRows(messages: NewMessage[], seqs: number[]): Statement[] {
    const rows = messages.flatMap((m, i) => (m.mentions ?? []).map((userId) => [userId, m.roomId, seqs[i]]));
    if (rows.length === 0) return [];
    return [{ sql: `insert into message_mentions (user_id, room_id, seq) values ${rows.map(() => '(?, ?, ?)').join(', ')}`, bindings: rows.flat() }];
  }

  /**
   * Ours: the drawer's rows of the messages (message_attachments, message_links), in their
   * commit. The new messages' ids are read by (room_id, seq) in the same statement.
   */
  private drawerRows(messages: NewMessage[], seqs: number[]): Statement[] {
    const attachmentRows = messages.flatMap((m, i) => (m.attachmentRows ?? []).map((a, position) => [m.roomId, seqs[i], position, a.id, a.kind]));
    const linkRows = messages.flatMap((m, i) => {
      const link = m.senderId === null ? null : drawerLink(m.content);
      return link === null ? [] : [[m.roomId, seqs[i]]];
    });
    const out: Statement[] = [];
    if (attachmentRows.length > 0) {
      out.push({
        sql: `insert into message_attachments (message_id, position, attachment_id, room_id, kind)
          select m.id, x.position, x.attachment_id, m.room_id, x.kind from messages m join (${attachmentRows.map(() => 'select ? as room_id, ? as seq, ? as position, ? as attachment_id, ? as kind').join(' union all ')}) x
          on m.room_id = x.room_id and m.seq = x.seq`,
        bindings: attachmentRows.flat(),
      });
    }
    if (linkRows.length > 0) {
      out.push({
        sql: `insert into message_links (message_id, room_id)
          select m.id, m.room_id from messages m join (${linkRows.map(() => 'select ? as room_id, ? as seq').join(' union all ')}) x
          on m.room_id = x.room_id and m.seq = x.seq`,
        bindings: linkRows.flat(),
      });
    }
    return out;
  }

  /**
   * An author has read the room up to their own message: their read position moves with it, in
   * the same commit, so their unread count never counts their own messages. (The rooms
   * repository's statement, run here: it must commit with the message.)
   */
  private authorsHaveRead(messages: NewMessage[], seqs: number[]): Statement[] {
    const newest = new Map<string, ReadPosition>();
    messages.forEach((m, i) => {
      const userId = authorOf(m);
      if (userId !== null) newest.set(`${m.roomId}:${userId}`, { roomId: m.roomId, userId, seq: seqs[i], atMs: m.atMs });
    });
    const positions = [...newest.values()];
    if (positions.length === 0) return [];
    return [readPositionsForward(this.sqlite, positions, false)];
  }

  /** The id of the sender's message in the room with that clientMsgId, if one was stored. */
  async findByClientMsgId(senderId: number, roomId: number, clientMsgId: string): Promise<number | null> {
    const row = await this.db('messages').where({ sender_id: senderId, room_id: roomId, client_msg_id: clientMsgId }).first<{ id: number } | undefined>('id');
    return row ? Number(row.id) : null;
  }

  private selectMessages(): Knex.QueryBuilder {
    return withDetails(this.db, this.db('messages as m').join('rooms as r', 'r.id', 'm.room_id'));
  }

  /** Replaces the text of a message not deleted; null when it was deleted (or is gone) meanwhile. */
  async edit(roomId: number, messageId: number, content: string, atMs: number): Promise<Change | null> {
    return this.change(roomId, messageId, async (trx, changeSeq) => {
      const before = await this.searchableText(trx, roomId, messageId);
      const updated = await trx('messages')
        .where({ id: messageId, room_id: roomId })
        .whereNull('deleted_at_ms')
        .update({ content, edited_at_ms: atMs, change_seq: changeSeq });
      if (updated !== 1) return false;
      // In the drawer's links while the new text holds one.
      await trx('message_links').where({ message_id: messageId }).delete();
      if (drawerLink(content) !== null) await trx('message_links').insert({ message_id: messageId, room_id: roomId });
      // Found by the new text, no longer by the old.
      if (before !== null) {
        await unindexMessage(trx, before);
        await indexMessages(trx, [{ ...before, content }]);
      }
      return true;
    });
  }

  /**
   * The text the search index holds for a message: a person's message not deleted and already
   * indexed, or null. Read under the message's row lock: MessageIndexer locks the rows it indexes,
   * so a message is either still waiting (the indexer will read the text this change leaves) or
   * indexed with the text read here, never both.
   */
  private async searchableText(trx: Knex.Transaction, roomId: number, messageId: number): Promise<IndexedText | null> {
    const row = (await trx('messages')
      .select('content', 'indexed')
      .where({ id: messageId, room_id: roomId })
      .whereNull('deleted_at_ms')
      .whereNotNull('sender_id')
      .forUpdate()
      .first()) as { content: string; indexed: number | boolean } | undefined;
    return row && Boolean(row.indexed) ? { messageId, roomId, content: row.content } : null;
  }

  /**
   * Deletes a message for everyone: its text is emptied (gone from the database, not hidden)
   * and its reactions with it, in one commit. Null when it was already deleted (or is gone).
   * (The one write to message_reactions outside its repository: it must commit with this.)
   */
  async deleteForEveryone(roomId: number, messageId: number, atMs: number): Promise<Change | null> {
    return this.change(roomId, messageId, async (trx, changeSeq) => {
      const before = await this.searchableText(trx, roomId, messageId);
      const updated = await trx('messages')
        .where({ id: messageId, room_id: roomId })
        .whereNull('deleted_at_ms')
        .update({ content: '', deleted_at_ms: atMs, change_seq: changeSeq });
      if (updated !== 1) return false;
      if (before !== null) await unindexMessage(trx, before);
      await trx('message_reactions').where({ message_id: messageId }).delete();
      // Gone from the room's drawer (its attachments' rows go with the attachments, after the commit).
      await trx('message_links').where({ message_id: messageId }).delete();
      return true;
    });
  }

  /**
   * One change of a room's message, in one transaction: the room's row is locked (as a new
   * message's batch locks it, so changes of a room are serialised with its messages), the next
   * change counter is offered to `apply`, and taken only if `apply` changed something.
   */
  async change(roomId: number, messageId: number, apply: (trx: Knex.Transaction, changeSeq: number) => Promise<boolean>): Promise<Change | null> {
    return this.db.transaction(async (trx) => {
      const room = (await trx('rooms').select('last_change_seq').where({ id: roomId }).forUpdate().first()) as { last_change_seq: number } | undefined;
      if (!room) return null;
      const changeSeq = Number(room.last_change_seq) + 1;
      if (!(await apply(trx, changeSeq))) return null;
      await trx('rooms').where({ id: roomId }).update({ last_change_seq: changeSeq });
      await trx('messages').where({ id: messageId, room_id: roomId }).update({ change_seq: changeSeq });
      return { changeSeq };
    });
  }

  /** Ours: whether a message not deleted shows the attachment (its own, or referenced by a forward). */
  async attachmentInUse(attachmentRowId: number): Promise<boolean> {
    const own = this.db('messages').select('id').where({ attachment_id: attachmentRowId }).whereNull('deleted_at_ms');
    // Any message showing it: an album's photo, or a forward's (every message's attachments have rows there).
    const forwards = this.db('message_attachments as ma').join('messages as m', 'm.id', 'ma.message_id').select('m.id').where('ma.attachment_id', attachmentRowId).whereNull('m.deleted_at_ms');
    const [a, b] = (await Promise.all([own.first(), forwards.first()])) as Array<{ id: number } | undefined>;
    return a !== undefined || b !== undefined;
  }

  async findById(id: number): Promise<Message | null> {
    const row = (await this.selectMessages().where('m.id', id).first()) as MessageRow | undefined;
    if (!row) return null;
    const [message] = await this.withAlbums([toMessage(row)]);
    return message;
  }

  /**
   * Part of the room's history, oldest first, with the room's counters as the same statement saw
   * them: history reads it beside the room's members, not after them, so the change counter that
   * tells a client which changes it has seen must come with the messages it describes. Null when
   * the room does not exist.
   *
   * A room's seqs are gap-free from 1 (a message is never removed alone: deleting one empties
   * it), so every page is a seq range read along the primary key (room_id, seq): page n is the
   * seqs up to the room's newest minus n pages, and the page before an id is the page before
   * that message's seq. Changes since a counter are read along (room_id, change_seq), in change
   * order. `limit` rows at most.
   */
  async page(roomId: number, which: HistoryQuery, limit: number, viewerId?: number): Promise<RoomPage | null> {
    // The page before one of the room's messages: that message's seq is read by the page's own
    // statement (a scalar subquery, evaluated once), so one round trip, not two.
    const anchor = 'beforeId' in which ? this.db.raw('(select a.seq from messages as a where a.id = ? and a.room_id = ?)', [which.beforeId, roomId]) : null;
    const range = 'changedSince' in which || 'beforeId' in which ? null : pageSeqRange(which, limit);
    const rows = (await withDetails(
      this.db,
      this.db('rooms as r').leftJoin('messages as m', (on) => {
        on.on('m.room_id', '=', 'r.id');
        if ('changedSince' in which) on.andOnVal('m.change_seq', '>', which.changedSince);
        else if (range) on.andOnVal('m.seq', '>=', Math.max(range.from, 1)).andOnVal('m.seq', '<=', range.to);
        else if (anchor) on.andOn(this.db.raw('m.seq >= cast(? as signed) - ?', [anchor, limit])).andOn(this.db.raw('m.seq < ?', [anchor]));
        // (Signed: the counter is unsigned, and a page past the first message goes below zero.)
        else if ('page' in which) {
          on.andOn(this.db.raw('m.seq > cast(r.last_seq as signed) - ?', [(which.page + 1) * limit]))
            .andOn(this.db.raw('m.seq <= cast(r.last_seq as signed) - ?', [which.page * limit]));
        }
      }),
    )
      // Ours: the viewer's delete-for-me, one primary-key probe per message, in the same statement.
      .modify((q) => {
        if (viewerId !== undefined) q.leftJoin('hidden_messages as hm', (on) => on.on('hm.message_id', 'm.id').andOnVal('hm.user_id', '=', viewerId)).select('hm.user_id as hidden_by');
      })
      .select('r.last_seq as room_last_seq', 'r.last_change_seq as room_last_change_seq', ...(anchor ? [this.db.raw('? as anchor_seq', [anchor])] : []))
      .where('r.id', roomId)
      .orderBy('changedSince' in which ? 'm.change_seq' : 'm.seq', 'asc')
      .limit(limit)) as Array<MessageRow & { room_last_seq: number; room_last_change_seq: number; anchor_seq?: number | null }>;
    if (rows.length === 0) return null;
    const [first] = rows;
    // An id that is not one of the room's messages: the page before where it would be.
    if ('beforeId' in which && first.anchor_seq == null) return this.page(roomId, { beforeSeq: await this.seqAfterIdsBelow(roomId, which.beforeId) }, limit, viewerId);
    return {
      lastSeq: Number(first.room_last_seq),
      lastChangeSeq: Number(first.room_last_change_seq),
      // A room with nothing in the range answers one row of the room alone.
      messages: await this.withAlbums(rows.filter((r) => r.id !== null).map(toMessage)),
    };
  }

  /**
   * Ours: the photos of the messages that sent several at once, read in one statement by their
   * message ids, only when a message of them has a photo (a page without one costs nothing).
   */
  async withAlbums(messages: Message[]): Promise<Message[]> {
    const ids = messages.filter((m) => m.attachment?.hasThumbnail === true && m.deletedAtMs == null).map((m) => m.id);
    if (ids.length === 0) return messages;
    const rows = (await this.db('message_attachments as ma')
      .join('attachments as at', 'at.id', 'ma.attachment_id')
      .select('ma.message_id', 'at.id as att_id', 'at.public_id as att_public_id', 'at.name as att_name', 'at.size as att_size', 'at.content_type as att_content_type',
        'at.thumb_key as att_thumb_key', 'at.width as att_width', 'at.height as att_height')
      .whereIn('ma.message_id', ids)
      .orderBy([{ column: 'ma.message_id' }, { column: 'ma.position' }])) as Array<MessageRow & { message_id: number }>;
    const albums = new Map<number, AttachmentFacts[]>();
    for (const r of rows) {
      const facts = attachmentFactsOf(r);
      if (!facts) continue;
      const album = albums.get(Number(r.message_id)) ?? [];
      album.push(facts);
      albums.set(Number(r.message_id), album);
    }
    for (const m of messages) {
      const album = albums.get(m.id);
      if (album && album.length > 1) m.attachments = album;
    }
    return messages;
  }

  /**
   * The seq just after the room's messages with ids below `id`, for an id that is not one of the
   * room's messages (for one of them it is its own seq: in a room ids grow with seqs, both taken
   * under the room's row lock). Walks the room's messages from its newest down.
   */
  private async seqAfterIdsBelow(roomId: number, id: number): Promise<number> {
    const below = (await this.db('messages').select('seq').where('room_id', roomId).where('id', '<', id).orderBy('seq', 'desc').first()) as { seq: number } | undefined;
    return below ? Number(below.seq) + 1 : 1;
  }
}

/** A room's messages joined to what a message shows: its sender, the message it replies to, its attachment. */
function withDetails(db: Knex, q: Knex.QueryBuilder): Knex.QueryBuilder {
  return q
    .leftJoin('users as u', 'u.id', 'm.sender_id')
    .leftJoin('messages as rp', 'rp.id', 'm.reply_to_id')
    .leftJoin('users as ru', 'ru.id', 'rp.sender_id')
    // A message's own attachment, or the one a forward references (the original's).
    .leftJoin('attachments as at', (on) => on.on('at.id', '=', db.raw('coalesce(m.attachment_id, m.forwarded_attachment_id)')))
    .select(
      'at.id as att_id', 'at.public_id as att_public_id', 'at.name as att_name', 'at.size as att_size', 'at.content_type as att_content_type',
      'at.thumb_key as att_thumb_key', 'at.width as att_width', 'at.height as att_height',
      'at.kind as att_kind', 'at.duration_ms as att_duration_ms', 'at.waveform as att_waveform',
      'm.id', 'm.room_id', 'm.seq', 'm.sender_id', 'u.name as sender_name', 'r.name as room_name', 'm.content',
      'm.created_at_ms', 'm.client_msg_id', 'm.left_user_id', 'm.added_user_email', 'm.system_event',
      'm.edited_at_ms', 'm.deleted_at_ms', 'm.change_seq', 'm.reply_to_id', 'm.mentions', 'm.forwarded',
      'ru.name as reply_sender_name', 'rp.sender_id as reply_sender_id', 'rp.content as reply_content', 'rp.deleted_at_ms as reply_deleted_at_ms',
    );
}
