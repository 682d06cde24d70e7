import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { configureStore } from '@reduxjs/toolkit';
import { expect } from 'chai';
import { Provider } from 'react-redux';
import type { GroupCallState } from '@common/group-call';
import { GroupCallBanner, GroupCallButton } from './GroupCallEntry';
import GroupCallScreen from './GroupCallScreen';
import { groupCallActions, groupCallReducer } from './groupCallSlice';

const ROOM = 7;
const CALL: GroupCallState = {
  active: true,
  callId: 'c1',
  chatRoomId: ROOM,
  media: 'video',
  startedAt: '2026-11-26T10:00:00Z',
  participants: [
    { userId: 1, name: '나나', muted: false, camera: true, screen: false },
    { userId: 2, name: '김철수', muted: true, camera: false, screen: false },
    { userId: 3, name: '이영희', muted: false, camera: false, screen: true },
  ],
};

function setup() {
  const dispatched: string[] = [];
  const store = configureStore({
    reducer: { groupCall: groupCallReducer },
    middleware: (getDefault) =>
      getDefault({ thunk: false }).concat(() => (next) => (action) => {
        dispatched.push((action as { type: string }).type);
        return next(action);
      }),
  });
  return { store, dispatched };
}

describe('group call views', () => {
  afterEach(cleanup);

  it("offers '그룹통화' only in rooms of two or more members, voice or video", () => {
    const { store } = setup();
    const { rerender } = render(
      <Provider store={store}>
        <GroupCallButton chatRoomId={ROOM} memberCount={1} />
      </Provider>,
    );
    expect(screen.queryByRole('button', { name: '그룹통화' })).to.equal(null);
    rerender(
      <Provider store={store}>
        <GroupCallButton chatRoomId={ROOM} memberCount={3} />
      </Provider>,
    );
    fireEvent.click(screen.getByRole('button', { name: '그룹통화' }));
    fireEvent.click(screen.getByRole('menuitem', { name: '영상 그룹통화 시작' }));
    expect(store.getState().groupCall.active).to.deep.include({ chatRoomId: ROOM, media: 'video', callId: null, phase: 'joining' });
  });

  it('joins the call on in the room straight from the button, and is disabled with the reason when unavailable', () => {
    const { store } = setup();
    store.dispatch(groupCallActions.stateReceived(CALL));
    render(
      <Provider store={store}>
        <GroupCallButton chatRoomId={ROOM} memberCount={3} />
      </Provider>,
    );
    fireEvent.click(screen.getByRole('button', { name: '그룹통화' }));
    expect(store.getState().groupCall.active).to.deep.include({ callId: 'c1', media: 'video' });
    store.dispatch(groupCallActions.left({ unavailable: '지금은 그룹통화를 할 수 없습니다.' }));
    cleanup();
    render(
      <Provider store={store}>
        <GroupCallButton chatRoomId={ROOM} memberCount={3} />
      </Provider>,
    );
    const button = screen.getByRole('button', { name: '그룹통화' });
    expect((button as HTMLButtonElement).disabled).to.equal(true);
    expect(screen.getByText('지금은 그룹통화를 할 수 없습니다.').id).to.equal(button.getAttribute('aria-describedby'));
  });

  it("shows '그룹통화 중 · 3명 · 참여' while a call is on, and joins it", () => {
    const { store } = setup();
    render(
      <Provider store={store}>
        <GroupCallBanner chatRoomId={ROOM} />
      </Provider>,
    );
    expect(screen.queryByTestId('group-call-banner')).to.equal(null);
    act(() => {
      store.dispatch(groupCallActions.stateReceived(CALL));
    });
    expect(screen.getByTestId('group-call-banner').textContent).to.equal('그룹통화 중 · 3명 · 참여');
    fireEvent.click(screen.getByRole('button', { name: '참여' }));
    expect(store.getState().groupCall.active).to.deep.include({ chatRoomId: ROOM, callId: 'c1' });
    expect(screen.queryByTestId('group-call-banner')).to.equal(null);
  });

  it("draws a tile per participant with their state, the speaker highlighted, and this user's controls", () => {
    const { store, dispatched } = setup();
    store.dispatch(groupCallActions.stateReceived(CALL));
    store.dispatch(groupCallActions.joinRequested({ chatRoomId: ROOM, media: 'video', callId: 'c1' }));
    store.dispatch(groupCallActions.speakerChanged(3));
    render(
      <Provider store={store}>
        <GroupCallScreen me={1} />
      </Provider>,
    );
    const tiles = screen.getAllByRole('listitem');
    expect(tiles.map((tile) => tile.getAttribute('aria-label'))).to.deep.equal(['나', '김철수', '이영희']);
    expect(screen.getByTestId('group-tile-2').querySelector('[aria-label="마이크 꺼짐"]')).to.not.equal(null);
    expect(screen.getByTestId('group-tile-3').textContent).to.contain('화면 공유 중');
    expect(screen.getByTestId('group-tile-3').dataset.speaking).to.equal('true');
    expect(screen.getByTestId('group-tile-2').dataset.speaking).to.equal('false');
    expect(screen.getByTestId('group-tile-me').querySelector('video')).to.not.equal(null);
    expect(screen.getByTestId('group-tile-2').querySelector('video')).to.equal(null);
    fireEvent.click(screen.getByRole('button', { name: '마이크 끄기' }));
    fireEvent.click(screen.getByRole('button', { name: '나가기' }));
    expect(dispatched).to.include.members(['groupCall/muteToggled', 'groupCall/leaveRequested']);
  });

  it("dims a participant marked reconnecting with '재연결 중…' on their tile, and restores it when they are back", () => {
    const { store } = setup();
    const dropped = { ...CALL, participants: CALL.participants.map((p) => (p.userId === 2 ? { ...p, reconnecting: true as const } : p)) };
    store.dispatch(groupCallActions.stateReceived(dropped));
    store.dispatch(groupCallActions.joinRequested({ chatRoomId: ROOM, media: 'video', callId: 'c1' }));
    store.dispatch(groupCallActions.speakerChanged(2));
    render(
      <Provider store={store}>
        <GroupCallScreen me={1} />
      </Provider>,
    );
    const tile = screen.getByTestId('group-tile-2');
    expect(tile.textContent).to.contain('재연결 중…');
    expect(tile.dataset.reconnecting).to.equal('true');
    expect(tile.style.opacity).to.equal('0.45');
    // A participant who dropped is not highlighted as the speaker.
    expect(tile.dataset.speaking).to.equal('false');
    expect(tile.classList.contains('group-tile--speaking')).to.equal(false);
    // The others are as they were.
    expect(screen.getByTestId('group-tile-3').textContent).to.not.contain('재연결 중…');
    expect(screen.getByTestId('group-tile-3').style.opacity).to.equal('');
    act(() => {
      store.dispatch(groupCallActions.stateReceived(CALL));
    });
    expect(screen.getByTestId('group-tile-2').textContent).to.not.contain('재연결 중…');
    expect(screen.getByTestId('group-tile-2').dataset.reconnecting).to.equal('false');
    expect(screen.getByTestId('group-tile-2').style.opacity).to.equal('');
    expect(screen.getByTestId('group-tile-2').dataset.speaking).to.equal('true');
  });
});
