// The call's own screens (ringing, in-call with its video, the call bar, the end screen), in the
// `in-call` chunk with the active call's code that the listener fetches when a call starts or
// resumes (callSaga.ts): none shows before a call runs, so no screen carries them before
// (docs/architecture.md §5 "Loading"). CallHost preloads them as soon as a call begins, so a
// screen that mounts later (the call bar after moving on) renders at once, not a frame late.
import { lazy, useState, type ComponentType, type JSX } from 'react';
import type { CallBarProps } from './CallBar';
import type { CallEndSummary } from './callRules';
import type { IncomingCallOverlayProps } from './IncomingCallOverlay';

interface CallScreen<P> {
  Screen: (props: P) => JSX.Element;
  preload(): Promise<unknown>;
}

/** A lazily loaded screen that renders at once when its module is already there (React.lazy waits a tick even then). */
function callScreen<P extends object>(load: () => Promise<ComponentType<P>>): CallScreen<P> {
  let loaded: ComponentType<P> | null = null;
  const preload = () =>
    load().then((component) => {
      loaded = component;
      return component;
    });
  const Lazy = lazy(() => preload().then((component) => ({ default: component })));
  function Screen(props: P) {
    // Chosen once per mount: switching from Lazy to the loaded component would mount it again.
    const [Component] = useState<ComponentType<P>>(() => loaded ?? Lazy);
    return <Component {...props} />;
  }
  return { Screen, preload };
}

const incoming = callScreen<IncomingCallOverlayProps>(() => import(/* webpackChunkName: "in-call" */ './IncomingCallOverlay').then((m) => m.IncomingCallOverlay));
const inCall = callScreen<object>(() => import(/* webpackChunkName: "in-call" */ './InCallScreen').then((m) => m.InCallScreen));
const bar = callScreen<CallBarProps>(() => import(/* webpackChunkName: "in-call" */ './CallBar').then((m) => m.CallBar));
const end = callScreen<{ summary: CallEndSummary; onDismiss(): void }>(() => import(/* webpackChunkName: "in-call" */ './CallEndScreen').then((m) => m.CallEndScreen));

export const IncomingCallOverlay = incoming.Screen;
export const InCallScreen = inCall.Screen;
export const CallBar = bar.Screen;
export const CallEndScreen = end.Screen;

/** Fetches the four screens (one chunk; a failure is tried again when a screen mounts). */
export function preloadCallScreens(): void {
  for (const screen of [incoming, inCall, bar, end]) screen.preload().catch(() => undefined);
}
