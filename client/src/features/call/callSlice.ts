// The call's serialisable state (docs/spec.md §4 Call): the phase, who the peer is, the seconds on
// the timer. The /call screen's name search is the user search (features/userSearch). The RTC
// objects live in services/rtc.ts.
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { CallMedia } from '@common/api';
import type { RingTone } from '../../services/ringer';
import { callRequested } from './callRequests';
import { canStartCall, isCallActive, type CallEndSummary, type CallPeer, type CallPhase, type PeerMediaState } from './callRules';

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
  /** What the call was started with; a voice call may still turn the camera on. */
  media: CallMedia;
  /** The caller heard that a device of the callee rings (docs/protocol.md `ringing`). */
  peerRinging: boolean;
  /** This side's camera and screen share, as sent now. */
  camera: boolean;
  screen: boolean;
  /** How many cameras this device has (switching is offered from two on). */
  cameraCount: number;
  /** The peer's microphone, camera and screen (its media-state); null until it tells. */
  peerMedia: PeerMediaState | null;
  /** The peer's connection dropped; the server holds the call for the grace (docs/protocol.md). */
  peerReconnecting: boolean;
  /** The end screen shown for about 3 s after a call (docs/spec.md §4 Call). */
  ended: CallEndSummary | null;
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
  media: 'audio',
  peerRinging: false,
  camera: false,
  screen: false,
  cameraCount: 0,
  peerMedia: null,
  peerReconnecting: false,
  ended: null,
};

/** What a new call starts from: expanded, unmuted, the timer at zero, no video yet. */
const freshCall = {
  elapsedSeconds: 0,
  expanded: true,
  muted: false,
  ring: null,
  peerRinging: false,
  camera: false,
  screen: false,
  peerMedia: null,
  peerReconnecting: false,
  ended: null,
};

/** Who a call is with and what it started with (absent: audio, as the original client's calls). */
export type CallStart = CallPeer & { media?: CallMedia };

const startOf = ({ userId, name, media }: CallStart) => ({ peer: { userId, name }, media: media ?? 'audio' });

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
    acceptClicked() {},
    rejectClicked() {},
    hangUpClicked() {},
    muteToggled(state) {
      if (state.phase !== 'idle') state.muted = !state.muted;
    },
    cameraToggled() {},
    cameraSwitched() {},
    screenShareToggled() {},
    endScreenDismissed(state) {
      state.ended = null;
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
    outgoingStarted(state, action: PayloadAction<CallStart>) {
      if (!canStartCall(state.phase)) return;
      Object.assign(state, { phase: 'outgoing', role: 'caller', ...startOf(action.payload), ...freshCall });
    },
    incomingReceived(state, action: PayloadAction<CallStart>) {
      if (!canStartCall(state.phase)) return;
      Object.assign(state, { phase: 'incoming', role: 'callee', ...startOf(action.payload), ...freshCall });
    },
    /** A call this page did not start: the server resumed it after a reload (docs/protocol.md `resume`). */
    resumeStarted(state, action: PayloadAction<CallStart & { role: CallRole }>) {
      if (!canStartCall(state.phase)) return;
      Object.assign(state, { phase: 'connecting', role: action.payload.role, ...startOf(action.payload), ...freshCall });
    },
    peerRang(state) {
      if (state.phase === 'outgoing') state.peerRinging = true;
    },
    localVideoChanged(state, action: PayloadAction<{ camera: boolean; screen: boolean }>) {
      if (state.phase === 'idle') return;
      state.camera = action.payload.camera;
      state.screen = action.payload.screen;
    },
    cameraCountKnown(state, action: PayloadAction<number>) {
      state.cameraCount = action.payload;
    },
    peerMediaChanged(state, action: PayloadAction<PeerMediaState>) {
      if (state.phase !== 'idle') state.peerMedia = action.payload;
    },
    peerReconnectingChanged(state, action: PayloadAction<boolean>) {
      if (state.phase !== 'idle') state.peerReconnecting = action.payload;
    },
    /** The server resumed the call: media is rebuilt (connecting again, the timer keeps its count). */
    resumed(state) {
      state.peerReconnecting = false;
      if (state.phase === 'connected') state.phase = 'connecting';
    },
    negotiationStarted(state) {
      if (state.phase === 'outgoing' || state.phase === 'incoming') state.phase = 'connecting';
    },
    connectionEstablished(state) {
      if (state.phase === 'connecting') state.phase = 'connected';
      state.peerReconnecting = false;
    },
    timerTicked(state) {
      if (state.phase === 'connected') state.elapsedSeconds += 1;
    },
    callEnded(state, action: PayloadAction<CallEndSummary | null | undefined>) {
      Object.assign(state, { phase: 'idle', role: null, peer: null, media: 'audio', ...freshCall, ended: action.payload ?? null });
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

export const callActions = { ...callSlice.actions, callRequested };
export const callReducer = callSlice.reducer;

interface WithCall {
  call: CallState;
}

export const selectCall = (state: WithCall) => state.call;
export const selectCallPhase = (state: WithCall) => state.call.phase;
export const selectIsCallActive = (state: WithCall) => isCallActive(state.call.phase);
export const selectCallMuted = (state: WithCall) => state.call.muted;
export const selectMissedCall = (state: WithCall) => state.call.missedCall;
export const selectLocalVideo = (state: WithCall) => ({ camera: state.call.camera, screen: state.call.screen });
export const selectCallMediaState = (state: WithCall): PeerMediaState => ({ muted: state.call.muted, camera: state.call.camera, screen: state.call.screen });
