// The call's serialisable state (docs/spec.md §4 Call): the phase, who the peer is, the seconds on
// the timer. The /call screen's name search is the user search (features/userSearch). The RTC
// objects live in services/rtc.ts.
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { RingTone } from '../../services/ringer';
import { canStartCall, isCallActive, type CallPeer, type CallPhase } from './callRules';

export type CallRole = 'caller' | 'callee';

export interface CallState {
  phase: CallPhase;
  role: CallRole | null;
  peer: CallPeer | null;
  /** Seconds since the connection came up; ticks once a second while connected. */
  elapsedSeconds: number;
  /** The in-call overlay is shown in full; false: collapsed to the call bar above every screen. */
  expanded: boolean;
  /** The local microphone track is disabled. */
  muted: boolean;
  /** The caller of the last call that rang out unanswered, shown until dismissed. */
  missedCall: CallPeer | null;
  /** The ring tone asked for while the call rings; blocked: the browser waits for a first tap. */
  ring: { tone: RingTone; blocked: boolean } | null;
}

export const initialCallState: CallState = {
  phase: 'idle',
  role: null,
  peer: null,
  elapsedSeconds: 0,
  expanded: true,
  muted: false,
  missedCall: null,
  ring: null,
};

/** What a new call starts from: expanded, unmuted, the timer at zero. */
const freshCall = { elapsedSeconds: 0, expanded: true, muted: false, ring: null };

const callSlice = createSlice({
  name: 'call',
  initialState: initialCallState,
  reducers: {
    // Lifecycle: the call listener runs while a signed-in user has any screen of the app open.
    listenRequested(_state, _action: PayloadAction<{ userId: number }>) {},
    listenStopped(state) {
      // Signed out: the missed-call line belonged to that user.
      state.missedCall = null;
    },

    // What the user did.
    callRequested(_state, _action: PayloadAction<CallPeer>) {},
    acceptClicked() {},
    rejectClicked() {},
    hangUpClicked() {},
    muteToggled(state) {
      if (state.phase !== 'idle') state.muted = !state.muted;
    },
    overlayCollapsed(state) {
      state.expanded = false;
    },
    overlayExpanded(state) {
      state.expanded = true;
    },
    missedCallDismissed(state) {
      state.missedCall = null;
    },

    // What the call saga observed.
    outgoingStarted(state, action: PayloadAction<CallPeer>) {
      if (!canStartCall(state.phase)) return;
      Object.assign(state, { phase: 'outgoing', role: 'caller', peer: action.payload, ...freshCall });
    },
    incomingReceived(state, action: PayloadAction<CallPeer>) {
      if (!canStartCall(state.phase)) return;
      Object.assign(state, { phase: 'incoming', role: 'callee', peer: action.payload, ...freshCall });
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
      Object.assign(state, { phase: 'idle', role: null, peer: null, ...freshCall });
    },
    ringChanged(state, action: PayloadAction<CallState['ring']>) {
      state.ring = action.payload;
    },
    /** The callee's call rang out (the server's timeout): remembered for the missed-call line. */
    callMissed(state, action: PayloadAction<CallPeer>) {
      state.missedCall = action.payload;
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
export const selectCallMuted = (state: WithCall) => state.call.muted;
export const selectMissedCall = (state: WithCall) => state.call.missedCall;
