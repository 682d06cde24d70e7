// Ours: a room's drawer (docs/protocol.md, the drawer): its photos, files and links, newest
// first, a page at a time, read along one index range each (message_attachments' (room_id,
// kind, message_id, position, attachment_id), message_links' (room_id, message_id), each holding
// every column read of its table, so MariaDB reads a range of it rather than a whole room's
// prefix): a room of 100,000 messages answers as fast as a room of ten. A link is read from the
// message's text (its first http(s) URL, as it was found when stored or edited). What a reader may not see is filtered here, in
// page(), and nowhere else: deleted messages, messages before they joined (a bound on the
// message id, so the range stops there), senders they blocked.
import type { MediaKind } from '@common/api';
import type { Knex } from '../../db/knex';
import type { AttachmentFacts } from '../attachments/attachments-service';
import { drawerLink } from './message-links';
import { attachmentFactsOf } from './messages-repository';

/** Where a page starts: strictly before this message, or before this position of it (an album's photo). */
export interface MediaCursor { messageId: number; position?: number }

/** Who reads the drawer: what of the room they may see. */
export interface MediaReader {
  userId: number;
  /** The first seq they may read (a private past: 0 or 1 for everything). */
  visibleFromSeq: number;
  /** Senders they blocked: their messages are not shown. */
  blocked: readonly number[];
}

export interface MediaRow {
  messageId: number;
  position: number;
  seq: number;
  senderId: number | null;
  senderName: string;
  createdAtMs: number;
  attachment: AttachmentFacts | null;
  url: string | null;
}

interface Row {
  message_id: number; position?: number; seq: number; sender_id: number | null; sender_name: string | null; created_at_ms: number | string; content?: string;
  att_id: number | null; att_public_id: string | null; att_name: string | null; att_size: number | string | null; att_content_type: string | null;
  att_thumb_key: string | null; att_width: number | null; att_height: number | null;
}

export class MediaRepository {
  constructor(private readonly db: Knex) {}

  /** A page of the room's drawer of one kind, newest first: `limit` rows at most. */
  async page(roomId: number, kind: MediaKind, reader: MediaReader, before: MediaCursor | null, limit: number): Promise<MediaRow[]> {
    const link = kind === 'link';
    const q = link
      ? this.db('message_links as x').select('x.message_id', 'm.content').where('x.room_id', roomId)
      : this.db('message_attachments as x')
        .join('attachments as at', 'at.id', 'x.attachment_id')
        .select(
          'x.message_id', 'x.position', 'at.id as att_id', 'at.public_id as att_public_id', 'at.name as att_name', 'at.size as att_size',
          'at.content_type as att_content_type', 'at.thumb_key as att_thumb_key', 'at.width as att_width', 'at.height as att_height',
        )
        .where({ 'x.room_id': roomId, 'x.kind': kind });
    q.join('messages as m', 'm.id', 'x.message_id')
      .leftJoin('users as u', 'u.id', 'm.sender_id')
      .select('m.seq', 'm.sender_id', 'u.name as sender_name', 'm.created_at_ms')
      .whereNull('m.deleted_at_ms');
    if (before) {
      // A range of the index up to the cursor's message; within it, only the album's earlier photos.
      if (link || before.position === undefined) q.where('x.message_id', '<', before.messageId);
      else q.where('x.message_id', '<=', before.messageId).whereNot((w) => { void w.where('x.message_id', before.messageId).andWhere('x.position', '>=', before.position!); });
    }
    // A private past: ids grow with seqs in a room, so the first visible message's id bounds the range.
    if (reader.visibleFromSeq > 1) {
      q.where('x.message_id', '>=', this.db.raw('coalesce((select v.id from messages as v where v.room_id = ? and v.seq = ?), 0)', [roomId, reader.visibleFromSeq]));
    }
    if (reader.blocked.length > 0) q.where((w) => { void w.whereNull('m.sender_id').orWhereNotIn('m.sender_id', reader.blocked); });
    // Delete for me (issue 27): the reader's hidden messages are not theirs to see here either.
    q.whereNotExists((h) => { void h.select(this.db.raw('1')).from('hidden_messages as h').where('h.user_id', reader.userId).whereRaw('h.message_id = x.message_id'); });
    q.orderBy(link ? [{ column: 'x.message_id', order: 'desc' }] : [{ column: 'x.message_id', order: 'desc' }, { column: 'x.position', order: 'desc' }]).limit(limit);
    const rows = (await q) as Row[];
    return rows.map((r) => ({
      messageId: Number(r.message_id), position: Number(r.position ?? 0), seq: Number(r.seq), senderId: r.sender_id === null ? null : Number(r.sender_id),
      senderName: r.sender_name ?? '', createdAtMs: Number(r.created_at_ms), attachment: link ? null : attachmentFactsOf(r), url: link ? drawerLink(r.content ?? '') : null,
    }));
  }
}
