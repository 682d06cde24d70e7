// The call record (the calls table): one row per call, written when it ends, and each user's
// calls newest first for GET /api/calls. A user's calls are the union of two index ranges,
// (caller_id, id) and (callee_id, id), each read newest first and cut at the page's size, so a
// page costs about `limit` index entries whatever the user's history (an OR would sort them all).
import type { CallMedia, CallOutcome } from '@common/api';
import type { Knex } from '../../db/knex';

export interface NewCallRow {
  callerId: number;
  calleeId: number;
  roomId: number | null;
  media: CallMedia;
  outcome: CallOutcome;
  startedAtMs: number;
  answeredAtMs: number | null;
  endedAtMs: number;
  durationSec: number;
}

/** A call as one of its two people sees it. */
export interface CallOfUser {
  id: number;
  peerId: number;
  peerName: string;
  /** The peer's profile photo version (docs/protocol.md, profiles); null when none. */
  peerPhotoVersion: string | null;
  media: CallMedia;
  outgoing: boolean;
  outcome: CallOutcome;
  startedAtMs: number;
  durationSec: number;
}

interface CallRow {
  id: number;
  caller_id: number;
  callee_id: number;
  media: string;
  outcome: string;
  started_at_ms: number | string;
  duration_sec: number;
  peer_name: string;
  peer_photo_version: string | null;
}

export class CallsRepository {
  constructor(private readonly db: Knex) {}

  async insert(row: NewCallRow): Promise<number> {
    // Both engines answer [insert id] to a plain insert.
    const [id] = await this.db('calls').insert({
      caller_id: row.callerId, callee_id: row.calleeId, room_id: row.roomId, media: row.media, outcome: row.outcome,
      started_at_ms: row.startedAtMs, answered_at_ms: row.answeredAtMs, ended_at_ms: row.endedAtMs, duration_sec: row.durationSec,
    });
    return Number(id);
  }

  /** The user's calls older than `beforeId` (all when null), newest first, at most `limit`. */
  async ofUser(userId: number, beforeId: number | null, limit: number): Promise<CallOfUser[]> {
    const { db } = this;
    const side = (column: 'caller_id' | 'callee_id', alias: string) =>
      db.select('*').from(
        db('calls').select('id', 'caller_id', 'callee_id', 'media', 'outcome', 'started_at_ms', 'duration_sec')
          .where(column, userId)
          .modify((q) => void (beforeId !== null && q.where('id', '<', beforeId)))
          .orderBy('id', 'desc')
          .limit(limit)
          .as(alias),
      );
    const rows = await db
      .select<CallRow[]>('c.*', 'u.name as peer_name', 'u.photo_version as peer_photo_version')
      .from(side('caller_id', 'mine_out').unionAll(side('callee_id', 'mine_in')).as('c'))
      .join('users as u', 'u.id', db.raw('case when c.caller_id = ? then c.callee_id else c.caller_id end', [userId]))
      .orderBy('c.id', 'desc')
      .limit(limit);
    return rows.map((r) => {
      const outgoing = Number(r.caller_id) === userId;
      return {
        id: Number(r.id), peerId: Number(outgoing ? r.callee_id : r.caller_id), peerName: r.peer_name, peerPhotoVersion: r.peer_photo_version ?? null, media: r.media as CallMedia,
        outgoing, outcome: r.outcome as CallOutcome, startedAtMs: Number(r.started_at_ms), durationSec: Number(r.duration_sec),
      };
    });
  }
}
