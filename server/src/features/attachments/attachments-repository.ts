// Attachments' rows: who uploaded what to which room, where its bytes are (blob keys), and the
// message that sent it, if any (messages.attachment_id, unique: sent once; or, ours, a row of
// message_attachments: one of several photos sent at once); and what each user uploaded a day,
// for the daily quota.
import type { Knex } from '../../db/knex';
import type { VoiceFacts } from './voice';

/** A waveform as stored: its levels (0..255) as two hex digits each. */
export const waveformToHex = (levels: number[]): string => Buffer.from(levels).toString('hex');
export const waveformFromHex = (hex: string): number[] => [...Buffer.from(hex, 'hex')];

/** The voice facts of a row's kind, duration_ms and waveform columns (null unless a voice message). */
export function voiceOf(kind: string | null | undefined, durationMs: number | string | null | undefined, waveform: string | null | undefined): VoiceFacts | null {
  return kind === 'voice' && durationMs != null && waveform != null ? { durationMs: Number(durationMs), waveform: waveformFromHex(waveform) } : null;
}

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
  /** A voice message's facts (kind=voice); null for any other attachment. */
  voice: VoiceFacts | null;
  createdAtMs: number;
}

/** An attachment with the message that sent it, if one did. */
export interface AttachmentWithUse extends AttachmentRow {
  sentIn: { messageId: number; clientMsgId: string | null; deleted: boolean; seq: number } | null;
}

export type NewAttachment = Omit<AttachmentRow, 'id'>;

interface Row {
  id: number; public_id: string | null; room_id: number; uploader_id: number; name: string; content_type: string; size: number | string;
  blob_key: string; thumb_key: string | null; width: number | null; height: number | null; created_at_ms: number | string;
  kind?: string | null; duration_ms?: number | string | null; waveform?: string | null;
  message_id?: number | null; client_msg_id?: string | null; deleted_at_ms?: number | string | null; message_seq?: number | null;
}

const toAttachment = (r: Row): AttachmentRow => ({
  id: Number(r.id), publicId: r.public_id ?? '', roomId: Number(r.room_id), uploaderId: Number(r.uploader_id), name: r.name, contentType: r.content_type,
  size: Number(r.size), blobKey: r.blob_key, thumbKey: r.thumb_key, width: r.width === null ? null : Number(r.width),
  height: r.height === null ? null : Number(r.height), voice: voiceOf(r.kind, r.duration_ms, r.waveform), createdAtMs: Number(r.created_at_ms),
});

export class AttachmentsRepository {
  constructor(private readonly db: Knex) {}

  async insert(a: NewAttachment): Promise<number> {
    // The new id: [id] from both drivers (MariaDB has no RETURNING on INSERT through knex).
    const [id] = await this.db('attachments')
      .insert({
        public_id: a.publicId, room_id: a.roomId, uploader_id: a.uploaderId, name: a.name, content_type: a.contentType, size: a.size,
        blob_key: a.blobKey, thumb_key: a.thumbKey, width: a.width, height: a.height, created_at_ms: a.createdAtMs,
        kind: a.voice ? 'voice' : null, duration_ms: a.voice?.durationMs ?? null, waveform: a.voice ? waveformToHex(a.voice.waveform) : null,
      });
    return Number(id);
  }

  /** By its public id (the wire's), or by its row's key (`id`, as a message names it). */
  async find(by: { publicId: string } | { id: number }): Promise<AttachmentWithUse | null> {
    const [found] = await this.findMany('publicId' in by ? { publicIds: [by.publicId] } : { ids: [by.id] });
    return found ?? null;
  }

