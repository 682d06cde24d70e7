// The open room's read positions: who has read up to which seq. Kept apart from the
// room slice: filled from history's users, moved by each message's author and by read events
// on the room-events topic, forward only. Reset when a room opens.
import { createSelector, createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { advance, authorOf, fromRoomUsers, unreadBy, type ReadPositions } from './readCounts';
import { caughtUp, historyLoaded, messageReceived, roomOpened, selectMemberIds } from './roomSlice';

export interface ReadsState {
  positions: ReadPositions;
}

const initialState: ReadsState = { positions: {} };

const readsSlice = createSlice({
  name: 'reads',
  initialState,
  reducers: {
    readEventReceived(state, action: PayloadAction<{ userId: number; lastReadSeq: number }>) {
      state.positions = advance(state.positions, action.payload.userId, action.payload.lastReadSeq);
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(roomOpened, () => initialState)
      .addCase(historyLoaded, (state, action) => {
        state.positions = fromRoomUsers(state.positions, action.payload.users);
      })
      .addCase(caughtUp, (state, action) => {
        state.positions = fromRoomUsers(state.positions, action.payload.users);
      })
      .addCase(messageReceived, (state, action) => {
        const author = authorOf(action.payload);
        if (author !== null && action.payload.seq) state.positions = advance(state.positions, author, action.payload.seq);
      });
  },
});

export const { readEventReceived } = readsSlice.actions;
export const readsReducer = readsSlice.reducer;

type WithReads = { reads: ReadsState };
export const selectReadPositions = (state: WithReads) => state.reads.positions;
/**
 * For the open room: how many members have not read the message with a given seq. A new
 * function only when the members or a read position change.
 */
export const selectUnreadByOf = createSelector([selectMemberIds, selectReadPositions], (memberIds, positions) => (seq: number) => unreadBy(memberIds, positions, seq));
