import { expect } from 'chai';
import { combineReducers, type UnknownAction } from '@reduxjs/toolkit';
import type { ChatSummary } from '@common/api';
import { DELETED_MESSAGE_TEXT } from '@common/system-text';
import { messageDeletedInRoom, roomSettingsChanged } from '../room';
import { chatListReducer, chatsLoaded, loadFailed, newMessagesSignalled, selectChats } from './chatListSlice';

const rootReducer = combineReducers({ chatList: chatListReducer });
type State = ReturnType<typeof rootReducer>;
const run = (...actions: UnknownAction[]): State => actions.reduce<State>((state, action) => rootReducer(state, action), rootReducer(undefined, { type: 'init' }));

describe('the chat list\'s selectors', () => {
  const chat = (chatRoomId: number, extra: Partial<ChatSummary> = {}): ChatSummary => ({
    chatRoomId, chatRoomName: `방 ${chatRoomId}`, lastMessage: '안녕', lastMessageTime: '2026-11-25T10:00:00.000Z', lastReadAt: null, lastSeq: 5, ...extra,
  });

  it('give null until the list loads, then the rooms in the server\'s order, the same list until it changes', () => {
    let s = run();
    expect(selectChats(s)).to.equal(null);
    s = rootReducer(s, chatsLoaded([chat(7), chat(3), chat(9)]));
    const chats = selectChats(s);
    expect(chats?.map((c) => c.chatRoomId)).to.deep.equal([7, 3, 9]);
    s = rootReducer(s, newMessagesSignalled());
    expect(selectChats(s)).to.equal(chats);
    // A reload may reorder the rooms and drop one: the list is the server's, one row per room.
    s = rootReducer(s, chatsLoaded([chat(9), chat(7)]));
    expect(selectChats(s)?.map((c) => c.chatRoomId)).to.deep.equal([9, 7]);
    s = rootReducer(s, messageDeletedInRoom({ chatRoomId: 7, seq: 5 }));
    expect(selectChats(s)?.map((c) => c.lastMessage)).to.deep.equal(['안녕', DELETED_MESSAGE_TEXT]);
    s = rootReducer(s, loadFailed());
    expect(selectChats(s)).to.deep.equal([]);
  });

  it('put pinned rooms first, and move a room the member pins or unpins at once, marking it', () => {
    let s = rootReducer(run(), chatsLoaded([chat(7), chat(3, { pinned: true }), chat(9)]));
    expect(selectChats(s)?.map((c) => c.chatRoomId)).to.deep.equal([3, 7, 9]);
    s = rootReducer(s, roomSettingsChanged({ chatRoomId: 9, muted: true, pinned: true }));
    expect(selectChats(s)?.map((c) => c.chatRoomId)).to.deep.equal([3, 9, 7]);
    expect(selectChats(s)?.find((c) => c.chatRoomId === 9)).to.deep.include({ muted: true, pinned: true });
    s = rootReducer(s, roomSettingsChanged({ chatRoomId: 3, muted: false, pinned: false }));
    expect(selectChats(s)?.map((c) => c.chatRoomId)).to.deep.equal([9, 3, 7]);
    expect(selectChats(s)?.find((c) => c.chatRoomId === 3)).not.to.have.property('pinned');
  });
});
