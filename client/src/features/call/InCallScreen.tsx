// The in-call overlay fed from the call slice, shown by CallHost while a call runs expanded; in
// the `in-call` chunk with the overlay (callScreens.tsx), so every screen's CallHost stays small.
import { useAppDispatch, useAppSelector } from '../../kernel/hooks';
import { callStatus, showsPeerVideo } from './callRules';
import { callActions, selectCall } from './callSlice';
import { InCallOverlay } from './InCallOverlay';

/** Screen sharing is offered where the browser has getDisplayMedia (not on most phones). */
function canShareScreen(): boolean {
  return typeof navigator !== 'undefined' && typeof navigator.mediaDevices?.getDisplayMedia === 'function';
}

export function InCallScreen() {
  const dispatch = useAppDispatch();
  const state = useAppSelector(selectCall);
  const { phase, peer, elapsedSeconds, muted, ring } = state;
  if (!peer) return null;
  return (
    <InCallOverlay
      peerName={peer.name}
      connected={phase === 'connected'}
      elapsedSeconds={elapsedSeconds}
      muted={muted}
      onHangUp={() => dispatch(callActions.hangUpClicked())}
      onToggleMute={() => dispatch(callActions.muteToggled())}
      onCollapse={() => dispatch(callActions.overlayCollapsed())}
      ring={ring}
      status={callStatus(phase, state.peerRinging, state.peerReconnecting)}
      camera={state.camera}
      screen={state.screen}
      cameraCount={state.cameraCount}
      peerMedia={state.peerMedia}
      peerVideo={showsPeerVideo(state.media, state.peerMedia)}
      onToggleCamera={() => dispatch(callActions.cameraToggled())}
      onSwitchCamera={() => dispatch(callActions.cameraSwitched())}
      onToggleScreen={canShareScreen() ? () => dispatch(callActions.screenShareToggled()) : undefined}
    />
  );
}
