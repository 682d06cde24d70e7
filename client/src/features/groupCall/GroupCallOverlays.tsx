// The group call's ring and call bar (GroupCallHost.tsx), loaded with the call's chunk the first
// time a ring comes or a call is on: no screen carries them before.
import { useRef } from 'react';
import { Dialog } from '../../components/Dialog';
import { useAppDispatch, useAppSelector } from '../../kernel/hooks';
import { koCall } from '../../i18n/koCall';
import { koGroupCall } from '../../i18n/koGroupCall';
import { groupCallActions, selectActiveGroupCall, selectGroupCall, selectRoomGroupCall, type WithGroupCall } from './groupCallSlice';

const t = koGroupCall;

export function IncomingGroupCall() {
  const dispatch = useAppDispatch();
  const { incoming } = useAppSelector(selectGroupCall);
  const join = useRef<HTMLButtonElement>(null);
  if (!incoming) return null;
  const dismiss = () => dispatch(groupCallActions.incomingDismissed());
  return (
    <Dialog labelledBy="group-incoming-title" describedBy="group-incoming-from" onCancel={dismiss} initialFocus={join} className="call-dialog">
      <section className="call-overlay__card" data-testid="group-incoming">
        <p className="call-overlay__status" id="group-incoming-title">
          {t.incomingTitle}
        </p>
        <h2 className="call-overlay__name" id="group-incoming-from">
          {t.incomingFrom(incoming.starterName)}
        </h2>
        <p className="call-overlay__media">{incoming.media === 'video' ? koCall.videoCall : koCall.voiceCall}</p>
        <div className="group-call-incoming__actions">
          <button type="button" className="group-call-button" onClick={dismiss}>
            {t.dismiss}
          </button>
          <button
            type="button"
            ref={join}
            className="group-call-button group-call-button--primary"
            onClick={() => dispatch(groupCallActions.joinRequested({ chatRoomId: incoming.chatRoomId, callId: incoming.callId, media: incoming.media }))}
          >
            {t.join}
          </button>
        </div>
      </section>
    </Dialog>
  );
}

export function GroupCallBar() {
  const dispatch = useAppDispatch();
  const active = useAppSelector(selectActiveGroupCall);
  const roomCall = useAppSelector((state: WithGroupCall) => (active ? selectRoomGroupCall(state, active.chatRoomId) : null));
  if (!active) return null;
  return (
    <aside className="call-bar" aria-label={t.callBar} data-testid="group-call-bar">
      <button type="button" className="call-bar__expand" onClick={() => dispatch(groupCallActions.minimizedChanged(false))} aria-label={t.expand}>
        <span className="call-bar__name">{t.title(roomCall?.participants.length ?? 1)}</span>
        <span className="call-bar__status">{active.phase === 'connected' ? koCall.inCall : t.connecting}</span>
      </button>
      <button type="button" className="group-call-button group-call-button--leave" onClick={() => dispatch(groupCallActions.leaveRequested())}>
        {t.leave}
      </button>
    </aside>
  );
}
