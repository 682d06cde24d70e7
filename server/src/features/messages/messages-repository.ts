// Messages. A user's message is inserted by one statement that also checks membership
// (INSERT ... SELECT ... FROM room_members ... RETURNING id, valid on SQLite and MariaDB 10.5+),
// so the hot path costs one round trip. Rows are mapped to domain objects here.
import type { Knex } from '../../db/knex';
import { isDuplicateKey } from '../rooms/rooms-repository';

export interface Message {
  id: number;
  roomId: number;
  senderId: number | null;
  /** The sender's name; for system messages, the room's name. */
  senderName: string;
  content: string;
  createdAtMs: number;
  clientMsgId: string | null;
  leftUserId: number | null;
  addedUserEmail: string | null;
}

export interface NewUserMessage {
  roomId: number;
  senderId: number;
  content: string;
  clientMsgId: string | null;
  atMs: number;
}

export interface NewSystemMessage {
  roomId: number;
  content: string;
  leftUserId?: number;
  addedUserEmail?: string;
  atMs: number;
}

export type InsertResult = { kind: 'inserted'; id: number } | { kind: 'duplicate'; id: number } | { kind: 'notMember' };

/** Which page of a room's history: by page number (0 = newest) or strictly before an id. */
export type HistoryPage = { page: number } | { beforeId: number };

interface MessageRow {
  id: number;
  room_id: number;
  sender_id: number | null;
  sender_name: string | null;
  room_name: string;
  content: string;
  created_at_ms: number | string;
  client_msg_id: string | null;
  left_user_id: number | null;
  added_user_email: string | null;
}

const toMessage = (r: MessageRow): Message => ({
  id: Number(r.id),
  roomId: Number(r.room_id),
  senderId: r.sender_id === null ? null : Number(r.sender_id),
  senderName: r.sender_id === null ? r.room_name : (r.sender_name ?? ''),
  content: r.content,
  createdAtMs: Number(r.created_at_ms),
  clientMsgId: r.client_msg_id,
  leftUserId: r.left_user_id === null ? null : Number(r.left_user_id),
  addedUserEmail: r.added_user_email,
});

/** Rows of a raw statement: mysql2 answers [rows, fields], better-sqlite3 the rows. */
function rowsOf<T>(result: unknown): T[] {
  const r = result as unknown[];
  return (Array.isArray(r[0]) ? r[0] : r) as T[];
}

export class MessagesRepository {
  constructor(private readonly db: Knex) {}

  /** Stores the message if the sender is a member of the room; a retried clientMsgId is stored once. */
  async insertUserMessage(m: NewUserMessage): Promise<InsertResult> {
    try {
      const result = await this.db.raw(
        `insert into messages (room_id, sender_id, content, client_msg_id, created_at_ms)
         select room_id, user_id, ?, ?, ? from room_members where room_id = ? and user_id = ?
         returning id`,
        [m.content, m.clientMsgId, m.atMs, m.roomId, m.senderId],
      );
      const [row] = rowsOf<{ id: number }>(result);
      return row ? { kind: 'inserted', id: Number(row.id) } : { kind: 'notMember' };
    } catch (err) {
      if (m.clientMsgId === null || !isDuplicateKey(err)) throw err;
      const existing = await this.db('messages').select('id').where({ sender_id: m.senderId, client_msg_id: m.clientMsgId }).first();
      if (!existing) throw err;
      return { kind: 'duplicate', id: Number(existing.id) };
    }
  }

  async insertSystemMessage(m: NewSystemMessage): Promise<number> {
    const [inserted] = await this.db('messages').insert(
      {
        room_id: m.roomId,
        sender_id: null,
        content: m.content,
        left_user_id: m.leftUserId ?? null,
        added_user_email: m.addedUserEmail ?? null,
        created_at_ms: m.atMs,
      },
    );
    return Number(inserted);
  }

  private selectMessages(): Knex.QueryBuilder {
    return this.db('messages as m')
      .join('rooms as r', 'r.id', 'm.room_id')
      .leftJoin('users as u', 'u.id', 'm.sender_id')
      .select(
        'm.id', 'm.room_id', 'm.sender_id', 'u.name as sender_name', 'r.name as room_name', 'm.content',
        'm.created_at_ms', 'm.client_msg_id', 'm.left_user_id', 'm.added_user_email',
      );
  }

  async findById(id: number): Promise<Message | null> {
    const row = (await this.selectMessages().where('m.id', id).first()) as MessageRow | undefined;
    return row ? toMessage(row) : null;
  }

  /** One page of the room's history, oldest first. */
  async page(roomId: number, which: HistoryPage, pageSize: number): Promise<Message[]> {
    const q = this.selectMessages().where('m.room_id', roomId).orderBy('m.id', 'desc').limit(pageSize);
    if ('beforeId' in which) q.where('m.id', '<', which.beforeId);
    else q.offset(which.page * pageSize);
    const rows = (await q) as MessageRow[];
    return rows.reverse().map(toMessage);
  }

  async count(roomId: number): Promise<number> {
    const row = await this.db('messages').where({ room_id: roomId }).count({ n: '*' }).first();
    return Number(row?.n ?? 0);
  }
}
