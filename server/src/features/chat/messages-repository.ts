// Messages. Concurrent messages are stored by one multi-row INSERT ... RETURNING id (valid on
// SQLite and MariaDB 10.5+), so a burst costs one round trip. Rows are mapped to domain objects
// here.
import type { SystemEvent } from '../../../../common/api';
import type { Knex } from '../../db/knex';

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
  systemEvent: SystemEvent | null;
}

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
}

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
  system_event: string | null;
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
  systemEvent: r.system_event === null ? null : (JSON.parse(r.system_event) as SystemEvent),
});

/** Rows of a raw statement: mysql2 answers [rows, fields], better-sqlite3 the rows. */
function rowsOf<T>(result: unknown): T[] {
  const r = result as unknown[];
  return (Array.isArray(r[0]) ? r[0] : r) as T[];
}

export class MessagesRepository {
  constructor(private readonly db: Knex) {}

  /**
   * Stores the messages with one statement and answers their ids, in the order given. Both
   * engines assign a multi-row insert's ids in row order, so the sorted ids map back to the rows.
   * A duplicate clientMsgId or a vanished room fails the whole statement (nothing is stored).
   */
  async insertMany(messages: NewMessage[]): Promise<number[]> {
    const row = '(?, ?, ?, ?, ?, ?, ?, ?)';
    const bindings = messages.flatMap((m) => [
      m.roomId, m.senderId, m.content, m.clientMsgId, m.leftUserId, m.addedUserEmail,
      m.systemEvent === null ? null : JSON.stringify(m.systemEvent), m.atMs,
    ]);
    const result = await this.db.raw(
      `insert into messages (room_id, sender_id, content, client_msg_id, left_user_id, added_user_email, system_event, created_at_ms)
       values ${messages.map(() => row).join(', ')} returning id`,
      bindings,
    );
    const ids = rowsOf<{ id: number }>(result).map((r) => Number(r.id)).sort((a, b) => a - b);
    if (ids.length !== messages.length) throw new Error(`stored ${ids.length} of ${messages.length} messages`);
    return ids;
  }

  /** The id of the sender's message with that clientMsgId, if one was stored. */
  async findByClientMsgId(senderId: number, clientMsgId: string): Promise<number | null> {
    const row = await this.db('messages').select('id').where({ sender_id: senderId, client_msg_id: clientMsgId }).first();
    return row ? Number(row.id) : null;
  }

  private selectMessages(): Knex.QueryBuilder {
    return this.db('messages as m')
      .join('rooms as r', 'r.id', 'm.room_id')
      .leftJoin('users as u', 'u.id', 'm.sender_id')
      .select(
        'm.id', 'm.room_id', 'm.sender_id', 'u.name as sender_name', 'r.name as room_name', 'm.content',
        'm.created_at_ms', 'm.client_msg_id', 'm.left_user_id', 'm.added_user_email', 'm.system_event',
      );
  }

  async findById(id: number): Promise<Message | null> {
    const row = (await this.selectMessages().where('m.id', id).first()) as MessageRow | undefined;
    return row ? toMessage(row) : null;
  }

  /**
   * One page of the room's history, oldest first. The page's ids are picked from the
   * (room_id, id) index alone and only those rows are joined to their names: skipping
   * thousands of rows for a deep page then reads index entries, not joined rows. (A derived
   * table rather than IN, because MariaDB refuses LIMIT inside an IN subquery.)
   */
  async page(roomId: number, which: HistoryPage, pageSize: number): Promise<Message[]> {
    const ids = this.db('messages').select('id').where('room_id', roomId).orderBy('id', 'desc').limit(pageSize);
    if ('beforeId' in which) ids.where('id', '<', which.beforeId);
    else ids.offset(which.page * pageSize);
    const rows = (await this.selectMessages().join(ids.as('p'), 'p.id', 'm.id').orderBy('m.id', 'asc')) as MessageRow[];
    return rows.map(toMessage);
  }

  async count(roomId: number): Promise<number> {
    const row = await this.db('messages').where({ room_id: roomId }).count({ n: '*' }).first();
    return Number(row?.n ?? 0);
  }
}
