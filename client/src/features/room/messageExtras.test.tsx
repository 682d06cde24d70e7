import { expect } from 'chai';
import sinon from 'sinon';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import type { ChatMessage } from '@common/api';
import { ko } from '../../i18n/ko';
import { EditComposer } from './ComposerExtras';
import type { MessageActionHandlers } from './MessageExtras';
import { LaidOutMessageList } from './messageList.test-support';

const ME = 1;
const message = (messageId: number, extra: Partial<ChatMessage> = {}): ChatMessage => ({
  messageId, seq: messageId, senderId: 2, senderName: '김철수', content: `m${messageId}`, enrolledAt: new Date().toISOString(), clientMsgId: null, ...extra,
});
type Spied = { [K in keyof MessageActionHandlers]: K extends 'passOn' ? MessageActionHandlers[K] : sinon.SinonSpy };
const handlers = (): Spied => ({
  onReply: sinon.spy(), onEdit: sinon.spy(), onDelete: sinon.spy(), onReact: sinon.spy(), onJump: sinon.spy(),
});

describe('the message extras', () => {
  afterEach(() => cleanup());

  it('shows a quote (text, not HTML) that jumps to the original, (수정됨), the deleted placeholder and reaction chips', () => {
    const actions = handlers();
    const { container } = render(
      <LaidOutMessageList
        messages={[
          message(1, { replyTo: { messageId: 9, senderName: '이영희', content: '<b>원래</b>' }, editedAt: '2026-11-25T10:00:00.000Z', reactions: [{ emoji: '👍', userIds: [2, ME] }] }),
          message(2, { content: '', deleted: true }),
        ]}
        pending={[]} myId={ME} hasOlder={false} loadingOlder={false} onNeedOlder={() => {}} actions={actions}
      />,
    );
    expect(container.querySelector('b')).to.equal(null);
    fireEvent.click(screen.getByTestId('reply-quote'));
    expect(actions.onJump.calledOnceWith(9)).to.equal(true);
    expect(screen.getByText(ko.messageActions.edited)).to.exist;
    expect(screen.getByText(ko.messageActions.deleted)).to.exist;
    const chip = screen.getByTestId('reaction-chip');
    expect(chip.getAttribute('aria-pressed')).to.equal('true');
    expect(chip.textContent).to.equal('👍2');
    fireEvent.click(chip);
    expect(actions.onReact.calledOnceWith(1, '👍')).to.equal(true);
    // A deleted message has no menu.
    expect(screen.getAllByTestId('message-menu-button')).to.have.length(1);
  });

  it('shows a quote of someone the reader blocked like a deleted one, going nowhere', () => {
    const actions = handlers();
    render(
      <LaidOutMessageList
        messages={[message(1, { replyTo: { messageId: 9, senderName: '이영희', content: '차단한 사용자의 메시지입니다.', blocked: true } })]}
        pending={[]} myId={ME} hasOlder={false} loadingOlder={false} onNeedOlder={() => {}} actions={actions}
      />,
    );
    const quote = screen.getByTestId('reply-quote');
    expect(quote.className).to.include('quote--deleted');
    fireEvent.click(quote);
    expect(actions.onJump.called).to.equal(false);
  });

  it('offers edit and delete on one\'s own message only, and replies with a quote of at most 100 characters', () => {
    const actions = handlers();
    const long = '가'.repeat(150);
    render(<LaidOutMessageList messages={[message(1, { content: long }), message(2, { senderId: ME, senderName: '나' })]} pending={[]} myId={ME} hasOlder={false} loadingOlder={false} onNeedOlder={() => {}} actions={actions} />);
    const [theirs, mine] = screen.getAllByTestId('message-menu-button');
    fireEvent.click(theirs);
    let menu = screen.getByTestId('message-menu');
    expect(within(menu).queryByText(ko.messageActions.edit)).to.equal(null);
    fireEvent.click(within(menu).getByText(ko.messageActions.reply));
    expect(actions.onReply.firstCall.args[0]).to.deep.equal({ messageId: 1, senderName: '김철수', content: '가'.repeat(100) });
    fireEvent.click(mine);
    menu = screen.getByTestId('message-menu');
    fireEvent.click(within(menu).getByText(ko.messageActions.delete));
    expect(actions.onDelete.calledOnceWith(2)).to.equal(true);
    fireEvent.click(mine);
    fireEvent.click(within(screen.getByTestId('message-menu')).getByText(ko.messageActions.edit));
    expect(actions.onEdit.calledOnceWith(2, 'm2')).to.equal(true);
  });

  it('closes the menu on Escape, giving the focus back to its button', () => {
    render(<LaidOutMessageList messages={[message(1)]} pending={[]} myId={ME} hasOlder={false} loadingOlder={false} onNeedOlder={() => {}} actions={handlers()} />);
    const button = screen.getByTestId('message-menu-button');
    fireEvent.click(button);
    fireEvent.keyDown(screen.getByTestId('message-menu'), { key: 'Escape' });
    expect(screen.queryByTestId('message-menu')).to.equal(null);
    expect(document.activeElement).to.equal(button);
  });

  it('edits in the composer: Enter saves the new text, Escape cancels, blank is not saved', () => {
    const onSave = sinon.spy();
    const onCancel = sinon.spy();
    render(<EditComposer messageId={4} initial="처음 글" onSave={onSave} onCancel={onCancel} />);
    const box = screen.getByTestId('edit-input');
    fireEvent.change(box, { target: { value: '   ' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(onSave.called).to.equal(false);
    fireEvent.change(box, { target: { value: '고친 글' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(onSave.calledOnceWith(4, '고친 글')).to.equal(true);
    fireEvent.keyDown(box, { key: 'Escape' });
    expect(onCancel.calledOnce).to.equal(true);
  });
});
