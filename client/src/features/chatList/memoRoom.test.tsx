// Issue 27 in the chat list: 나와의 채팅 first, and its entry until the user has one.
import { expect } from 'chai';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { configureStore } from '@reduxjs/toolkit';
import type { ChatSummary } from '@common/api';
import { koMemoRoom } from '../../i18n/koMemoRoom';
import { MemoRoomEntry } from './MemoRoomEntry';
import { memoRoomRequested, pinnedFirst } from './chatListSlice';

describe('the memo room in the chat list', () => {
  afterEach(() => cleanup());

  it('lists the memo room before pinned rooms, pinned or not', () => {
    const row = (chatRoomId: number, extra: Partial<ChatSummary> = {}): ChatSummary => ({ chatRoomId, chatRoomName: `r${chatRoomId}`, lastMessage: null, lastMessageTime: null, lastReadAt: null, ...extra });
    expect(pinnedFirst([row(1), row(2, { pinned: true }), row(3, { self: true, pinned: true })]).map((r) => r.chatRoomId)).to.deep.equal([3, 2, 1]);
    expect(pinnedFirst([row(1), row(2, { pinned: true }), row(3, { self: true })]).map((r) => r.chatRoomId)).to.deep.equal([3, 2, 1]);
  });

  it('asks for the memo room from its entry, named 나와의 채팅', () => {
    const seen: string[] = [];
    const store = configureStore({ reducer: (state: object = {}, action) => (seen.push(action.type), state) });
    render(
      <Provider store={store}>
        <ul>
          <MemoRoomEntry />
        </ul>
      </Provider>,
    );
    fireEvent.click(screen.getByRole('button', { name: new RegExp(koMemoRoom.name) }));
    expect(seen).to.include(memoRoomRequested.type);
  });
});
