// The user's preferences: whether others see them typing. Loaded when the settings
// screen opens, saved on each toggle; the switch is disabled while either runs.
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { Preferences } from '@common/api';

export interface PreferencesState {
  /** Null until loaded. */
  sendTyping: boolean | null;
  busy: boolean;
  failed: boolean;
}

const initialState: PreferencesState = { sendTyping: null, busy: false, failed: false };

const preferencesSlice = createSlice({
  name: 'preferences',
  initialState,
  reducers: {
    opened: (state) => {
      state.busy = true;
      state.failed = false;
    },
    loaded: (state, action: PayloadAction<Preferences>) => {
      state.sendTyping = action.payload.sendTyping;
      state.busy = false;
      state.failed = false;
    },
    sendTypingToggled: (state, _action: PayloadAction<boolean>) => {
      state.busy = true;
      state.failed = false;
    },
    failed: (state) => {
      state.busy = false;
      state.failed = true;
    },
  },
});

export const preferencesActions = preferencesSlice.actions;
export const preferencesReducer = preferencesSlice.reducer;
export const selectPreferences = (state: { preferences: PreferencesState }) => state.preferences;
