import { expect } from 'chai';
import sinon from 'sinon';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from '../../app/renderApp.test-support';
import type { ChatMessage } from '@common/api';
import { settle } from '../../app/fakeServices';
import { DialogProvider, DialogQueue } from '../../components/dialogs';
import { Composer } from './Composer';
import { LaidOutMessageList } from './messageList.test-support';
import { RoomHeader } from './RoomHeader';
import { RoomSidebar } from './RoomSidebar';

const ME = 1;
function message(messageId: number, extra: Partial<ChatMessage> = {}): ChatMessage {
  return { messageId, senderId: 2, senderName: '김철수', content: `m${messageId}`, enrolledAt: '2026-11-21T10:00:00.000Z', clientMsgId: null, ...extra };
}

describe('the chat room components', () => {
  afterEach(() => {
    cleanup();
    sinon.restore();
  });

  it('renders message content as text, never as HTML', () => {
    const { container } = render(
      <LaidOutMessageList
        messages={[message(1, { content: '<img src=x onerror="alert(1)"><b>굵게</b>' })]}
        pending={[]}
        myId={ME}
        hasOlder={false}
        loadingOlder={false}
        onNeedOlder={() => {}}
      />,
    );
    expect(container.querySelector('img')).to.equal(null);
    expect(container.querySelector('b')).to.equal(null);
    expect(screen.getByText('<img src=x onerror="alert(1)"><b>굵게</b>')).to.exist;
  });

  it('puts own messages on their side, names the sender of others, centres system messages and marks pending sends', () => {
    render(
      <LaidOutMessageList
        messages={[
          message(1),
          message(2, { senderId: ME, senderName: '김민지', content: '내 메시지' }),
          message(3, { senderId: null, senderName: '방', content: '"김철수"님이 채팅에서 나갔습니다', leftUserId: 2 }),
        ]}
        pending={[{ clientMsgId: 'c1', content: '보내는 중인 메시지', createdAt: '2026-11-21T10:01:00.000Z' }]}
        myId={ME}
        hasOlder={false}
        loadingOlder={false}
        onNeedOlder={() => {}}
      />,
    );
    const theirs = screen.getAllByTestId('their-message');
    expect(theirs).to.have.length(1);
    expect(within(theirs[0]).getByText('김철수')).to.exist;
    const mine = screen.getAllByTestId('my-message');
    expect(mine.map((m) => m.querySelector('.bubble')?.textContent)).to.deep.equal(['내 메시지', '보내는 중인 메시지']);
    expect(within(mine[0]).queryByText('김민지')).to.equal(null);
    expect(within(mine[1]).getByText('전송 중')).to.exist;
    expect(screen.getByTestId('system-message').textContent).to.equal('"김철수"님이 채팅에서 나갔습니다');
  });

  it('asks for older messages when the first page does not fill the area', () => {
    const onNeedOlder = sinon.spy();
    render(<LaidOutMessageList messages={[message(21)]} pending={[]} myId={ME} hasOlder loadingOlder={false} onNeedOlder={onNeedOlder} />);
    expect(onNeedOlder.called).to.equal(true);
  });

  it('sends on Enter but not a blank message, and not while a Korean IME composition is open', () => {
    const onSend = sinon.spy();
    render(<Composer onSend={onSend} />);
    const input = screen.getByRole('textbox', { name: '메시지를 입력하세요' }) as HTMLTextAreaElement;
    expect(input.maxLength).to.equal(3000);
    fireEvent.change(input, { target: { value: '   ' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(onSend.called).to.equal(false);
    fireEvent.change(input, { target: { value: '안녕' } });
    fireEvent.keyDown(input, { key: 'Enter', isComposing: true });
    expect(onSend.called).to.equal(false);
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(onSend.args).to.deep.equal([['안녕']]);
    expect(input.value).to.equal('');
  });

  it('keeps Shift+Enter for a new line and shows the count near the 3000 limit', () => {
    const onSend = sinon.spy();
    render(<Composer onSend={onSend} />);
    const input = screen.getByRole('textbox', { name: '메시지를 입력하세요' }) as HTMLTextAreaElement;
    fireEvent.change(input, { target: { value: '첫 줄' } });
    fireEvent.keyDown(input, { key: 'Enter', shiftKey: true });
    expect(onSend.called).to.equal(false);
    expect(screen.queryByTestId('composer-count')).to.equal(null);
    fireEvent.change(input, { target: { value: 'ㄱ'.repeat(2800) } });
    expect(screen.getByTestId('composer-count').textContent).to.equal('2,800 / 3,000');
    expect(input.getAttribute('aria-describedby')).to.equal(screen.getByTestId('composer-count').id);
  });

  it('turns web and e-mail addresses into safe links and keeps everything else as text', async () => {
    render(
      <LaidOutMessageList
        messages={[message(1, { content: '자료 https://example.com/a?b=1 와 www.naver.com, 메일 me@example.kr <b>x</b> javascript:alert(1)' })]}
        pending={[]}
        myId={ME}
        hasOlder={false}
        loadingOlder={false}
        onNeedOlder={() => {}}
      />,
    );
    // The linkifier is fetched with the first message that may hold an address.
    const links = await screen.findAllByRole('link');
    expect(links.map((a) => a.getAttribute('href'))).to.deep.equal(['https://example.com/a?b=1', 'https://www.naver.com', 'mailto:me@example.kr']);
    for (const a of links) {
      expect(a.getAttribute('rel')).to.equal('noopener noreferrer');
      expect(a.getAttribute('target')).to.equal('_blank');
    }
    expect(document.querySelector('b')).to.equal(null);
    expect(screen.getByTestId('their-message').textContent).to.contain('<b>x</b> javascript:alert(1)');
  });

  it('folds a message over 500 characters behind 전체보기', () => {
    const long = '가'.repeat(620);
    render(<LaidOutMessageList messages={[message(1, { content: long })]} pending={[]} myId={ME} hasOlder={false} loadingOlder={false} onNeedOlder={() => {}} />);
    const bubble = () => screen.getByTestId('their-message').querySelector('.bubble')!;
    expect(bubble().textContent).to.contain(`${'가'.repeat(500)}…`);
    expect(bubble().textContent).not.to.contain('가'.repeat(501));
    fireEvent.click(screen.getByRole('button', { name: '전체보기' }));
    expect(bubble().textContent).to.equal(long);
  });

  it('offers 재전송 and 삭제 on a failed send', () => {
    const onResend = sinon.spy();
    const onDelete = sinon.spy();
    render(
      <LaidOutMessageList
        messages={[]}
        pending={[
          { clientMsgId: 'c1', content: '실패한 메시지', createdAt: '2026-11-21T10:01:00.000Z', failed: true },
          { clientMsgId: 'c2', content: '보내는 중', createdAt: '2026-11-21T10:01:00.000Z' },
        ]}
        myId={ME}
        hasOlder={false}
        loadingOlder={false}
        onNeedOlder={() => {}}
        onResend={onResend}
        onDelete={onDelete}
      />,
    );
    const [failed, sending] = screen.getAllByTestId('my-message');
    expect(within(failed).getByText('전송 실패')).to.exist;
    expect(within(sending).getByText('전송 중')).to.exist;
    fireEvent.click(within(failed).getByRole('button', { name: '"실패한 메시지" 다시 보내기' }));
    fireEvent.click(within(failed).getByRole('button', { name: '"실패한 메시지" 삭제' }));
    expect(onResend.args).to.deep.equal([['c1']]);
    expect(onDelete.args).to.deep.equal([['c1']]);
    expect(within(sending).queryByRole('button')).to.equal(null);
  });

  it('renames with O, cancels with X, and does not submit a blank name', () => {
    const onRename = sinon.spy();
    render(
      <MemoryRouter>
        <RoomHeader roomName="김민지, 김철수" memberCount={2} onRename={onRename} onOpenSidebar={() => {}} />
      </MemoryRouter>,
    );
    fireEvent.click(screen.getByRole('button', { name: '김민지, 김철수' }));
    const input = screen.getByLabelText('채팅방 이름') as HTMLInputElement;
    expect(input.maxLength).to.equal(50);
    fireEvent.change(input, { target: { value: '   ' } });
    fireEvent.click(screen.getByRole('button', { name: '이름 변경 확인' }));
    expect(onRename.called).to.equal(false);
    fireEvent.click(screen.getByRole('button', { name: '이름 변경 취소' }));
    expect(screen.queryByLabelText('채팅방 이름')).to.equal(null);

    fireEvent.click(screen.getByRole('button', { name: '김민지, 김철수' }));
    fireEvent.change(screen.getByLabelText('채팅방 이름'), { target: { value: ' 주말 계획 ' } });
    expect(screen.getByRole('button', { name: '이름 변경 확인' }).textContent).to.equal('O');
    fireEvent.click(screen.getByRole('button', { name: '이름 변경 확인' }));
    expect(onRename.args).to.deep.equal([['주말 계획']]);
  });

  it('lists participants with their count, (You) and e-mails, and confirms before leaving in the app\'s dialog', async () => {
    const onLeave = sinon.spy();
    render(
      <DialogProvider queue={new DialogQueue()}>
        <MemoryRouter>
          <RoomSidebar
            users={[{ userId: ME, name: '김민지', email: 'minji@example.com' }, { userId: 2, name: '김철수', email: 'kim@example.com' }]}
            myId={ME}
            invitePath="/add-user-to-chat?cri=7"
            notification="idle"
            onNotify={() => {}}
            onLeave={onLeave}
            onClose={() => {}}
          />
        </MemoryRouter>
      </DialogProvider>,
    );
    expect(document.activeElement).to.equal(screen.getByRole('complementary'));
    expect(screen.getByTestId('participant-count').textContent).to.equal('참여자 2명');
    const [me, other] = screen.getAllByTestId('participant');
    expect(within(me).getByText('(You)')).to.exist;
    expect(within(other).queryByText('(You)')).to.equal(null);
    expect(within(other).getByText('kim@example.com')).to.exist;
    expect(screen.getByRole('link', { name: '대화상대 초대' }).getAttribute('href')).to.equal('/add-user-to-chat?cri=7');

    fireEvent.click(screen.getByRole('button', { name: '채팅방 나가기' }));
    expect(screen.getByRole('alertdialog', { name: '정말 채팅방을 나가시겠습니까?' })).to.exist;
    fireEvent.click(screen.getByRole('button', { name: '취소' }));
    await settle();
    expect(onLeave.called).to.equal(false);
    fireEvent.click(screen.getByRole('button', { name: '채팅방 나가기' }));
    fireEvent.click(screen.getByRole('button', { name: '확인' }));
    await settle();
    expect(onLeave.calledOnce).to.equal(true);
  });

  it('opens another member\'s profile card from their photo and name (not the user\'s own), showing their photo', () => {
    const onOpenProfile = sinon.spy();
    const other = { userId: 2, name: '김철수', email: 'kim@example.com', photoVersion: 'p1', statusMessage: '바빠요' };
    const { container } = render(
      <DialogProvider queue={new DialogQueue()}>
        <MemoryRouter>
          <RoomSidebar
            users={[{ userId: ME, name: '김민지', email: 'minji@example.com' }, other]}
            myId={ME}
            invitePath="/x"
            notification="idle"
            onNotify={() => {}}
            onLeave={() => {}}
            onClose={() => {}}
            onOpenProfile={onOpenProfile}
          />
        </MemoryRouter>
      </DialogProvider>,
    );
    expect(screen.queryByRole('button', { name: /김민지/ })).to.equal(null);
    fireEvent.click(screen.getByRole('button', { name: /김철수/ }));
    expect(onOpenProfile.args).to.deep.equal([[other]]);
    expect(container.querySelector('img.avatar--photo')?.getAttribute('src')).to.equal('/api/users/2/photo?size=small&v=p1');
  });

  it('asks before sending the notification e-mail, with the spec\'s text', async () => {
    const onNotify = sinon.spy();
    render(
      <DialogProvider queue={new DialogQueue()}>
        <MemoryRouter>
          <RoomSidebar users={[]} myId={ME} invitePath="/x" notification="idle" onNotify={onNotify} onLeave={() => {}} onClose={() => {}} />
        </MemoryRouter>
      </DialogProvider>,
    );
    fireEvent.click(screen.getByRole('button', { name: '알림 메일 보내기' }));
    fireEvent.click(within(screen.getByRole('alertdialog', { name: '채팅방의 모든 사용자에게 알림 메일을 보내시겠습니까?' })).getByRole('button', { name: '확인' }));
    await settle();
    expect(onNotify.calledOnce).to.equal(true);
  });

  it('disables the notification button while sending and after it is done', () => {
    const props = { users: [], myId: ME, invitePath: '/x', onNotify: () => {}, onLeave: () => {}, onClose: () => {} };
    const queue = new DialogQueue();
    const { rerender } = render(<DialogProvider queue={queue}><MemoryRouter><RoomSidebar {...props} notification="sending" /></MemoryRouter></DialogProvider>);
    expect((screen.getByRole('button', { name: '알림 메일 보내는 중...' }) as HTMLButtonElement).disabled).to.equal(true);
    rerender(<DialogProvider queue={queue}><MemoryRouter><RoomSidebar {...props} notification="done" /></MemoryRouter></DialogProvider>);
    expect((screen.getByRole('button', { name: '알림 메일을 보냈습니다' }) as HTMLButtonElement).disabled).to.equal(true);
  });
});

describe('read counts beside messages', () => {
  afterEach(cleanup);

  it('shows beside each message how many members have not read it, and nothing once all have', () => {
    const messages: ChatMessage[] = [1, 2].map((seq) => ({
      messageId: seq, seq, senderId: 2, senderName: '김철수', content: `m${seq}`, enrolledAt: '2026-11-21T10:00:00.000Z', clientMsgId: null,
    }));
    render(<LaidOutMessageList messages={messages} pending={[]} myId={1} hasOlder={false} loadingOlder={false} onNeedOlder={() => {}} unreadByOf={(seq) => (seq === 2 ? 2 : 0)} />);
    const counts = screen.getAllByTestId('read-count');
    expect(counts.map((c) => c.textContent)).to.deep.equal(['2']);
    expect(counts[0].getAttribute('aria-label')).to.equal('2명이 읽지 않음');
  });
});
