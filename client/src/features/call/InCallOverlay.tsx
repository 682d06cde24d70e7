// A call under way (SPEC.md §2): the peer's name, 연결 중 until the connection is up, then
// 통화 중 with the mm:ss timer, and the hang-up button.
import { ko } from '../../i18n/ko';
import { formatCallDuration } from './callRules';
import { PhoneIcon } from './icons';

const t = ko.call;

export interface InCallOverlayProps {
  peerName: string;
  connected: boolean;
  elapsedSeconds: number;
  onHangUp(): void;
}

export function InCallOverlay({ peerName, connected, elapsedSeconds, onHangUp }: InCallOverlayProps) {
  return (
    <div className="call-overlay" role="dialog" aria-modal="true" aria-labelledby="in-call-name" data-testid="in-call">
      <section className="call-overlay__card">
        <div className={connected ? 'call-avatar' : 'call-avatar call-avatar--ringing'} aria-hidden="true">
          {peerName.slice(0, 1)}
        </div>
        <h2 className="call-overlay__name" id="in-call-name">
          {peerName}
        </h2>
        <p className="call-overlay__status" data-testid="call-status" aria-live="polite">
          {connected ? t.inCall : t.connecting}
        </p>
        {connected && (
          <p className="call-overlay__timer" data-testid="call-timer">
            {formatCallDuration(elapsedSeconds)}
          </p>
        )}
        <div className="call-overlay__actions">
          <button type="button" className="call-round call-round--reject" onClick={onHangUp}>
            <PhoneIcon hangUp />
            <span>{t.hangUp}</span>
          </button>
        </div>
      </section>
    </div>
  );
}
