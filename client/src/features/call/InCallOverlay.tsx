// A call under way (docs/spec.md §2, §4 Call): the peer's name; 호출 중… / 전화 거는 중… while it
// rings, 연결 중… until media flows, then 통화 중 with the mm:ss timer; the hang-up button. Beyond the
// spec: mute, camera on/off (a voice call's upgrade to video), camera switch, screen share, the
// peer's media-state, and collapsing the overlay to the call bar so the user can use the rest of
// the app during the call. With video the peer's picture fills the card and this side's own
// preview sits small in a corner, movable by dragging; on phones the card fills the screen. A
// modal Dialog: focus moves in, Tab stays inside, Escape (or a click beside it) collapses it.
import { Dialog } from '../../components/Dialog';
import { koCall } from '../../i18n/koCall';
import { formatCallDuration } from './callOutcomeRules';
import type { CallStatus, PeerMediaState } from './callRules';
import type { CallState } from './callSlice';
import { CallVideo, DraggablePreview } from './CallVideo';
import { RingStatus, ringAttribute } from './RingStatus';
import { MicIcon, PhoneIcon } from './icons';
import { CameraIcon, ScreenIcon, SwitchCameraIcon } from './videoIcons';

const t = koCall;

export interface InCallOverlayProps {
  peerName: string;
  connected: boolean;
  elapsedSeconds: number;
  muted: boolean;
  onHangUp(): void;
  onToggleMute(): void;
  onCollapse(): void;
  /** The ring-back tone while the peer's phone rings. */
  ring?: CallState['ring'];
  /** The status line; by default 연결 중… or 통화 중 from `connected`. */
  status?: CallStatus;
  /** Video: this side's camera and screen, the peer's media-state, whether the peer's video shows. */
  camera?: boolean;
  screen?: boolean;
  cameraCount?: number;
  peerMedia?: PeerMediaState | null;
  peerVideo?: boolean;
  onToggleCamera?(): void;
  onSwitchCamera?(): void;
  onToggleScreen?(): void;
}

export function InCallOverlay(props: InCallOverlayProps) {
  const { peerName, connected, elapsedSeconds, muted, onHangUp, onToggleMute, onCollapse, ring = null } = props;
  const { camera = false, screen = false, cameraCount = 0, peerMedia = null, peerVideo = false } = props;
  const status = props.status ?? (connected ? 'inCall' : 'connecting');
  const video = peerVideo || camera || screen;
  return (
    <Dialog labelledBy="in-call-name" onCancel={onCollapse} className={video ? 'call-dialog call-dialog--video' : 'call-dialog'}>
      <section className={video ? 'call-overlay__card call-overlay__card--video' : 'call-overlay__card'} data-testid="in-call" data-ring={ringAttribute(ring)}>
        <CallVideo hidden={!peerVideo} label={t.peerVideo(peerName)} />
        <button type="button" className="call-overlay__collapse" onClick={onCollapse} aria-label={t.collapse} title={t.collapse}>
          <span aria-hidden="true">⌄</span>
        </button>
        {!peerVideo && (
          <div className={connected ? 'call-avatar' : 'call-avatar call-avatar--ringing'} aria-hidden="true">
            {peerName.slice(0, 1)}
          </div>
        )}
        <h2 className="call-overlay__name" id="in-call-name">
          {peerName}
        </h2>
        <p className="call-overlay__status" data-testid="call-status" aria-live="polite">
          {t[status]}
        </p>
        <PeerMediaLine peerMedia={peerMedia} />
        <RingStatus ring={ring} />
        {connected && (
          <p className="call-overlay__timer" data-testid="call-timer">
            {formatCallDuration(elapsedSeconds)}
          </p>
        )}
        {(camera || screen) && <DraggablePreview label={t.ownVideo} />}
        <div className="call-overlay__actions">
          <button type="button" className="call-round call-round--mute" aria-pressed={muted} onClick={onToggleMute}>
            <MicIcon muted={muted} />
            <span>{muted ? t.unmute : t.mute}</span>
          </button>
          {props.onToggleCamera && (
            <button type="button" className="call-round call-round--mute" aria-pressed={camera} onClick={props.onToggleCamera}>
              <CameraIcon off={!camera} />
              <span>{camera ? t.cameraOff : t.cameraOn}</span>
            </button>
          )}
          {props.onSwitchCamera && camera && cameraCount > 1 && (
            <button type="button" className="call-round call-round--mute" onClick={props.onSwitchCamera}>
              <SwitchCameraIcon />
              <span>{t.switchCamera}</span>
            </button>
          )}
          {props.onToggleScreen && (
            <button type="button" className="call-round call-round--mute" aria-pressed={screen} onClick={props.onToggleScreen}>
              <ScreenIcon />
              <span>{screen ? t.stopShare : t.shareScreen}</span>
            </button>
          )}
          <button type="button" className="call-round call-round--reject" onClick={onHangUp}>
            <PhoneIcon hangUp />
            <span>{t.hangUp}</span>
          </button>
        </div>
      </section>
    </Dialog>
  );
}

/** The peer's media-state, in words (docs/spec.md §4 Call): muted, camera off in a video call, sharing. */
function PeerMediaLine({ peerMedia }: { peerMedia: PeerMediaState | null }) {
  if (!peerMedia || (!peerMedia.muted && !peerMedia.screen)) return null;
  return (
    <p className="call-overlay__peer-media" data-testid="peer-media">
      {peerMedia.muted && (
        <span className="call-overlay__peer-muted" data-testid="peer-muted">
          <MicIcon size={16} muted />
          {t.peerMuted}
        </span>
      )}
      {peerMedia.screen && <span data-testid="peer-sharing">{t.peerSharing}</span>}
    </p>
  );
}
