// The chat list's "when" column (docs/spec.md §4 relative time, §9 cut-off), also the time of a
// message search result.
import { LIMITS } from '@common/rules';
import { ko } from '../i18n/ko';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** YYYY-MM-DD in the viewer's own time zone. */
export function localDate(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

export function relativeTime(isoTime: string | null, now: number): string {
  const time = isoTime ? Date.parse(isoTime) : NaN;
  if (Number.isNaN(time)) return ko.chatList.time.noMessage;
  // A clock slightly ahead of ours still reads as "just now".
  const elapsed = Math.max(0, now - time);
  if (elapsed < MINUTE) return ko.chatList.time.justNow;
  if (elapsed < HOUR) return ko.chatList.time.minutesAgo(Math.floor(elapsed / MINUTE));
  if (elapsed < DAY) return ko.chatList.time.hoursAgo(Math.floor(elapsed / HOUR));
  const days = Math.floor(elapsed / DAY);
  if (days <= LIMITS.relativeTimeCutoffDays) return ko.chatList.time.daysAgo(days);
  return localDate(new Date(time));
}
