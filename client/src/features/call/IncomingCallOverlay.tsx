// Someone is calling (docs/spec.md §2): the caller's name, 음성통화 or 영상통화, with accept and
// reject, in the app's modal Dialog: focus starts on accept, Tab stays inside, Escape rejects.
import { useRef } from 'react';
import { Dialog } from '../../components/Dialog';
import { koCall } from '../../i18n/koCall';
import type { CallState } from './callSlice';
import { PhoneIcon } from './icons';
import { RingStatus, ringAttribute } from './RingStatus';

const t = koCall;

export interface IncomingCallOverlayProps {
  callerName: string;
  onAccept(): void;
  onReject(): void;
  ring?: CallState['ring'];
  media?: CallState['media'];
}

export function IncomingCallOverlay({ callerName, onAccept, onReject, ring = null, media = 'audio' }: IncomingCallOverlayProps) {
  const accept = useRef<HTMLButtonElement>(null);
  return (
    <Dialog labelledBy="incoming-call-title" describedBy="incoming-call-from" onCancel={onReject} initialFocus={accept} className="call-dialog">
      <section className="call-overlay__card" data-testid="incoming-call" data-ring={ringAttribute(ring)}>
        <div className="call-avatar call-avatar--ringing" aria-hidden="true">
          {callerName.slice(0, 1)}
        </div>
        <p className="call-overlay__status" id="incoming-call-title">
          {t.incomingTitle}
        </p>
        <h2 className="call-overlay__name" id="incoming-call-from">
          {t.incomingFrom(callerName)}
        </h2>
        <p className="call-overlay__media" data-testid="incoming-media">
          {media === 'video' ? t.incomingVideo : t.incomingVoice}
        </p>
        <RingStatus ring={ring} />
        <div className="call-overlay__actions">
          <button type="button" className="call-round call-round--reject" onClick={onReject}>
            <PhoneIcon hangUp />
            <span>{t.reject}</span>
          </button>
          <button type="button" className="call-round call-round--accept" onClick={onAccept} ref={accept}>
            <PhoneIcon />
            <span>{t.accept}</span>
          </button>
        </div>
      </section>
    </Dialog>
  );
}
