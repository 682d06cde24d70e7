// A call record in a room (docs/spec.md call records): the system message of a call, drawn as a
// bubble worded for the viewer (발신 음성통화 00:38, 부재중 전화, 취소된 통화, 거절된 통화 …) on
// the caller's side of the conversation, with a button to call back with the same media.
import type { CallSystemEvent } from '@common/api';
import { useAppDispatch } from '../../kernel/hooks';
import { koCall } from '../../i18n/koCall';
import { callRecordView } from './callRecordView';
import { callRequested } from './callRequests';
import type { CallPeer } from './callRules';
import { PhoneIcon } from './icons';
import { VideoIcon } from './videoIcons';

const t = koCall;
const kinds = { audio: t.voiceCall, video: t.videoCall } as const;

export function CallRecordBubble({ event, me, peer }: { event: CallSystemEvent; me: number; peer: CallPeer | null }) {
  const dispatch = useAppDispatch();
  const view = callRecordView(event, me, t.record, kinds);
  return (
    <div className={view.outgoing ? 'call-record-row call-record-row--mine' : 'call-record-row'} data-testid="call-record">
      <div className={view.missed ? 'call-record call-record--missed' : 'call-record'}>
        {view.media === 'video' ? <VideoIcon /> : <PhoneIcon size={20} />}
        <span className="call-record__title" data-testid="call-record-title">
          {view.title}
        </span>
        {view.duration && <span className="call-record__duration">{view.duration}</span>}
        {peer && (
          <button
            type="button"
            className="call-buttons__button"
            aria-label={t.record.callBack(kinds[view.media])}
            title={t.record.callBack(kinds[view.media])}
            onClick={() => dispatch(callRequested(peer, view.media))}
          >
            {view.media === 'video' ? <VideoIcon size={16} /> : <PhoneIcon size={16} />}
          </button>
        )}
      </div>
    </div>
  );
}
