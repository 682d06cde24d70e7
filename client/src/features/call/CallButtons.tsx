// '음성통화' and '영상통화' beside a person (docs/spec.md §4 Call): in a two-person room's header,
// on each member of the room's list, in user search results, on each call-history entry. Disabled
// while a call is under way (one call at a time). Other features place it through call/index.ts.
import { useAppDispatch, useAppSelector } from '../../kernel/hooks';
import { koCall } from '../../i18n/koCall';
import type { CallPeer } from './callRules';
import { callRequested } from './callRequests';
import type { CallState } from './callSlice';
import { PhoneIcon } from './icons';
import { VideoIcon } from './videoIcons';

const t = koCall;

/** The call reducer comes with the signed-in hosts; until it is installed there is no call to wait for. */
const selectBusy = (state: { call?: CallState }) => (state.call?.phase ?? 'idle') !== 'idle';

export function CallButtons({ peer, className }: { peer: CallPeer; className?: string }) {
  const dispatch = useAppDispatch();
  const busy = useAppSelector(selectBusy);
  const start = (media: 'audio' | 'video') => dispatch(callRequested({ userId: peer.userId, name: peer.name }, media));
  return (
    <span className={className ? `call-buttons ${className}` : 'call-buttons'} data-testid="call-buttons">
      <button type="button" className="call-buttons__button" aria-label={t.voiceCall} title={t.voiceCall} disabled={busy} onClick={() => start('audio')}>
        <PhoneIcon size={18} />
      </button>
      <button type="button" className="call-buttons__button" aria-label={t.videoCall} title={t.videoCall} disabled={busy} onClick={() => start('video')}>
        <VideoIcon size={18} />
      </button>
    </span>
  );
}
