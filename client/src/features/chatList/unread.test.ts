import { expect } from 'chai';
import type { ChatSummary } from '@common/api';
import { countLabel, isUnread, signalCounts } from './unread';

describe('the unread dot of a chat row', () => {
  const table: Array<[string, { lastMessage: string | null; lastMessageTime: string | null; lastReadAt: string | null }, boolean]> = [
    ['a room with no message', { lastMessage: null, lastMessageTime: null, lastReadAt: null }, false],
    ['a room with no message but a read marker', { lastMessage: null, lastMessageTime: null, lastReadAt: '2026-11-21T10:00:00.000Z' }, false],
    ['a message never read', { lastMessage: '안녕', lastMessageTime: '2026-11-21T10:00:00.000Z', lastReadAt: null }, true],
    ['a message later than the read marker', { lastMessage: '안녕', lastMessageTime: '2026-11-21T10:00:01.000Z', lastReadAt: '2026-11-21T10:00:00.000Z' }, true],
    ['a message read at the same instant', { lastMessage: '안녕', lastMessageTime: '2026-11-21T10:00:00.000Z', lastReadAt: '2026-11-21T10:00:00.000Z' }, false],
    ['a message older than the read marker', { lastMessage: '안녕', lastMessageTime: '2026-11-21T09:00:00.000Z', lastReadAt: '2026-11-21T10:00:00.000Z' }, false],
    ['times in different offsets compared as instants', { lastMessage: '안녕', lastMessageTime: '2026-11-21T19:00:00+09:00', lastReadAt: '2026-11-21T10:30:00.000Z' }, false],
  ];
  for (const [what, chat, expected] of table) {
    it(`${expected ? 'shows' : 'hides'} the dot for ${what}`, () => {
      expect(isUnread(chat)).to.equal(expected);
    });
  }
});

describe('the unread count of a chat row', () => {
  it('labels room counts up to 99+', () => {
    expect([0, 1, 99, 100, 4321].map(countLabel)).to.deep.equal([null, '1', '99', '99+', '99+']);
  });
});

describe('whether a refresh signal raises the tab count', () => {
  const row = (extra: Partial<ChatSummary>): ChatSummary => ({
    chatRoomId: 1, chatRoomName: 'A', lastMessage: '안녕', lastMessageTime: '2026-11-21T10:00:00.000Z', lastReadAt: null, ...extra,
  });
  const later = '2026-11-21T10:01:00.000Z';

  it('counts a new message, not one in a muted room, and a signal that changed nothing', () => {
    expect(signalCounts([row({})], [row({ lastMessageTime: later })])).to.equal(true);
    expect(signalCounts([row({ muted: true })], [row({ muted: true, lastMessageTime: later })])).to.equal(false);
    expect(signalCounts([row({})], [row({})])).to.equal(true);
  });

  it('does not count a group call starting or changing size (issue 25), but counts a message with it', () => {
    const call = { media: 'audio' as const, participantCount: 1 };
    expect(signalCounts([row({})], [row({ groupCall: call })])).to.equal(false);
    expect(signalCounts([row({ groupCall: call })], [row({ groupCall: { ...call, participantCount: 2 } })])).to.equal(false);
    expect(signalCounts([row({ groupCall: call })], [row({ lastMessageTime: later })])).to.equal(true);
  });
});
