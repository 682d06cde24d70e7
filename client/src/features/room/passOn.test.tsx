// Issue 27 in the room: the message menu's 복사, 전달, 나에게서 삭제 and 선택, the forwarded mark, the
// multi-select ticks, the selection bar, and what the slices do with hidden messages and the memo room.
import { expect } from 'chai';
import sinon from 'sinon';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import type { ChatHistoryResponse, ChatMessage, ChatSummary } from '@common/api';
import { koPassOn } from '../../i18n/koPassOn';
import { koPassOnExtras } from '../../i18n/koPassOnExtras';
import type { MessageActionHandlers } from './MessageExtras';
import { LaidOutMessageList } from './messageList.test-support';
import { SelectionBar } from './PassOn';
import { targetsOf } from './passOnRequests';
import { historyLoaded, messagesHidden, roomOpened, roomReducer, editStarted } from './roomSlice';

const ME = 1;
const message = (messageId: number, extra: Partial<ChatMessage> = {}): ChatMessage => ({
  messageId, seq: messageId, senderId: 2, senderName: '김철수', content: `m${messageId}`, enrolledAt: new Date().toISOString(), clientMsgId: null, ...extra,
});
const handlers = () => {
  const passOn = { onCopy: sinon.spy(), onForward: sinon.spy(), onHide: sinon.spy(), onSelect: sinon.spy() };
  const actions: MessageActionHandlers = { onReply: sinon.spy(), onEdit: sinon.spy(), onDelete: sinon.spy(), onReact: sinon.spy(), onJump: sinon.spy(), passOn };
  return { actions, passOn };
};

describe('passing messages on in the room', () => {
  afterEach(() => cleanup());

  it('offers 복사, 전달, 선택 and 나에게서 삭제 in the menu, and 복사 only for a message with text', async () => {
    const { actions, passOn } = handlers();
    render(<LaidOutMessageList messages={[message(1, { content: '복사할 글' }), message(2, { content: '' , attachment: { attachmentId: 'a'.repeat(22), name: 'f.pdf', size: 3, contentType: 'application/pdf', url: `/api/attachments/${'a'.repeat(22)}` } })]} pending={[]} myId={ME} hasOlder={false} loadingOlder={false} onNeedOlder={() => {}} actions={actions} />);
    const [first, second] = screen.getAllByTestId('message-menu-button');
    const menuItem = (name: string) => within(screen.getByTestId('message-menu')).findByRole('button', { name });
    for (const [label, spy, arg] of [[koPassOnExtras.copy, passOn.onCopy, '복사할 글'], [koPassOnExtras.forward, passOn.onForward, 1], [koPassOnExtras.select, passOn.onSelect, 1], [koPassOnExtras.hide, passOn.onHide, 1]] as const) {
      fireEvent.click(first);
      fireEvent.click(await menuItem(label));
      expect(spy.calledOnceWith(arg), label).to.equal(true);
      expect(screen.queryByTestId('message-menu'), 'the menu closes').to.equal(null);
    }
    fireEvent.click(second);
    expect(await menuItem(koPassOnExtras.forward)).to.exist;
    expect(within(screen.getByTestId('message-menu')).queryByRole('button', { name: koPassOnExtras.copy })).to.equal(null);
  });

  it('marks a forwarded message 전달됨, and in the multi-select mode ticks messages by name instead of offering menus', async () => {
    const { actions } = handlers();
    const onToggle = sinon.spy();
    const { rerender } = render(
      <LaidOutMessageList messages={[message(1, { forwarded: true, content: '전달된 글' }), message(2, { content: '', deleted: true })]} pending={[]} myId={ME} hasOlder={false} loadingOlder={false} onNeedOlder={() => {}} actions={actions} />,
    );
    expect(screen.getAllByTestId('forwarded-mark').map((m) => m.textContent)).to.deep.equal([koPassOn.forwarded]);
    expect(screen.queryAllByTestId('message-tick')).to.have.length(0);
    rerender(
      <LaidOutMessageList
        messages={[message(1, { forwarded: true, content: '전달된 글' }), message(2, { content: '', deleted: true }), message(3)]}
        pending={[]} myId={ME} hasOlder={false} loadingOlder={false} onNeedOlder={() => {}} actions={actions}
        selection={{ selected: new Set([3]), onToggle }}
      />,
    );
    // A deleted message has no tick; the menus are gone while selecting.
    expect(await screen.findAllByTestId('message-tick')).to.have.length(2);
    expect(screen.queryAllByTestId('message-menu-button')).to.have.length(0);
    const tick = screen.getByRole('checkbox', { name: koPassOnExtras.selectMessage('전달된 글') });
    expect((tick as HTMLInputElement).checked).to.equal(false);
    expect((screen.getByRole('checkbox', { name: koPassOnExtras.selectMessage('m3') }) as HTMLInputElement).checked).to.equal(true);
    fireEvent.click(tick);
    expect(onToggle.calledOnceWith(1)).to.equal(true);
  });

  it('the selection bar counts the ticks, and forwards or deletes for me only when some are ticked', () => {
    const spies = { onForward: sinon.spy(), onHide: sinon.spy(), onCancel: sinon.spy() };
    const { rerender } = render(<SelectionBar count={0} {...spies} />);
    const bar = screen.getByRole('toolbar', { name: koPassOnExtras.selectionBar });
    expect(within(bar).getByText(koPassOnExtras.selected(0))).to.exist;
    expect((within(bar).getByRole('button', { name: koPassOnExtras.forwardSelected }) as HTMLButtonElement).disabled).to.equal(true);
    rerender(<SelectionBar count={2} {...spies} />);
    fireEvent.click(within(bar).getByRole('button', { name: koPassOnExtras.forwardSelected }));
    fireEvent.click(within(bar).getByRole('button', { name: koPassOnExtras.hideSelected }));
    fireEvent.click(within(bar).getByRole('button', { name: koPassOnExtras.endSelection }));
    expect([spies.onForward.callCount, spies.onHide.callCount, spies.onCancel.callCount]).to.deep.equal([1, 1, 1]);
  });

  it('drops messages hidden for the user from the room, and the edit of one', () => {
    let state = roomReducer(undefined, roomOpened({ chatRoomId: 5, userId: ME }));
    const page: ChatHistoryResponse = { totalPages: 1, chatRoomName: 'r', users: [], messages: [message(1), message(2), message(3, { senderId: ME })] };
    state = roomReducer(state, historyLoaded(page));
    state = roomReducer(state, editStarted({ messageId: 3, content: 'm3' }));
    state = roomReducer(state, messagesHidden([2, 3]));
    expect(state.messages.ids).to.deep.equal([1]);
    expect(state.editing).to.equal(null);
  });

  it('offers the user\'s rooms, and as friends only those with no 1:1 room yet', () => {
    const row = (chatRoomId: number, extra: Partial<ChatSummary> = {}): ChatSummary => ({ chatRoomId, chatRoomName: `r${chatRoomId}`, lastMessage: null, lastMessageTime: null, lastReadAt: null, ...extra });
    const friend = (userId: number) => ({ userId, name: `f${userId}`, photoVersion: null, statusMessage: null, favourite: false, online: false });
    const targets = targetsOf([row(1, { memberCount: 2, peer: { userId: 7, photoVersion: null } }), row(2, { self: true, memberCount: 1 })], [friend(7), friend(8)]);
    expect(targets.rooms.map((r) => [r.chatRoomId, r.self])).to.deep.equal([[1, false], [2, true]]);
    expect(targets.friends).to.deep.equal([{ userId: 8, name: 'f8' }]);
  });
});
