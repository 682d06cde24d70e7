// Profile update (docs/spec.md §2 Settings): a status line and whether a request runs.
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { ko } from '../../i18n/ko';

export type SettingsMessage = keyof typeof ko.settings.messages;

export interface SettingsState {
  pending: boolean;
  message: SettingsMessage | null;
  failed: boolean;
  /** The update went through: the page is about to go to /chat-list. */
  done: boolean;
  /** The server said the password changes: the form asks for the current one too. */
  needsCurrentPassword: boolean;
}

const initialState: SettingsState = { pending: false, message: null, failed: false, done: false, needsCurrentPassword: false };

export interface SettingsForm {
  name: string;
  password: string;
  confirmPassword: string;
  /** Shown and sent only once the server asked for it. */
  currentPassword?: string;
}

const settingsSlice = createSlice({
  name: 'settings',
  initialState,
  reducers: {
    pageOpened: () => initialState,
    updateSubmitted: (_state, _action: PayloadAction<SettingsForm>) => {},
    updateStarted: (state) => {
      state.pending = true;
      state.message = 'updating';
      state.failed = false;
    },
    updateSucceeded: (state) => {
      state.pending = false;
      state.done = true;
      state.message = 'updated';
      state.failed = false;
    },
    updateFailed: (state, action: PayloadAction<SettingsMessage>) => {
      state.pending = false;
      state.message = action.payload;
      state.failed = true;
      if (action.payload === 'currentPasswordRequired' || action.payload === 'wrongCurrentPassword') state.needsCurrentPassword = true;
    },
  },
});

export const settingsActions = settingsSlice.actions;
export const settingsReducer = settingsSlice.reducer;
export const selectSettings = (state: { settings: SettingsState }) => state.settings;
