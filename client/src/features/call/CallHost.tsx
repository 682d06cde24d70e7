// The call UI that lives above the routes (mounted once in AppShell): on /chat-list and /call it
// keeps the call listener running for the signed-in user and shows the incoming-call and in-call
// overlays plus the two hidden audio elements (SPEC.md §2).
import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { paths } from '../../app/paths';
import { bindCallAudio } from '../../services/rtc';
import { createUidStore } from '../auth/uid';
import { callActions, selectCall } from './callSlice';
import { InCallOverlay } from './InCallOverlay';
import { IncomingCallOverlay } from './IncomingCallOverlay';
import './call.css';

const CALL_ROUTES: readonly string[] = [paths.chatList, paths.call];

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
  const { pathname } = useLocation();
  const uid = CALL_ROUTES.includes(pathname) ? createUidStore(window.localStorage).read() : null;
  const dispatch = useAppDispatch();
  const { phase, peer, elapsedSeconds } = useAppSelector(selectCall);

  useEffect(() => {
    if (uid === null) return undefined;
    dispatch(callActions.listenRequested({ userId: uid }));
    return () => {
      dispatch(callActions.listenStopped());
    };
  }, [dispatch, uid]);

  if (uid === null) return null;
  return (
    <>
      <CallAudio />
      {phase === 'incoming' && peer && (
        <IncomingCallOverlay
          callerName={peer.name}
          onAccept={() => dispatch(callActions.acceptClicked())}
          onReject={() => dispatch(callActions.rejectClicked())}
        />
      )}
      {phase !== 'idle' && phase !== 'incoming' && peer && (
        <InCallOverlay
          peerName={peer.name}
          connected={phase === 'connected'}
          elapsedSeconds={elapsedSeconds}
          onHangUp={() => dispatch(callActions.hangUpClicked())}
        />
      )}
    </>
  );
}
