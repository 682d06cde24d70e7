// Attachments' rows: who uploaded what to which room, where its bytes are (blob keys), and the
// message that sent it, if any (messages.attachment_id, unique: sent once); and what each user
// uploaded a day, for the daily quota.
import type { Knex } from '../../db/knex';

export interface AttachmentRow {
  /** The row's key, which messages.attachment_id names; never on the wire. */
  id: number;
  /** The wire's and URLs' name for it: opaque, random (docs/protocol.md, attachments). */
  publicId: string;
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
  id: number; public_id: string | null; room_id: number; uploader_id: number; name: string; content_type: string; size: number | string;
  blob_key: string; thumb_key: string | null; width: number | null; height: number | null; created_at_ms: number | string;
  message_id?: number | null; client_msg_id?: string | null; deleted_at_ms?: number | string | null;
}

const toAttachment = (r: Row): AttachmentRow => ({
  id: Number(r.id), publicId: r.public_id ?? '', roomId: Number(r.room_id), uploaderId: Number(r.uploader_id), name: r.name, contentType: r.content_type,
  size: Number(r.size), blobKey: r.blob_key, thumbKey: r.thumb_key, width: r.width === null ? null : Number(r.width),
  height: r.height === null ? null : Number(r.height), createdAtMs: Number(r.created_at_ms),
});

export class AttachmentsRepository {
  constructor(private readonly db: Knex) {}

  async insert(a: NewAttachment): Promise<number> {
    // The new id: [id] from both drivers (MariaDB has no RETURNING on INSERT through knex).
    const [id] = await this.db('attachments')
      .insert({
        public_id: a.publicId, room_id: a.roomId, uploader_id: a.uploaderId, name: a.name, content_type: a.contentType, size: a.size,
        blob_key: a.blobKey, thumb_key: a.thumbKey, width: a.width, height: a.height, created_at_ms: a.createdAtMs,
      });
    return Number(id);
  }

  /** By its public id (the wire's), or by its row's key (`id`, as a message names it). */
  async find(by: { publicId: string } | { id: number }): Promise<AttachmentWithUse | null> {
    const row = (await this.db('attachments as a')
      .leftJoin('messages as m', 'm.attachment_id', 'a.id')
      .select('a.*', 'm.id as message_id', 'm.client_msg_id', 'm.deleted_at_ms')
      .where('publicId' in by ? { 'a.public_id': by.publicId } : { 'a.id': by.id })
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

  /**
   * Removes the attachment only while no message has sent it; answers whether it did. The sweep
   * reads unsent uploads first and removes them after: one sent meanwhile must stay.
   */
  async deleteIfUnsent(id: number): Promise<boolean> {
    const removed = await this.db('attachments')
      .where({ id })
      .whereNotExists((q) => { void q.select(this.db.raw('1')).from('messages').where('messages.attachment_id', id); })
      .delete();
    return Number(removed) > 0;
  }

  /** Removes the room's attachments (in the transaction deleting the room) and answers their blob keys. */
  async removeRoom(trx: Knex.Transaction, roomId: number): Promise<string[]> {
    const rows = (await trx('attachments').select('blob_key', 'thumb_key').where({ room_id: roomId })) as Array<{ blob_key: string; thumb_key: string | null }>;
    await trx('attachments').where({ room_id: roomId }).delete();
    return rows.flatMap((r) => (r.thumb_key === null ? [r.blob_key] : [r.blob_key, r.thumb_key]));
  }

  /** Uploads of anyone never sent and older than `beforeMs` (a send cancelled or never made), oldest first. */
  async unsentBefore(beforeMs: number, limit: number): Promise<AttachmentRow[]> {
    const rows = (await this.db('attachments as a')
      .leftJoin('messages as m', 'm.attachment_id', 'a.id')
      .select('a.*')
      .where('a.created_at_ms', '<', beforeMs)
      .whereNull('m.id')
      .orderBy('a.created_at_ms')
      .limit(limit)) as Row[];
    return rows.map(toAttachment);
  }

  /** Bytes of the user's uploads no message has sent (yet). */
  async unsentBytes(uploaderId: number): Promise<number> {
    const row = (await this.db('attachments as a')
      .leftJoin('messages as m', 'm.attachment_id', 'a.id')
      .where('a.uploader_id', uploaderId)
      .whereNull('m.id')
      .sum({ bytes: 'a.size' })
      .first()) as { bytes: number | string | null } | undefined;
    return Number(row?.bytes ?? 0);
  }

  /** Bytes the user uploaded on `day` (yyyymmdd, UTC). */
  async bytesOn(userId: number, day: number): Promise<number> {
    const row = (await this.db('attachment_upload_days').select('bytes').where({ user_id: userId, day }).first()) as { bytes: number | string } | undefined;
    return Number(row?.bytes ?? 0);
  }

  /** Adds an upload's bytes to the user's count of `day`. */
  async addBytesOn(userId: number, day: number, bytes: number): Promise<void> {
    await this.db('attachment_upload_days')
      .insert({ user_id: userId, day, bytes })
      .onConflict(['user_id', 'day'])
      .merge({ bytes: this.db.raw('attachment_upload_days.bytes + ?', [bytes]) });
  }

  /** Forgets the counts of days before `day`: only today's is ever read. */
  async forgetDaysBefore(day: number): Promise<void> {
    await this.db('attachment_upload_days').where('day', '<', day).delete();
  }
}
