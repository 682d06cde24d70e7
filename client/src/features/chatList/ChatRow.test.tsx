import { expect } from 'chai';
import { cleanup, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from '../../app/renderApp.test-support';
import type { ChatSummary } from '@common/api';
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

  it('pictures a group with a group mark and a two-person room with the other person\'s initial', () => {
    row(chat({ chatRoomName: 'Ben, Cat 외 1명', memberCount: 4 }));
    expect(screen.getByTestId('group-avatar').getAttribute('aria-label')).to.equal('4명의 그룹 채팅');
    cleanup();
    row(chat({ chatRoomName: 'Ben', memberCount: 2 }));
    expect(screen.queryByTestId('group-avatar')).to.equal(null);
    expect(screen.getByText('B')).to.exist;
  });
});

describe('a chat list row', () => {
  afterEach(cleanup);
  const now = Date.parse('2026-11-21T10:05:00.000Z');

  it('links to the room and shows the unread dot, the last message and its relative time', () => {
    const chat: ChatSummary = { chatRoomId: 9, chatRoomName: '저녁 약속', lastMessage: '7시 어때요?', lastMessageTime: '2026-11-21T10:00:00.000Z', lastReadAt: null };
    render(<MemoryRouter><ul><ChatRow chat={chat} now={now} /></ul></MemoryRouter>);
    const row = screen.getByTestId('chat-row');
    expect(row.getAttribute('href')).to.equal('/chat-room?cri=9');
    expect(within(row).getByText('7시 어때요?')).to.exist;
    expect(within(row).getByText('5분 전')).to.exist;
    expect(within(row).getByTestId('unread-dot')).to.exist;
  });

  it('invites to start a conversation when the room has no message yet', () => {
    const chat: ChatSummary = { chatRoomId: 3, chatRoomName: '새 방', lastMessage: null, lastMessageTime: null, lastReadAt: null };
    render(<MemoryRouter><ul><ChatRow chat={chat} now={now} /></ul></MemoryRouter>);
    expect(screen.getByText('대화를 시작해보세요')).to.exist;
    expect(screen.getByText('메시지 없음')).to.exist;
    expect(screen.queryByTestId('unread-dot')).to.equal(null);
  });
});

describe('a chat list row\'s own marks (issue 26)', () => {
  afterEach(cleanup);
  const now = Date.parse('2026-11-21T10:05:00.000Z');
  const chat = (extra: Partial<ChatSummary>): ChatSummary => ({
    chatRoomId: 9, chatRoomName: '저녁 약속', lastMessage: '7시 어때요?', lastMessageTime: '2026-11-21T10:00:00.000Z', lastReadAt: null, unreadCount: 2, lastSeq: 10, ...extra,
  });
  const row = (c: ChatSummary) => render(<MemoryRouter><ul><ChatRow chat={c} now={now} /></ul></MemoryRouter>);

  it('names the pinned, muted and mention marks, and greys a muted room\'s count', () => {
    row(chat({ pinned: true, muted: true, mentioned: true }));
    expect(screen.getByRole('img', { name: '고정됨' })).to.exist;
    expect(screen.getByRole('img', { name: '알림 꺼짐' })).to.exist;
    expect(screen.getByRole('img', { name: '나를 멘션함' }).textContent).to.equal('@');
    expect(screen.getByTestId('chat-row').className).to.contain('chat-row--muted');
    expect(screen.getByTestId('unread-count').textContent).to.equal('2');
  });

  it('shows none of them for a plain room', () => {
    row(chat({}));
    expect(screen.queryByRole('img', { name: '고정됨' })).to.equal(null);
    expect(screen.queryByRole('img', { name: '알림 꺼짐' })).to.equal(null);
    expect(screen.queryByRole('img', { name: '나를 멘션함' })).to.equal(null);
    expect(screen.getByTestId('chat-row').className).not.to.contain('chat-row--muted');
  });
});

describe('a chat list row\'s people and calls', () => {
  afterEach(cleanup);
  const now = Date.parse('2026-11-21T10:05:00.000Z');
  const chat = (extra: Partial<ChatSummary>): ChatSummary => ({
    chatRoomId: 9, chatRoomName: 'Ben', lastMessage: '7시 어때요?', lastMessageTime: '2026-11-21T10:00:00.000Z', lastReadAt: null, ...extra,
  });
  const row = (c: ChatSummary) => render(<MemoryRouter><ul><ChatRow chat={c} now={now} /></ul></MemoryRouter>);

  it('shows the other person\'s photo in a two-person room, and their initial while they have none', () => {
    const { container } = row(chat({ memberCount: 2, peer: { userId: 42, photoVersion: 'v7' } }));
    expect(container.querySelector('img.avatar--photo')?.getAttribute('src')).to.equal('/api/users/42/photo?size=small&v=v7');
    cleanup();
    const again = row(chat({ memberCount: 2, peer: { userId: 42, photoVersion: null } }));
    expect(again.container.querySelector('img')).to.equal(null);
    expect(screen.getByText('B')).to.exist;
  });

  it('marks a room with a group call on, named with how many are in it, and no mark without one', () => {
    row(chat({ memberCount: 5, groupCall: { media: 'video', participantCount: 3 } }));
    expect(screen.getByRole('img', { name: '그룹통화 중 · 3명' })).to.exist;
    cleanup();
    row(chat({ memberCount: 5 }));
    expect(screen.queryByTestId('group-call-mark')).to.equal(null);
  });
});
