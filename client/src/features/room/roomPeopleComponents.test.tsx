// Issue 26's room pieces as the user meets them: the notice banner, the mention picker, the
// kept draft and the room menu's mute and pin switches.
import { expect } from 'chai';
import sinon from 'sinon';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from '../../app/renderApp.test-support';
import type { RoomNotice } from '@common/api';
import { eventually, settle } from '../../app/fakeServices';
import { DialogProvider, DialogQueue } from '../../components/dialogs';
import { Composer } from './Composer';
import { readDraft, writeDraft } from './drafts';
import NoticeBanner from './NoticeBanner';
import { RoomSidebar } from './RoomSidebar';
import { MessageList } from './MessageList';
import { layoutMessages } from './messageLayout';
import type { ChatMessage } from '@common/api';

const NOTICE: RoomNotice = { messageId: 3, content: '금요일 7시 강남역', setByName: '김철수', setAt: '2026-11-26T10:00:00.000Z' };
const MEMBERS = [{ userId: 1, name: '김민지' }, { userId: 2, name: '김철수' }, { userId: 3, name: '김영희' }];

describe('the room\'s issue 26 pieces', () => {
  beforeEach(() => window.localStorage.clear());
  afterEach(() => {
    cleanup();
    sinon.restore();
  });

  it('shows the notice folded in a region named 공지, unfolds it, hides it on this device until another is set', async () => {
    const onRemove = sinon.spy();
    const banner = (notice: RoomNotice) => (
      <DialogProvider queue={new DialogQueue()}>
        <NoticeBanner notice={notice} userId={1} chatRoomId={7} onRemove={onRemove} onOpen={() => {}} />
      </DialogProvider>
    );
    const view = render(banner(NOTICE));
    const region = screen.getByRole('region', { name: '공지' });
    expect(region.textContent).to.contain('금요일 7시 강남역');
    expect(screen.queryByRole('button', { name: '공지 숨기기' })).to.equal(null);
    fireEvent.click(screen.getByRole('button', { name: '펼치기' }));
    expect(screen.getByRole('button', { name: '접기' }).getAttribute('aria-expanded')).to.equal('true');
    expect(region.textContent).to.contain('김철수님이 등록');

    fireEvent.click(screen.getByRole('button', { name: '공지 내리기' }));
    const confirm = await screen.findByRole('alertdialog');
    fireEvent.click(within(confirm).getByRole('button', { name: '공지 내리기' }));
    await eventually(() => onRemove.calledOnce, 'removed for everyone after the confirmation');

    fireEvent.click(screen.getByRole('button', { name: '공지 숨기기' }));
    expect(screen.queryByRole('region', { name: '공지' })).to.equal(null);
    cleanup();
    render(banner(NOTICE));
    expect(screen.queryByRole('region', { name: '공지' })).to.equal(null);
    view.unmount();
    cleanup();
    render(banner({ ...NOTICE, messageId: 4, content: '장소 변경', setAt: '2026-11-26T11:00:00.000Z' }));
    expect(screen.getByRole('region', { name: '공지' }).textContent).to.contain('장소 변경');
  });

  it('offers the other members on @, moves with the arrows, picks with Enter and closes with Escape', async () => {
    const onSend = sinon.spy();
    render(<Composer onSend={onSend} members={MEMBERS} myId={1} />);
    const box = screen.getByRole<HTMLTextAreaElement>('textbox');
    fireEvent.change(box, { target: { value: '@김', selectionStart: 2 } });
    const list = await screen.findByRole('listbox', { name: '멘션할 사람' });
    expect([...list.querySelectorAll('[role=option]')].map((o) => o.textContent)).to.deep.equal(['김철수', '김영희']);
    expect(box.getAttribute('aria-activedescendant')).to.equal(list.querySelectorAll('[role=option]')[0].id);
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    expect(screen.getByRole('option', { name: '김영희' }).getAttribute('aria-selected')).to.equal('true');
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(box.value).to.equal('@김영희 ');
    expect(onSend.called).to.equal(false);
    await settle();
    expect(screen.queryByRole('listbox')).to.equal(null);

    fireEvent.change(box, { target: { value: '@김영희 @', selectionStart: 6 } });
    await screen.findByRole('listbox', { name: '멘션할 사람' });
    fireEvent.keyDown(box, { key: 'Escape' });
    expect(screen.queryByRole('listbox')).to.equal(null);
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(onSend.calledOnceWith('@김영희 @')).to.equal(true);
  });

  it('starts with the room\'s kept draft and keeps every change, a sent message leaving none', () => {
    writeDraft(window.localStorage, 1, 7, '쓰던 말');
    const keep = (text: string) => writeDraft(window.localStorage, 1, 7, text);
    render(<Composer onSend={() => {}} initialText={() => readDraft(window.localStorage, 1, 7)} onTextChange={keep} />);
    const box = screen.getByRole<HTMLTextAreaElement>('textbox');
    expect(box.value).to.equal('쓰던 말');
    fireEvent.change(box, { target: { value: '쓰던 말 이어서' } });
    expect(readDraft(window.localStorage, 1, 7)).to.equal('쓰던 말 이어서');
    expect(readDraft(window.localStorage, 1, 8)).to.equal('');
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(readDraft(window.localStorage, 1, 7)).to.equal('');
  });

  it('switches the room\'s notifications and pin from the room menu', () => {
    const onChange = sinon.spy();
    const sidebar = (settings: { muted: boolean; pinned: boolean } | null) => (
      <DialogProvider queue={new DialogQueue()}>
        <MemoryRouter>
          <RoomSidebar users={[]} myId={1} invitePath="/x" notification="idle" onNotify={() => {}} onLeave={() => {}} onClose={() => {}} settings={settings} onChangeSettings={onChange} />
        </MemoryRouter>
      </DialogProvider>
    );
    const view = render(sidebar(null));
    expect((screen.getByRole('button', { name: '알림 끄기' }) as HTMLButtonElement).disabled).to.equal(true);
    view.rerender(sidebar({ muted: false, pinned: true }));
    fireEvent.click(screen.getByRole('button', { name: '알림 끄기' }));
    fireEvent.click(screen.getByRole('button', { name: '고정 해제' }));
    expect(onChange.args).to.deep.equal([[{ muted: true }], [{ pinned: false }]]);
    view.rerender(sidebar({ muted: true, pinned: false }));
    expect(screen.getByRole('button', { name: '알림 켜기' })).to.exist;
    expect(screen.getByRole('button', { name: '채팅방 고정' })).to.exist;
  });

  it('makes the message list one tab stop: arrows move between messages, Enter opens the menu; mentions are highlighted', () => {
    const msg = (messageId: number, content: string, extra: Partial<ChatMessage> = {}): ChatMessage => ({
      messageId, senderId: 2, senderName: '김철수', content, enrolledAt: `2026-11-21T10:0${messageId}:00.000Z`, clientMsgId: null, seq: messageId, ...extra,
    });
    const items = layoutMessages([msg(1, '하나'), msg(2, '@김영희 둘', { mentions: [3] }), msg(3, '셋')], [], 1, MEMBERS);
    const handlers = { onReply() {}, onEdit() {}, onDelete() {}, onReact() {}, onJump() {} };
    render(<MessageList items={items} myId={1} hasOlder={false} loadingOlder={false} onNeedOlder={() => {}} actions={handlers} />);
    const messages = screen.getAllByTestId('their-message');
    expect(messages.map((m) => m.tabIndex)).to.deep.equal([-1, -1, 0]);
    expect(screen.getAllByTestId('message-menu-button').every((b) => b.tabIndex === -1)).to.equal(true);
    messages[2].focus();
    fireEvent.keyDown(messages[2], { key: 'ArrowUp' });
    expect(document.activeElement).to.equal(messages[1]);
    expect(messages.map((m) => m.tabIndex)).to.deep.equal([-1, 0, -1]);
    fireEvent.keyDown(messages[1], { key: 'Home' });
    expect(document.activeElement).to.equal(messages[0]);
    fireEvent.keyDown(messages[0], { key: 'ArrowDown' });
    fireEvent.keyDown(messages[1], { key: 'Enter' });
    expect(within(messages[1]).getByTestId('message-menu')).to.exist;
    expect(within(messages[1]).getByTestId('mention').textContent).to.equal('@김영희');
    expect(within(messages[0]).queryByTestId('mention')).to.equal(null);
  });
});