  /**
   * Several by their public ids (or row keys), each once, in no particular order: the message
   * that sent one is the one naming it in messages.attachment_id, or else in message_attachments.
   */
  async findMany(by: { publicIds: readonly string[] } | { ids: readonly number[] }): Promise<AttachmentWithUse[]> {
    const q = this.db('attachments as a')
      .leftJoin('messages as m', 'm.attachment_id', 'a.id')
      // The message that sent it is in its room: a forward elsewhere (issue 27) shows it, never sent it.
      .leftJoin('message_attachments as ma', (on) => { on.on('ma.attachment_id', '=', 'a.id').andOn('ma.room_id', '=', 'a.room_id').andOnNull('m.id'); })
      .leftJoin('messages as m2', 'm2.id', 'ma.message_id')
      .select(
        'a.*',
        this.db.raw('coalesce(m.id, m2.id) as message_id'), this.db.raw('coalesce(m.client_msg_id, m2.client_msg_id) as client_msg_id'),
        this.db.raw('coalesce(m.deleted_at_ms, m2.deleted_at_ms) as deleted_at_ms'), this.db.raw('coalesce(m.seq, m2.seq) as message_seq'),
      );
    // The earliest message first (a forward into the same room comes after the send).
    void q.orderBy('ma.message_id', 'asc');
    if ('publicIds' in by) void q.whereIn('a.public_id', by.publicIds);
    else void q.whereIn('a.id', by.ids);
    const rows = (await q) as Row[];
    const out = new Map<number, AttachmentWithUse>();
    for (const row of rows) {
      if (out.has(Number(row.id))) continue;
      const sentIn = row.message_id == null
        ? null
        : { messageId: Number(row.message_id), clientMsgId: row.client_msg_id ?? null, deleted: row.deleted_at_ms != null, seq: Number(row.message_seq ?? 0) };
      out.set(Number(row.id), { ...toAttachment(row), sentIn });
    }
    return [...out.values()];
  }

  /** Whether the user is a member of the room (read here: chat's members cache is chat's own). */
  async isMember(roomId: number, userId: number): Promise<boolean> {
    return (await this.db('room_members').select('user_id').where({ room_id: roomId, user_id: userId }).first()) !== undefined;
  }

  /** The first seq the member may read in the room (a private past: 0 for everything); null when no member. */
  async visibleFrom(roomId: number, userId: number): Promise<number | null> {
    const row = (await this.db('room_members').select('visible_from_seq').where({ room_id: roomId, user_id: userId }).first()) as { visible_from_seq: number } | undefined;
    return row ? Number(row.visible_from_seq) : null;
  }

  /**
   * Ours (issue 27): whether the user may read the attachment through a forward of it: a message
   * not deleted referencing it, in a room the user is a member of, from their joining on.
   */
  async readableThroughForward(id: number, userId: number): Promise<boolean> {
    // Every message's attachments have rows in message_attachments, a forward's included.
    const row = (await this.db('message_attachments as ma')
      .join('messages as m', 'm.id', 'ma.message_id')
      .join('room_members as rm', (j) => j.on('rm.room_id', 'm.room_id').andOnVal('rm.user_id', userId))
      .select('m.id')
      .where('ma.attachment_id', id)
      .where('m.forwarded', true)
      .whereNull('m.deleted_at_ms')
      .whereRaw('m.seq >= rm.visible_from_seq')
      .first()) as { id: number } | undefined;
    return row !== undefined;
  }

  async delete(id: number): Promise<void> {
    // (Its message_attachments rows cascade; said here too, for a database not enforcing keys.)
    await this.db('message_attachments').where({ attachment_id: id }).delete();
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
      .whereNotExists((q) => { void q.select(this.db.raw('1')).from('message_attachments').where('message_attachments.attachment_id', id); })
      .delete();
    return Number(removed) > 0;
  }

  /**
   * Removes the room's attachments (in the transaction deleting the room) and answers their blob
   * keys. Ours (issue 27): one a forward elsewhere still shows is not removed but moves to that
   * forward's room (the lowest id, if several), whose members read it through the forward.
   */
  async removeRoom(trx: Knex.Transaction, roomId: number): Promise<string[]> {
    const shownElsewhere = await trx<object, Array<{ id: number; to_room: number }>>('message_attachments as ma')
      .join('attachments as a', 'a.id', 'ma.attachment_id')
      .join('messages as m', 'm.id', 'ma.message_id')
      .where('a.room_id', roomId)
      .whereNot('ma.room_id', roomId)
      .whereNull('m.deleted_at_ms')
      .groupBy('ma.attachment_id')
      .select('ma.attachment_id as id', trx.raw('min(ma.room_id) as to_room'));
    const byTarget = new Map<number, number[]>();
    for (const { id, to_room } of shownElsewhere) byTarget.set(Number(to_room), [...(byTarget.get(Number(to_room)) ?? []), Number(id)]);
    for (const [toRoom, ids] of byTarget) await trx('attachments').whereIn('id', ids).update({ room_id: toRoom });
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
      .whereNotExists((q) => { void q.select(this.db.raw('1')).from('message_attachments as ma').whereRaw('ma.attachment_id = a.id'); })
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
      .whereNotExists((q) => { void q.select(this.db.raw('1')).from('message_attachments as ma').whereRaw('ma.attachment_id = a.id'); })
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
