// The call's serialisable state (SPEC.md §4 Call): the phase, who the peer is, the seconds on
// the timer, and the /call screen's name search. The RTC objects live in services/rtc.ts.
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { UserSummary } from '../../../../common/api';
import { canStartCall, isCallActive, type CallPeer, type CallPhase } from './callRules';

export type CallRole = 'caller' | 'callee';

export interface CallState {
  phase: CallPhase;
  role: CallRole | null;
  peer: CallPeer | null;
  /** Seconds since the connection came up; ticks once a second while connected. */
  elapsedSeconds: number;
  /** Results of the /call name search; null before any search. */
  searchResults: UserSummary[] | null;
}

export const initialCallState: CallState = {
  phase: 'idle',
  role: null,
  peer: null,
  elapsedSeconds: 0,
  searchResults: null,
};

const callSlice = createSlice({
  name: 'call',
  initialState: initialCallState,
  reducers: {
    // Screen lifecycle: the call listener runs while /chat-list or /call is shown to a signed-in user.
    listenRequested(_state, _action: PayloadAction<{ userId: number }>) {},
    listenStopped() {},

    // What the user did.
    callRequested(_state, _action: PayloadAction<CallPeer>) {},
    acceptClicked() {},
    rejectClicked() {},
    hangUpClicked() {},
    searchRequested(_state, _action: PayloadAction<string>) {},

    // What the call saga observed.
    outgoingStarted(state, action: PayloadAction<CallPeer>) {
      if (!canStartCall(state.phase)) return;
      Object.assign(state, { phase: 'outgoing', role: 'caller', peer: action.payload, elapsedSeconds: 0 });
    },
    incomingReceived(state, action: PayloadAction<CallPeer>) {
      if (!canStartCall(state.phase)) return;
      Object.assign(state, { phase: 'incoming', role: 'callee', peer: action.payload, elapsedSeconds: 0 });
    },
    negotiationStarted(state) {
      if (state.phase === 'outgoing' || state.phase === 'incoming') state.phase = 'connecting';
    },
    connectionEstablished(state) {
      if (state.phase === 'connecting') state.phase = 'connected';
    },
    timerTicked(state) {
      if (state.phase === 'connected') state.elapsedSeconds += 1;
    },
    callEnded(state) {
      Object.assign(state, { phase: 'idle', role: null, peer: null, elapsedSeconds: 0 });
    },
    searchSucceeded(state, action: PayloadAction<UserSummary[]>) {
      state.searchResults = action.payload;
    },
    searchCleared(state) {
      state.searchResults = [];
    },
  },
});

export const callActions = callSlice.actions;
export const callReducer = callSlice.reducer;

interface WithCall {
  call: CallState;
}

export const selectCall = (state: WithCall) => state.call;
export const selectCallPhase = (state: WithCall) => state.call.phase;
export const selectIsCallActive = (state: WithCall) => isCallActive(state.call.phase);
export const selectCallSearchResults = (state: WithCall) => state.call.searchResults;
