// Where a group call starts and is joined from in a room (issue 25): '그룹통화' in the header of a
// room of two or more members (voice or video; joining when a call is on), and the banner at the
// top of the room while one is on ('그룹통화 중 · 3명 · 참여'). The room places both through
// groupCall/index.ts; the call itself loads on the first join.
import { useEffect, useId, useState } from 'react';
import type { CallMedia } from '@common/api';
import { useAppDispatch, useAppSelector } from '../../kernel/hooks';
import { koGroupCall } from '../../i18n/koGroupCall';
import { canStartGroupCall } from './groupCallRules';
import { groupCallActions, selectActiveGroupCall, selectGroupCall, selectRoomGroupCall, type WithGroupCall } from './groupCallSlice';

const t = koGroupCall;

function GroupIcon({ size = 18 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      <circle cx="9" cy="8" r="3.2" />
      <path d="M3 19c0-3.3 2.7-5.5 6-5.5s6 2.2 6 5.5" />
      <circle cx="17" cy="9" r="2.4" />
      <path d="M15.5 13.7c3 .1 5.5 2 5.5 5" />
    </svg>
  );
}

export function GroupCallButton({ chatRoomId, memberCount }: { chatRoomId: number; memberCount: number }) {
  const dispatch = useAppDispatch();
  const { unavailable } = useAppSelector(selectGroupCall);
  const active = useAppSelector(selectActiveGroupCall);
  const roomCall = useAppSelector((state: WithGroupCall) => selectRoomGroupCall(state, chatRoomId));
  const [choosing, setChoosing] = useState(false);
  const reasonId = useId();
  const menuId = useId();
  if (!canStartGroupCall(memberCount)) return null;
  const join = (media: CallMedia, callId?: string) => {
    setChoosing(false);
    dispatch(groupCallActions.joinRequested({ chatRoomId, media, ...(callId ? { callId } : {}) }));
  };
  const onClick = () => {
    if (roomCall) join(roomCall.media, roomCall.callId);
    else setChoosing((open) => !open);
  };
  return (
    <span className="group-call-start">
      <button
        type="button"
        className="call-buttons__button"
        aria-label={t.start}
        title={unavailable ?? t.start}
        aria-describedby={unavailable ? reasonId : undefined}
        aria-haspopup={roomCall ? undefined : 'menu'}
        aria-expanded={roomCall ? undefined : choosing}
        aria-controls={choosing ? menuId : undefined}
        disabled={unavailable !== null || active !== null}
        onClick={onClick}
        data-testid="group-call-button"
      >
        <GroupIcon />
      </button>
      {unavailable && (
        <span id={reasonId} className="visually-hidden">
          {unavailable}
        </span>
      )}
      {choosing && (
        <span className="group-call-start__menu" role="menu" id={menuId} onKeyDown={(e) => e.key === 'Escape' && setChoosing(false)}>
          <button type="button" role="menuitem" autoFocus onClick={() => join('audio')}>
            {t.startVoice}
          </button>
          <button type="button" role="menuitem" onClick={() => join('video')}>
            {t.startVideo}
          </button>
        </span>
      )}
    </span>
  );
}

/** '그룹통화 중 · N명 · 참여' while a call is on in the room and this page is not in it. Mounted with
 *  the room, it also tells the group-call saga which room's call to follow. */
export function GroupCallBanner({ chatRoomId }: { chatRoomId: number }) {
  const dispatch = useAppDispatch();
  useEffect(() => {
    dispatch(groupCallActions.roomWatched(chatRoomId));
    return () => void dispatch(groupCallActions.roomUnwatched(chatRoomId));
  }, [dispatch, chatRoomId]);
  const roomCall = useAppSelector((state: WithGroupCall) => selectRoomGroupCall(state, chatRoomId));
  const active = useAppSelector(selectActiveGroupCall);
  if (!roomCall || active?.chatRoomId === chatRoomId) return null;
  return (
    <div className="group-call-banner" role="status" data-testid="group-call-banner">
      <GroupIcon size={16} />
      <span>{t.banner(roomCall.participants.length)}</span>
      <button
        type="button"
        className="group-call-banner__join"
        disabled={active !== null}
        onClick={() => dispatch(groupCallActions.joinRequested({ chatRoomId, media: roomCall.media, callId: roomCall.callId }))}
      >
        {t.join}
      </button>
    </div>
  );
}
