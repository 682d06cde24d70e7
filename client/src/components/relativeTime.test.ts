import { expect } from 'chai';
import { relativeTime } from './relativeTime';

const now = new Date(2026, 10, 21, 15, 30, 0).getTime();
const ago = (ms: number) => new Date(now - ms).toISOString();
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe('relative time of a chat row', () => {
  const table: Array<[string, string | null, string]> = [
    ['no last message', null, '메시지 없음'],
    ['an unreadable time', 'not a date', '메시지 없음'],
    ['this very moment', ago(0), '방금'],
    ['59 seconds ago', ago(59 * SECOND), '방금'],
    ['a clock slightly ahead', ago(-5 * SECOND), '방금'],
    ['exactly one minute ago', ago(MINUTE), '1분 전'],
    ['59 minutes 59 seconds ago', ago(HOUR - SECOND), '59분 전'],
    ['exactly one hour ago', ago(HOUR), '1시간 전'],
    ['2 hours 59 minutes ago', ago(3 * HOUR - MINUTE), '2시간 전'],
    ['23 hours 59 minutes ago', ago(DAY - MINUTE), '23시간 전'],
    ['exactly one day ago', ago(DAY), '1일 전'],
    ['6 days 23 hours ago', ago(7 * DAY - HOUR), '6일 전'],
    ['14 days ago', ago(14 * DAY), '14일 전'],
    ['14 days 23 hours ago', ago(15 * DAY - HOUR), '14일 전'],
    ['15 days ago', ago(15 * DAY), '2026-11-06'],
    ['last year', new Date(2025, 0, 5, 9, 0).toISOString(), '2025-01-05'],
  ];
  for (const [when, time, expected] of table) {
    it(`reads "${expected}" for ${when}`, () => {
      expect(relativeTime(time, now)).to.equal(expected);
    });
  }
});
