// Passing messages on (issue 27): delete for me, forwarding, and the forward picker's state. The
// picker and the selection bar are a lazy chunk (PassOn.tsx); this holds only what they read and
// the actions the room page and the sagas share.
import { createAction, createSlice, type PayloadAction } from '@reduxjs/toolkit';

/** What the message menu's 복사, 전달, 나에게서 삭제 and 선택 ask for; the room page does them. */
export interface PassOnHandlers {
  onCopy(content: string): void;
  onForward(messageId: number): void;
  onHide(messageId: number): void;
  onSelect(messageId: number): void;
}

/** A room the picker offers: one of the user's rooms, by the name they see. */
export interface ForwardRoom { chatRoomId: number; name: string; memberCount: number; self: boolean }
/** A friend without a 1:1 room yet: choosing them opens one (POST /api/chat-room/create). */
export interface ForwardFriend { userId: number; name: string }

export interface PassOnState {
  targets: { rooms: ForwardRoom[]; friends: ForwardFriend[] } | null;
  status: 'idle' | 'loading' | 'failed' | 'forwarding';
  /** The last forward's outcome, until the picker opens again. */
  result: { ok: boolean; count: number } | null;
}

const initialState: PassOnState = { targets: null, status: 'idle', result: null };

/** Delete for me: these messages leave this user's screen (the saga removes them and sends /app/hide-message). */
export const hideRequested = createAction<number[]>('passOn/hideRequested');
/** Forward these messages to these rooms and, through a 1:1 opened for each, to these friends. */
export const forwardRequested = createAction<{ messageIds: number[]; chatRoomIds: number[]; userIds: number[] }>('passOn/forwardRequested');

const passOnSlice = createSlice({
  name: 'passOn',
  initialState,
  reducers: {
    targetsRequested(state) {
      state.status = 'loading';
      state.result = null;
    },
    targetsLoaded(state, action: PayloadAction<{ rooms: ForwardRoom[]; friends: ForwardFriend[] }>) {
      state.targets = action.payload;
      state.status = 'idle';
    },
    targetsFailed(state) {
      state.status = 'failed';
    },
    forwardStarted(state) {
      state.status = 'forwarding';
      state.result = null;
    },
    forwardFinished(state, action: PayloadAction<{ ok: boolean; count: number }>) {
      state.status = 'idle';
      state.result = action.payload;
    },
  },
});

export const { targetsRequested: forwardTargetsRequested, targetsLoaded: forwardTargetsLoaded, targetsFailed: forwardTargetsFailed, forwardStarted, forwardFinished } = passOnSlice.actions;
export const passOnReducer = passOnSlice.reducer;

type WithPassOn = { passOn: PassOnState };
export const selectPassOn = (state: WithPassOn) => state.passOn;
