// The call UI that lives above the routes (mounted once in AppShell): on every signed-in screen
// it keeps the call listener running, shows the incoming-call and in-call overlays and the two
// hidden audio elements (docs/spec.md §2); CallStrip shows the call bar and the missed-call line
// above the screen. Navigating never ends a call: the listener lives as long as the sign-in.
import { Suspense, useEffect, useLayoutEffect, useRef } from 'react';
import { useLocation } from 'wouter';
import { useAppDispatch, useAppSelector } from '../../kernel/hooks';
import { useSignedInUser } from '../../kernel/useSignedInUser';
import { bindCallAudio } from '../../services/callElements';
import { showsPeerVideo } from './callRules';
import { callActions, selectCall } from './callSlice';
import { CallBar, CallEndScreen, IncomingCallOverlay, InCallScreen, preloadCallScreens } from './callScreens';
import { MissedCallLine } from './MissedCallLine';

/** Heights of the strip's parts (call.css), so full-height screens can leave room for them. */
const CALL_BAR_HEIGHT_PX = 48;
const MISSED_CALL_HEIGHT_PX = 40;

/** Local (muted) and remote (autoplay) audio; the RTC service plays the streams through them. */
function CallAudio() {
  const local = useRef<HTMLAudioElement>(null);
  const remote = useRef<HTMLAudioElement>(null);
  useEffect(() => {
    bindCallAudio({ local: local.current, remote: remote.current });
    return () => bindCallAudio({ local: null, remote: null });
  }, []);
  return (
    <div hidden>
      <audio ref={local} muted data-testid="local-audio" />
      <audio ref={remote} autoPlay data-testid="remote-audio" />
    </div>
  );
}

export function CallHost() {
  const uid = useSignedInUser();
  const [pathname] = useLocation();
  const dispatch = useAppDispatch();
  const state = useAppSelector(selectCall);
  const { phase, peer, expanded, ring } = state;
  const inCall = phase !== 'idle' && phase !== 'incoming';

  useEffect(() => {
    if (uid === null) return undefined;
    dispatch(callActions.listenRequested({ userId: uid }));
    return () => {
      dispatch(callActions.listenStopped());
    };
  }, [dispatch, uid]);

  // The call's screens come with the call's chunk: once a call begins, each renders as soon as it mounts.
  useEffect(() => {
    if (phase !== 'idle') preloadCallScreens();
  }, [phase]);

  // Moving to another screen during a call (the browser's back button) shows that screen, with the call bar.
  const shownPath = useRef(pathname);
  useEffect(() => {
    if (shownPath.current === pathname) return;
    shownPath.current = pathname;
    if (inCall) dispatch(callActions.overlayCollapsed());
  }, [dispatch, pathname, inCall]);

  if (uid === null) return null;
  return (
    <>
      <CallAudio />
      {phase === 'incoming' && peer && (
        <Suspense fallback={null}>
          <IncomingCallOverlay
            callerName={peer.name}
            onAccept={() => dispatch(callActions.acceptClicked())}
            onReject={() => dispatch(callActions.rejectClicked())}
            ring={ring}
            media={state.media}
          />
        </Suspense>
      )}
      {inCall && peer && expanded && (
        <Suspense fallback={null}>
          <InCallScreen />
        </Suspense>
      )}
      {phase === 'idle' && state.ended && (
        <Suspense fallback={null}>
          <CallEndScreen summary={state.ended} onDismiss={() => dispatch(callActions.endScreenDismissed())} />
        </Suspense>
      )}
    </>
  );
}

/** Above the screen: the call bar while a collapsed call runs, and the missed-call line. */
export function CallStrip() {
  const uid = useSignedInUser();
  const dispatch = useAppDispatch();
  const { phase, peer, elapsedSeconds, muted, expanded, missedCall, media, peerMedia } = useAppSelector(selectCall);
  const showBar = uid !== null && phase !== 'idle' && phase !== 'incoming' && peer !== null && !expanded;
  const showMissed = uid !== null && missedCall !== null;
  const height = (showBar ? CALL_BAR_HEIGHT_PX : 0) + (showMissed ? MISSED_CALL_HEIGHT_PX : 0);

  // Full-height screens subtract this (var(--call-strip-h)) so the strip never pushes them off-screen.
  useLayoutEffect(() => {
    document.documentElement.style.setProperty('--call-strip-h', `${height}px`);
    return () => {
      document.documentElement.style.removeProperty('--call-strip-h');
    };
  }, [height]);

  if (!showBar && !showMissed) return null;
  return (
    <div className="call-strip">
      {showBar && peer && (
        <Suspense fallback={null}>
          <CallBar
            peerName={peer.name}
            connected={phase === 'connected'}
            elapsedSeconds={elapsedSeconds}
            muted={muted}
            onExpand={() => dispatch(callActions.overlayExpanded())}
            onToggleMute={() => dispatch(callActions.muteToggled())}
            onHangUp={() => dispatch(callActions.hangUpClicked())}
            video={showsPeerVideo(media, peerMedia)}
          />
        </Suspense>
      )}
      {showMissed && missedCall && <MissedCallLine callerName={missedCall.name} onDismiss={() => dispatch(callActions.missedCallDismissed())} />}
    </div>
  );
}
