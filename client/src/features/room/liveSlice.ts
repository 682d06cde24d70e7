// The open room's live state beside the messages: who is typing now and who is
// online, from the room-events topic (and history's online). Reset when a room opens.
import { createSelector, createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { UserSummary } from '@common/api';
import { historyLoaded, messageReceived, roomOpened, selectRoomUsers } from './roomSlice';

export interface Typer {
  userId: number;
  name: string;
  /** Which typing event this is, so only the newest one's expiry clears it. */
  token: number;
}

export interface LiveState {
  typers: Typer[];
  online: Record<number, boolean>;
}

const initialState: LiveState = { typers: [], online: {} };

const liveSlice = createSlice({
  name: 'live',
  initialState,
  reducers: {
    typingSeen(state, action: PayloadAction<Typer>) {
      state.typers = [...state.typers.filter((t) => t.userId !== action.payload.userId), action.payload];
    },
    typingExpired(state, action: PayloadAction<{ userId: number; token: number }>) {
      state.typers = state.typers.filter((t) => t.userId !== action.payload.userId || t.token !== action.payload.token);
    },
    presenceChanged(state, action: PayloadAction<{ userId: number; online: boolean }>) {
      state.online[action.payload.userId] = action.payload.online;
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(roomOpened, () => initialState)
      .addCase(historyLoaded, (state, action) => {
        for (const u of action.payload.users) if (u.online !== undefined && state.online[u.userId] === undefined) state.online[u.userId] = u.online;
      })
      // A member who sent their message is no longer typing it.
      .addCase(messageReceived, (state, action) => {
        state.typers = state.typers.filter((t) => t.userId !== action.payload.senderId);
      });
  },
});

export const { typingSeen, typingExpired, presenceChanged } = liveSlice.actions;
export const liveReducer = liveSlice.reducer;

/** The members with what the room-events topic says of who is online now. */
export function withPresence<U extends UserSummary>(users: readonly U[], online: Record<number, boolean>): U[] {
  return users.map((u) => (online[u.userId] === undefined || online[u.userId] === u.online ? u : { ...u, online: online[u.userId] }));
}

type WithLive = { live: LiveState };
export const selectTypers = (state: WithLive) => state.live.typers;
export const selectOnline = (state: WithLive) => state.live.online;
/** Who is typing, as the typing line names them; null when no one is. */
export const selectTypingNames = createSelector([selectTypers], (typers) => (typers.length > 0 ? typers.map((t) => t.name).join(', ') : null));
/** The room's members, each with what the room-events topic says of their presence now. */
export const selectMembersWithPresence = createSelector([selectRoomUsers, selectOnline], withPresence);
