// The exact Korean texts of docs/spec.md's system messages (rename, add, leave). The server stores
// them as a system message's `content` (the original client parses them); our client renders
// the same text from the message's structured `systemEvent`, never by parsing Korean.
import type { CallSystemEvent, GroupCallSystemEvent, SystemEvent } from './api';

/** Ours (issue 27): the name of a user's own memo room (POST /api/chat-room/self). */
export const MEMO_ROOM_NAME = '나와의 채팅';

export const systemText = {
  renamed: (who: string, newName: string) => `"${who}"님이 채팅 이름을 "${newName}" (으)로 변경하였습니다`,
  added: (inviter: string, added: string) => `"${inviter}" 님이 "${added}" 님을 추가했습니다`,
  left: (who: string) => `"${who}"님이 채팅에서 나갔습니다`,
};

/**
 * Ours: a call's record as its stored `content` reads, neutral for both people (docs/spec.md,
 * call record): "음성통화 00:38", "영상통화 01:02:03", "음성통화 (응답 없음)", (거절됨), (취소됨).
 */
export function callRecordText(event: Pick<CallSystemEvent, 'media' | 'outcome' | 'durationSec'>): string {
  const kind = event.media === 'video' ? '영상통화' : '음성통화';
  switch (event.outcome) {
    case 'answered':
      return `${kind} ${callDuration(event.durationSec)}`;
    case 'missed':
      return `${kind} (응답 없음)`;
    case 'rejected':
      return `${kind} (거절됨)`;
    case 'cancelled':
      return `${kind} (취소됨)`;
  }
}

/** Ours: a group call's record, neutral: "그룹 음성통화 00:38 · 3명", "그룹 영상통화 01:02:03 · 5명". */
export function groupCallRecordText(event: Pick<GroupCallSystemEvent, 'media' | 'durationSec' | 'participantCount'>): string {
  const kind = event.media === 'video' ? '그룹 영상통화' : '그룹 음성통화';
  return `${kind} ${callDuration(event.durationSec)} · ${event.participantCount}명`;
}

/** A call's length: mm:ss, or hh:mm:ss from an hour on. */
export function callDuration(totalSec: number): string {
  const s = Math.max(0, Math.floor(totalSec));
  const two = (n: number) => String(n).padStart(2, '0');
  const h = Math.floor(s / 3600);
  const mmss = `${two(Math.floor((s % 3600) / 60))}:${two(s % 60)}`;
  return h > 0 ? `${two(h)}:${mmss}` : mmss;
}

/** What a message deleted for everyone reads as: in the chat list, in reply quotes, in the room. */
export const DELETED_MESSAGE_TEXT = '삭제된 메시지입니다.';
/** Ours: a reply's quote of a message by someone the reader blocked (docs/protocol.md, blocks). */
export const BLOCKED_QUOTE_TEXT = '차단한 사용자의 메시지입니다.';

/** The line a system event reads as. */
export function systemEventText(event: SystemEvent): string {
  switch (event.type) {
    case 'renamed':
      return systemText.renamed(event.actorName, event.newName ?? '');
    case 'added':
      return systemText.added(event.actorName, event.targetName ?? '');
    case 'left':
      return systemText.left(event.actorName);
    case 'call':
      return callRecordText(event);
    case 'groupCall':
      return groupCallRecordText(event);
  }
}
