// Sign-up state machine (docs/spec.md §4): unverified → codeSent → verified. Failures never move the
// phase; the saga decides every transition and the reducer only records it.
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { ko } from '../../i18n/ko';

export type SignUpPhase = 'unverified' | 'codeSent' | 'verified';
export type SignUpRequest = 'send' | 'verify' | 'signUp';
/** A key of ko.signUp.messages: the words live in i18n, the state stays serialisable. */
export type SignUpMessage = keyof typeof ko.signUp.messages;

export interface SignUpState {
  phase: SignUpPhase;
  /** The address the code went to; the e-mail field shows it, locked, from codeSent on. */
  email: string;
  pending: SignUpRequest | null;
  message: SignUpMessage | null;
  /** Whether the message reports a failure (styles the status line). */
  failed: boolean;
  /** Set once the account exists: the page shows '{name}' + sign-up complete, then leaves. */
  completedName: string | null;
  /** When the last codes went out (epoch ms): the server allows SEND_WINDOW.limit per window. */
  sendTimes: number[];
  /** Until when the server said to wait (its Retry-After on a 429), epoch ms. */
  resendBlockedUntil: number | null;
}

/** The server's limit on codes per address (verification-service.ts SEND_WINDOW), mirrored so the resend button waits it out instead of asking for a 429. */
export const SEND_WINDOW = { limit: 3, windowMs: 5 * 60 * 1000 };

export const initialSignUpState: SignUpState = {
  phase: 'unverified',
  email: '',
  pending: null,
  message: null,
  failed: false,
  completedName: null,
  sendTimes: [],
  resendBlockedUntil: null,
};

export interface SignUpForm {
  name: string;
  password: string;
  confirmPassword: string;
}

const signUpSlice = createSlice({
  name: 'signUp',
  initialState: initialSignUpState,
  reducers: {
    // What the user did.
    pageOpened: () => initialSignUpState,
    codeRequested: (_state, _action: PayloadAction<{ email: string }>) => {},
    codeSubmitted: (_state, _action: PayloadAction<{ code: string }>) => {},
    formSubmitted: (_state, _action: PayloadAction<SignUpForm>) => {},
    // What the saga decided.
    requestStarted: (state, action: PayloadAction<SignUpRequest>) => {
      state.pending = action.payload;
      state.message = null;
      state.failed = false;
    },
    codeSent: (state, action: PayloadAction<{ email: string; resent: boolean; at?: number }>) => {
      if (action.payload.at !== undefined) state.sendTimes = [...state.sendTimes, action.payload.at].slice(-SEND_WINDOW.limit);
      state.phase = 'codeSent';
      state.email = action.payload.email;
      state.pending = null;
      state.message = action.payload.resent ? 'codeResent' : 'codeSent';
      state.failed = false;
    },
    codeVerified: (state) => {
      state.phase = 'verified';
      state.pending = null;
      state.message = 'verified';
      state.failed = false;
    },
    completed: (state, action: PayloadAction<{ name: string }>) => {
      state.pending = null;
      state.message = null;
      state.failed = false;
      state.completedName = action.payload.name;
    },
    sendRateLimited: (state, action: PayloadAction<{ until: number }>) => {
      state.resendBlockedUntil = action.payload.until;
    },
    failed: (state, action: PayloadAction<SignUpMessage>) => {
      state.pending = null;
      state.message = action.payload;
      state.failed = true;
    },
  },
});

export const signUpActions = signUpSlice.actions;
export const signUpReducer = signUpSlice.reducer;

export const selectSignUp = (state: { signUp: SignUpState }) => state.signUp;

/** From when the server would accept another code for this address (0: now). */
export function resendAvailableAt(state: SignUpState): number {
  const { sendTimes } = state;
  const byCount = sendTimes.length >= SEND_WINDOW.limit ? sendTimes[sendTimes.length - SEND_WINDOW.limit] + SEND_WINDOW.windowMs : 0;
  return Math.max(byCount, state.resendBlockedUntil ?? 0);
}
