// The collapsed in-call overlay: a bar above every screen with the peer's name (and a live
// thumbnail of the peer's video), the mm:ss timer (연결 중… until connected), mute and hang-up.
// Tapping the name expands the overlay again.
import { koCall } from '../../i18n/koCall';
import { formatCallDuration } from './callOutcomeRules';
import { CallThumbnail } from './CallThumbnail';
import { MicIcon, PhoneIcon } from './icons';

const t = koCall;

export interface CallBarProps {
  peerName: string;
  connected: boolean;
  elapsedSeconds: number;
  muted: boolean;
  onExpand(): void;
  onToggleMute(): void;
  onHangUp(): void;
  /** The peer's video shows: the bar carries a live thumbnail of it. */
  video?: boolean;
}

export function CallBar({ peerName, connected, elapsedSeconds, muted, onExpand, onToggleMute, onHangUp, video = false }: CallBarProps) {
  return (
    <aside className="call-bar" aria-label={t.callBar} data-testid="call-bar">
      {video && <CallThumbnail />}
      <button type="button" className="call-bar__expand" onClick={onExpand} aria-label={t.expand(peerName)}>
        <span className="call-bar__name">{peerName}</span>
        <span className="call-bar__status" data-testid="call-bar-timer">
          {connected ? formatCallDuration(elapsedSeconds) : t.connecting}
        </span>
      </button>
      <button type="button" className="call-bar__button" aria-pressed={muted} aria-label={muted ? t.unmute : t.mute} title={muted ? t.unmute : t.mute} onClick={onToggleMute}>
        <MicIcon size={18} muted={muted} />
      </button>
      <button type="button" className="call-bar__button call-bar__button--hang-up" aria-label={t.hangUp} title={t.hangUp} onClick={onHangUp}>
        <PhoneIcon size={18} hangUp />
      </button>
    </aside>
  );
}
