import { expect } from 'chai';
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import type { ChatMessage, ChatSummary } from '@common/api';
import { LaidOutMessageList } from '../room/messageList.test-support';
import { ChatRow } from './ChatRow';

describe('unread counts', () => {
  afterEach(cleanup);
  const now = Date.parse('2026-11-21T10:05:00.000Z');
  const chat = (extra: Partial<ChatSummary>): ChatSummary => ({
    chatRoomId: 9, chatRoomName: '저녁 약속', lastMessage: '7시 어때요?', lastMessageTime: '2026-11-21T10:00:00.000Z', lastReadAt: null, ...extra,
  });
  const row = (c: ChatSummary) => render(<MemoryRouter><ul><ChatRow chat={c} now={now} /></ul></MemoryRouter>);

  it('shows a room\'s unread count instead of the dot, 99+ beyond 99, and nothing at 0', () => {
    row(chat({ unreadCount: 3, lastSeq: 10 }));
    expect(screen.getByTestId('unread-count').textContent).to.equal('3');
    expect(screen.queryByTestId('unread-dot')).to.equal(null);
    cleanup();
    row(chat({ unreadCount: 150, lastSeq: 150 }));
    expect(screen.getByTestId('unread-count').textContent).to.equal('99+');
    expect(screen.getByTestId('unread-count').getAttribute('aria-label')).to.equal('읽지 않은 메시지 150개');
    cleanup();
    row(chat({ unreadCount: 0, lastSeq: 10 }));
    expect(screen.queryByTestId('unread-count')).to.equal(null);
    expect(screen.queryByTestId('unread-dot')).to.equal(null);
  });

  it('shows beside each message how many members have not read it, and nothing once all have', () => {
    const messages: ChatMessage[] = [1, 2].map((seq) => ({
      messageId: seq, seq, senderId: 2, senderName: '김철수', content: `m${seq}`, enrolledAt: '2026-11-21T10:00:00.000Z', clientMsgId: null,
    }));
    render(<LaidOutMessageList messages={messages} pending={[]} myId={1} hasOlder={false} loadingOlder={false} onNeedOlder={() => {}} unreadByOf={(seq) => (seq === 2 ? 2 : 0)} />);
    const counts = screen.getAllByTestId('read-count');
    expect(counts.map((c) => c.textContent)).to.deep.equal(['2']);
    expect(counts[0].getAttribute('aria-label')).to.equal('2명이 읽지 않음');
  });

  it('pictures a group with a group mark and a two-person room with the other person\'s initial', () => {
    row(chat({ chatRoomName: 'Ben, Cat 외 1명', memberCount: 4 }));
    expect(screen.getByTestId('group-avatar').getAttribute('aria-label')).to.equal('4명의 그룹 채팅');
    cleanup();
    row(chat({ chatRoomName: 'Ben', memberCount: 2 }));
    expect(screen.queryByTestId('group-avatar')).to.equal(null);
    expect(screen.getByText('B')).to.exist;
  });
});
