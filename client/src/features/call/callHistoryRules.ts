// 통화 기록's pure decisions (docs/spec.md §2): which entries count as missed, and GET /api/calls's
// body checked entry by entry. Apart from callRules.ts, so only the history's chunk carries them.
import type { CallOutcome, CallRecord, CallsResponse } from '@common/api';

/** Missed calls in a call-history page: incoming calls this user did not answer. */
export function isMissedCall(entry: { direction: 'outgoing' | 'incoming'; outcome: CallOutcome }): boolean {
  return entry.direction === 'incoming' && (entry.outcome === 'missed' || entry.outcome === 'cancelled');
}

/** GET /api/calls's body, its entries checked one by one (a malformed one is left out). */
export function decodeCallHistory(value: unknown): CallsResponse {
  const body = (typeof value === 'object' && value !== null ? value : {}) as { calls?: unknown; hasMore?: unknown };
  const calls = Array.isArray(body.calls) ? body.calls : [];
  const outcomes: readonly CallOutcome[] = ['answered', 'missed', 'rejected', 'cancelled'];
  const valid = calls.filter((c): c is CallRecord => {
    if (typeof c !== 'object' || c === null) return false;
    const e = c as Partial<Record<keyof CallRecord, unknown>>;
    return (
      typeof e.callId === 'number' &&
      typeof e.peerUserId === 'number' &&
      typeof e.peerName === 'string' &&
      (e.media === 'audio' || e.media === 'video') &&
      (e.direction === 'outgoing' || e.direction === 'incoming') &&
      outcomes.includes(e.outcome as CallOutcome) &&
      typeof e.startedAt === 'string' &&
      typeof e.durationSec === 'number'
    );
  });
  return { calls: valid, hasMore: body.hasMore === true };
}
