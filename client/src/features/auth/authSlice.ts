// Login screen state (docs/spec.md §4 login status): idle → logging in → welcome, or an error line.
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { LoginRequest, LoginResponse, OAuthProvider } from '@common/api';

/** What the status line under the login form says. */
export type LoginStatus =
  | { kind: 'idle' }
  | { kind: 'loggingIn' }
  | { kind: 'welcome'; name: string }
  | { kind: 'mismatch' }
  | { kind: 'incomplete' }
  | { kind: 'oauthError'; provider: OAuthProvider };

export interface AuthState {
  status: LoginStatus;
  /** A request runs or the page is about to leave: buttons stay disabled. */
  busy: boolean;
}

const initialState: AuthState = { status: { kind: 'idle' }, busy: false };

const authSlice = createSlice({
  name: 'auth',
  initialState,
  reducers: {
    /** The login page opened, maybe with ?oauthError=… from a failed OAuth callback. */
    loginPageOpened: (_state, action: PayloadAction<{ oauthError: OAuthProvider | null }>) => ({
      status: action.payload.oauthError ? { kind: 'oauthError', provider: action.payload.oauthError } : { kind: 'idle' },
      busy: false,
    }),
    loginSubmitted: (_state, _action: PayloadAction<LoginRequest>) => {},
    loginRejectedAsIncomplete: (state) => {
      state.status = { kind: 'incomplete' };
    },
    loginStarted: (state) => {
      state.status = { kind: 'loggingIn' };
      state.busy = true;
    },
    loginSucceeded: (state, action: PayloadAction<LoginResponse>) => {
      state.status = { kind: 'welcome', name: action.payload.name };
      state.busy = true;
    },
    loginFailed: (state) => {
      state.status = { kind: 'mismatch' };
      state.busy = false;
    },
    oauthRequested: (state, _action: PayloadAction<OAuthProvider>) => {
      state.busy = true;
    },
    oauthFailed: (state, action: PayloadAction<OAuthProvider>) => {
      state.status = { kind: 'oauthError', provider: action.payload };
      state.busy = false;
    },
    /** Anyone may dispatch this (the chat list's logout link): ends the session, then /login. */
    logoutRequested: () => {},
  },
});

export const {
  loginPageOpened,
  loginSubmitted,
  loginRejectedAsIncomplete,
  loginStarted,
  loginSucceeded,
  loginFailed,
  oauthRequested,
  oauthFailed,
  logoutRequested,
} = authSlice.actions;
export const authReducer = authSlice.reducer;

export const selectLoginStatus = (state: { auth: AuthState }) => state.auth.status;
export const selectLoginBusy = (state: { auth: AuthState }) => state.auth.busy;
