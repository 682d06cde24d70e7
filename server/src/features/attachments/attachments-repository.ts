// Attachments' rows: who uploaded what to which room, where its bytes are (blob keys), and the
// message that sent it, if any (messages.attachment_id, unique: sent once).
import type { Knex } from '../../db/knex';

export interface AttachmentRow {
  id: number;
  roomId: number;
  uploaderId: number;
  name: string;
  contentType: string;
  size: number;
  blobKey: string;
  thumbKey: string | null;
  width: number | null;
  height: number | null;
  createdAtMs: number;
}

/** An attachment with the message that sent it, if one did. */
export interface AttachmentWithUse extends AttachmentRow {
  sentIn: { messageId: number; clientMsgId: string | null; deleted: boolean } | null;
}

export type NewAttachment = Omit<AttachmentRow, 'id'>;

interface Row {
  id: number; room_id: number; uploader_id: number; name: string; content_type: string; size: number | string;
  blob_key: string; thumb_key: string | null; width: number | null; height: number | null; created_at_ms: number | string;
  message_id?: number | null; client_msg_id?: string | null; deleted_at_ms?: number | string | null;
}

const toAttachment = (r: Row): AttachmentRow => ({
  id: Number(r.id), roomId: Number(r.room_id), uploaderId: Number(r.uploader_id), name: r.name, contentType: r.content_type,
  size: Number(r.size), blobKey: r.blob_key, thumbKey: r.thumb_key, width: r.width === null ? null : Number(r.width),
  height: r.height === null ? null : Number(r.height), createdAtMs: Number(r.created_at_ms),
});

export class AttachmentsRepository {
  constructor(private readonly db: Knex) {}

  async insert(a: NewAttachment): Promise<number> {
    // The new id: [id] from both drivers (MariaDB has no RETURNING on INSERT through knex).
    const [id] = await this.db('attachments')
      .insert({
        room_id: a.roomId, uploader_id: a.uploaderId, name: a.name, content_type: a.contentType, size: a.size,
        blob_key: a.blobKey, thumb_key: a.thumbKey, width: a.width, height: a.height, created_at_ms: a.createdAtMs,
      });
    return Number(id);
  }

  async find(id: number): Promise<AttachmentWithUse | null> {
    const row = (await this.db('attachments as a')
      .leftJoin('messages as m', 'm.attachment_id', 'a.id')
      .select('a.*', 'm.id as message_id', 'm.client_msg_id', 'm.deleted_at_ms')
      .where('a.id', id)
      .first()) as Row | undefined;
    if (!row) return null;
    const sentIn = row.message_id == null
      ? null
      : { messageId: Number(row.message_id), clientMsgId: row.client_msg_id ?? null, deleted: row.deleted_at_ms != null };
    return { ...toAttachment(row), sentIn };
  }

  /** Whether the user is a member of the room (read here: chat's members cache is chat's own). */
  async isMember(roomId: number, userId: number): Promise<boolean> {
    return (await this.db('room_members').select('user_id').where({ room_id: roomId, user_id: userId }).first()) !== undefined;
  }

  async delete(id: number): Promise<void> {
    await this.db('attachments').where({ id }).delete();
  }

  /** Removes the room's attachments (in the transaction deleting the room) and answers their blob keys. */
  async removeRoom(trx: Knex.Transaction, roomId: number): Promise<string[]> {
    const rows = (await trx('attachments').select('blob_key', 'thumb_key').where({ room_id: roomId })) as Array<{ blob_key: string; thumb_key: string | null }>;
    await trx('attachments').where({ room_id: roomId }).delete();
    return rows.flatMap((r) => (r.thumb_key === null ? [r.blob_key] : [r.blob_key, r.thumb_key]));
  }

  /** Uploads of the user never sent and older than `beforeMs` (left behind by a cancelled send). */
  async unsentOf(uploaderId: number, beforeMs: number): Promise<AttachmentRow[]> {
    const rows = (await this.db('attachments as a')
      .leftJoin('messages as m', 'm.attachment_id', 'a.id')
      .select('a.*')
      .where('a.uploader_id', uploaderId)
      .where('a.created_at_ms', '<', beforeMs)
      .whereNull('m.id')
      .limit(100)) as Row[];
    return rows.map(toAttachment);
  }
}
