// The group calls this client knows of (issue 25, common/group-call.ts): the call on in each room
// it heard about, a ring, and the one call this page is in. Media streams are not serialisable:
// they live in the group RTC service (services/groupRtc.ts), never here.
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { CallMedia } from '@common/api';
import type { GroupCallState, GroupIncomingEvent } from '@common/group-call';

export interface ActiveGroupCall {
  chatRoomId: number;
  /** null until the server answers start with the call it made. */
  callId: string | null;
  media: CallMedia;
  phase: 'joining' | 'connected';
  muted: boolean;
  camera: boolean;
  screen: boolean;
  /** The participant heard loudest now (never this user). */
  speakingUserId: number | null;
  /** The call shrinks to the call bar while the user moves around the app. */
  minimized: boolean;
}

export interface GroupCallSliceState {
  /** The call on in each room this client heard of (the room's events, GET api.groupCall). */
  byRoom: Record<number, GroupCallState>;
  incoming: GroupIncomingEvent | null;
  /** Why group calls cannot start here (the server refused one as unavailable); null while they can. */
  unavailable: string | null;
  active: ActiveGroupCall | null;
  /** The room on screen (its banner mounted), whose call this client follows; null when none. */
  watchedRoomId: number | null;
}

const initialState: GroupCallSliceState = { byRoom: {}, incoming: null, unavailable: null, active: null, watchedRoomId: null };

export interface JoinRequest {
  chatRoomId: number;
  media: CallMedia;
  /** The call to join; absent to start one. */
  callId?: string;
}

const slice = createSlice({
  name: 'groupCall',
  initialState,
  reducers: {
    /** The group-call listener runs for this user (GroupCallHost, every signed-in screen). */
    listenRequested: (_state, _action: PayloadAction<{ userId: number }>) => undefined,
    listenStopped: () => undefined,
    /** A room is on screen (GroupCallBanner mounted): follow its call. */
    roomWatched(state, action: PayloadAction<number>) {
      state.watchedRoomId = action.payload;
    },
    /** That room left the screen; a later room's roomWatched may already have replaced it. */
    roomUnwatched(state, action: PayloadAction<number>) {
      if (state.watchedRoomId === action.payload) state.watchedRoomId = null;
    },
    stateReceived(state, action: PayloadAction<GroupCallState>) {
      state.byRoom[action.payload.chatRoomId] = action.payload;
      if (state.active?.chatRoomId === action.payload.chatRoomId && state.active.callId === null) state.active.callId = action.payload.callId;
    },
    /** The room's call ended (callId) or the room has none (null). */
    callOff(state, action: PayloadAction<{ chatRoomId: number; callId: string | null }>) {
      const known = state.byRoom[action.payload.chatRoomId];
      if (known && (action.payload.callId === null || known.callId === action.payload.callId)) delete state.byRoom[action.payload.chatRoomId];
      if (state.incoming?.chatRoomId === action.payload.chatRoomId) state.incoming = null;
    },
    incomingReceived(state, action: PayloadAction<GroupIncomingEvent>) {
      // In a call already: no ring (the banner of the room still offers to join).
      if (!state.active) state.incoming = action.payload;
    },
    incomingDismissed(state) {
      state.incoming = null;
    },
    joinRequested(state, action: PayloadAction<JoinRequest>) {
      if (state.active) return;
      const { chatRoomId, media, callId } = action.payload;
      state.incoming = null;
      state.active = { chatRoomId, callId: callId ?? null, media, phase: 'joining', muted: false, camera: media === 'video', screen: false, speakingUserId: null, minimized: false };
    },
    joined(state, action: PayloadAction<{ callId: string }>) {
      if (state.active) state.active.callId = action.payload.callId;
    },
    connected(state) {
      if (state.active) state.active.phase = 'connected';
    },
    /** The call left (by the user, the server or a failure); `unavailable` names why none can start here. */
    left(state, action: PayloadAction<{ unavailable?: string }>) {
      state.active = null;
      if (action.payload.unavailable) state.unavailable = action.payload.unavailable;
    },
    leaveRequested: () => undefined,
    muteToggled: () => undefined,
    cameraToggled: () => undefined,
    screenToggled: () => undefined,
    mediaChanged(state, action: PayloadAction<{ muted: boolean; camera: boolean; screen: boolean }>) {
      if (state.active) Object.assign(state.active, action.payload);
    },
    speakerChanged(state, action: PayloadAction<number | null>) {
      if (state.active) state.active.speakingUserId = action.payload;
    },
    minimizedChanged(state, action: PayloadAction<boolean>) {
      if (state.active) state.active.minimized = action.payload;
    },
  },
});

export const groupCallActions = slice.actions;
export const groupCallReducer = slice.reducer;

export type WithGroupCall = { groupCall?: GroupCallSliceState };
const EMPTY = initialState;
export const selectGroupCall = (state: WithGroupCall): GroupCallSliceState => state.groupCall ?? EMPTY;
export const selectRoomGroupCall = (state: WithGroupCall, chatRoomId: number): GroupCallState | null => selectGroupCall(state).byRoom[chatRoomId] ?? null;
export const selectActiveGroupCall = (state: WithGroupCall): ActiveGroupCall | null => selectGroupCall(state).active;
/** The rooms with a call on, for the chat list's mark. */
export const selectRoomsWithGroupCall = (state: WithGroupCall): Record<number, GroupCallState> => selectGroupCall(state).byRoom;
