// GET /api/calls (docs/protocol.md): the signed-in user's calls, newest first, a page at a time;
// `before` is the callId of the oldest call the client holds.
import type { CallsResponse } from '@common/api';
import type { CallsRepository } from './calls-repository';

export const CALLS_PAGE_DEFAULT = 30;
export const CALLS_PAGE_MAX = 100;

export async function callHistory(calls: CallsRepository, userId: number, before: number | null, limit: number): Promise<CallsResponse> {
  const rows = await calls.ofUser(userId, before, limit + 1);
  return {
    calls: rows.slice(0, limit).map((c) => ({
      callId: c.id,
      peerUserId: c.peerId,
      peerName: c.peerName,
      peerPhotoVersion: c.peerPhotoVersion,
      media: c.media,
      direction: c.outgoing ? 'outgoing' : 'incoming',
      outcome: c.outcome,
      startedAt: new Date(c.startedAtMs).toISOString(),
      durationSec: c.durationSec,
    })),
    hasMore: rows.length > limit,
  };
}
