// A call under way (docs/spec.md §2): the peer's name, 연결 중 until the connection is up, then
// 통화 중 with the mm:ss timer, and the hang-up button. Beyond the spec: mute, and collapsing
// the overlay to the call bar so the user can use the rest of the app during the call. A modal
// Dialog: focus moves in, Tab stays inside, Escape (or a click beside it) collapses it to the bar.
import { Dialog } from '../../components/Dialog';
import { ko } from '../../i18n/ko';
import { formatCallDuration } from './callRules';
import type { CallState } from './callSlice';
import { RingStatus, ringAttribute } from './RingStatus';
import { MicIcon, PhoneIcon } from './icons';

const t = ko.call;

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
}

export function InCallOverlay({ peerName, connected, elapsedSeconds, muted, onHangUp, onToggleMute, onCollapse, ring = null }: InCallOverlayProps) {
  return (
    <Dialog labelledBy="in-call-name" onCancel={onCollapse} className="call-dialog">
      <section className="call-overlay__card" data-testid="in-call" data-ring={ringAttribute(ring)}>
        <button type="button" className="call-overlay__collapse" onClick={onCollapse} aria-label={t.collapse} title={t.collapse}>
          <span aria-hidden="true">⌄</span>
        </button>
        <div className={connected ? 'call-avatar' : 'call-avatar call-avatar--ringing'} aria-hidden="true">
          {peerName.slice(0, 1)}
        </div>
        <h2 className="call-overlay__name" id="in-call-name">
          {peerName}
        </h2>
        <p className="call-overlay__status" data-testid="call-status" aria-live="polite">
          {connected ? t.inCall : t.connecting}
        </p>
        <RingStatus ring={ring} />
        {connected && (
          <p className="call-overlay__timer" data-testid="call-timer">
            {formatCallDuration(elapsedSeconds)}
          </p>
        )}
        <div className="call-overlay__actions">
          <button type="button" className="call-round call-round--mute" aria-pressed={muted} onClick={onToggleMute}>
            <MicIcon muted={muted} />
            <span>{muted ? t.unmute : t.mute}</span>
          </button>
          <button type="button" className="call-round call-round--reject" onClick={onHangUp}>
            <PhoneIcon hangUp />
            <span>{t.hangUp}</span>
          </button>
        </div>
      </section>
    </Dialog>
  );
}
