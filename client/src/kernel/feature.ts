// A feature as the store installs it: its slices and its long-lived sagas. Only auth is in the
// store from the start; every other feature is installed when the first screen that needs it
// loads (app/lazyWithFeatures.tsx), so /login downloads no chat, room, call or notification code.
import type { Reducer } from '@reduxjs/toolkit';
import type { SagaIterator } from 'redux-saga';

export interface Feature {
  /** For the action that marks its installation and for whoever debugs. */
  readonly name: string;
  /** Its slices by their key in the state (the slice's name). */
  readonly reducers: Readonly<Record<string, Reducer>>;
  /** Its long-lived sagas, each run once, on its own (one crashing does not stop the others). */
  readonly sagas: ReadonlyArray<() => SagaIterator>;
  /** Its sagas use the late services (STOMP, RTC, ringer, notifier, unsent store; kernel/services.ts). */
  readonly lateServices?: boolean;
}
