import { expect } from 'chai';
import type { ChatMessage } from '@common/api';
import { layoutMessages } from './messageLayout';

function at(messageId: number, iso: string, senderId: number | null = 2): ChatMessage {
  return { messageId, senderId, senderName: senderId === null ? '방' : `u${senderId}`, content: `m${messageId}`, enrolledAt: iso };
}

describe('laying out a room\'s messages', () => {
  it('starts each day with a divider and runs of one sender in one minute share a name and a time', () => {
    const items = layoutMessages(
      [
        at(1, '2026-11-20T10:00:05'),
        at(2, '2026-11-21T10:00:05'),
        at(3, '2026-11-21T10:00:40'),
        at(4, '2026-11-21T10:00:50', 1),
        at(5, '2026-11-21T10:01:00', null),
        at(6, '2026-11-21T10:01:10'),
      ],
      [],
      1,
    );
    expect(items.map((i) => (i.kind === 'message' ? `${i.key}${i.mine ? '*' : ''}${i.showSender ? 'N' : ''}${i.showTime ? 'T' : ''}` : i.kind))).to.deep.equal([
      'day', 'm1NT', 'day', 'm2N', 'm3T', 'm4*NT', 'system', 'm6NT',
    ]);
  });

  it('puts pending sends after every stored message, as the user\'s own', () => {
    const items = layoutMessages([at(1, '2026-11-21T10:00:00')], [{ clientMsgId: 'x', content: '대기', createdAt: '2026-11-21T10:00:30' }], 1);
    const last = items[items.length - 1];
    expect(last).to.include({ kind: 'message', key: 'px', mine: true, pending: true, content: '대기' });
  });

  it('gives a sender\'s messages their photo while they are a member with one, and none otherwise', () => {
    const members = [{ userId: 2, name: 'u2', photoVersion: 'p9' }, { userId: 3, name: 'u3', photoVersion: null }];
    const items = layoutMessages([at(1, '2026-11-21T10:00:00'), at(2, '2026-11-21T10:05:00', 3), at(3, '2026-11-21T10:06:00', 4)], [], 1, members);
    expect(items.flatMap((i) => (i.kind === 'message' ? [i.senderPhoto ?? null] : []))).to.deep.equal([{ userId: 2, photoVersion: 'p9' }, null, null]);
  });
});
