// The group call, full screen (issue 25): a grid of participants (their video, or their picture
// while the camera is off), the one speaking highlighted, each one's microphone, camera and
// screen; this user's own controls; minimise to the call bar, leave. In the `group-call` chunk.
import { useEffect, useRef } from 'react';
import type { GroupCallParticipant } from '@common/group-call';
import { Avatar } from '../../components/Avatar';
import { useAppDispatch, useAppSelector } from '../../kernel/hooks';
import { koCall } from '../../i18n/koCall';
import { koGroupCall } from '../../i18n/koGroupCall';
import { bindGroupVideo, type TileKey } from '../../services/groupCallElements';
import { CameraIcon, MicIcon, PhoneIcon, ScreenIcon } from '../call';
import { groupCallActions, selectActiveGroupCall, selectRoomGroupCall, type WithGroupCall } from './groupCallSlice';

const t = koGroupCall;

function TileVideo({ tileKey, mirrored }: { tileKey: TileKey; mirrored: boolean }) {
  const ref = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    bindGroupVideo(tileKey, ref.current);
    return () => bindGroupVideo(tileKey, null);
  }, [tileKey]);
  // Muted: the sound plays through the participant's audio element (GroupCallHost).
  return <video ref={ref} className={mirrored ? 'group-tile__video group-tile__video--mirrored' : 'group-tile__video'} autoPlay playsInline muted />;
}

/** A participant whose connection dropped keeps their tile, dimmed, for the server's reconnect grace. */
const RECONNECTING_STYLE = { opacity: 0.45 } as const;

function Tile({ participant, tileKey, speaking, label }: { participant: GroupCallParticipant; tileKey: TileKey; speaking: boolean; label: string }) {
  const showsVideo = participant.camera || participant.screen;
  const reconnecting = participant.reconnecting === true;
  const classes = ['group-tile', speaking && !reconnecting && 'group-tile--speaking', reconnecting && 'group-tile--reconnecting'].filter(Boolean).join(' ');
  return (
    <li
      className={classes}
      style={reconnecting ? RECONNECTING_STYLE : undefined}
      aria-label={label}
      data-testid={`group-tile-${tileKey}`}
      data-speaking={speaking && !reconnecting}
      data-reconnecting={reconnecting}
    >
      {showsVideo ? <TileVideo tileKey={tileKey} mirrored={tileKey === 'me' && !participant.screen} /> : <Avatar name={participant.name} size={72} />}
      <span className="group-tile__name">
        {label}
        {participant.muted && (
          <span className="group-tile__state" role="img" aria-label={t.muted} title={t.muted}>
            <MicIcon size={14} muted />
          </span>
        )}
        {participant.screen && <span className="group-tile__state">{t.sharing}</span>}
        {reconnecting && (
          <span className="group-tile__state" role="status">
            {t.reconnecting}
          </span>
        )}
        {speaking && <span className="visually-hidden">{t.speaking}</span>}
      </span>
    </li>
  );
}

export default function GroupCallScreen({ me }: { me: number }) {
  const dispatch = useAppDispatch();
  const active = useAppSelector(selectActiveGroupCall);
  const roomCall = useAppSelector((state: WithGroupCall) => (active ? selectRoomGroupCall(state, active.chatRoomId) : null));
  const leave = useRef<HTMLButtonElement>(null);
  useEffect(() => leave.current?.focus(), []);
  if (!active) return null;
  const mine: GroupCallParticipant = { userId: me, name: t.me, muted: active.muted, camera: active.camera, screen: active.screen };
  const others = (roomCall?.participants ?? []).filter((p) => p.userId !== me);
  const count = others.length + 1;
  return (
    <section
      className="group-call-screen"
      aria-label={t.title(count)}
      data-testid="group-call-screen"
      data-phase={active.phase}
      onKeyDown={(e) => e.key === 'Escape' && dispatch(groupCallActions.minimizedChanged(true))}
    >
      <header className="group-call-screen__header">
        <h2>{t.title(count)}</h2>
        <p className="group-call-screen__status">{active.phase === 'connected' ? koCall.inCall : t.connecting}</p>
      </header>
      <ul className={`group-grid group-grid--${Math.min(count, 9)}`} aria-label={t.participants}>
        <Tile participant={mine} tileKey="me" speaking={false} label={t.me} />
        {others.map((p) => (
          <Tile key={p.userId} participant={p} tileKey={p.userId} speaking={active.speakingUserId === p.userId} label={p.name} />
        ))}
      </ul>
      <div className="group-call-screen__controls">
        <button type="button" className="call-round" aria-pressed={active.muted} aria-label={active.muted ? t.unmute : t.mute} title={active.muted ? t.unmute : t.mute} onClick={() => dispatch(groupCallActions.muteToggled())}>
          <MicIcon muted={active.muted} />
        </button>
        <button type="button" className="call-round" aria-pressed={active.camera} aria-label={active.camera ? t.cameraOff : t.cameraOn} title={active.camera ? t.cameraOff : t.cameraOn} onClick={() => dispatch(groupCallActions.cameraToggled())}>
          <CameraIcon off={!active.camera} />
        </button>
        <button type="button" className="call-round" aria-pressed={active.screen} aria-label={active.screen ? t.stopShare : t.shareScreen} title={active.screen ? t.stopShare : t.shareScreen} onClick={() => dispatch(groupCallActions.screenToggled())}>
          <ScreenIcon />
        </button>
        <button type="button" className="call-round" aria-label={t.minimize} title={t.minimize} onClick={() => dispatch(groupCallActions.minimizedChanged(true))}>
          <span aria-hidden="true">⌄</span>
        </button>
        <button type="button" ref={leave} className="call-round call-round--reject" aria-label={t.leave} title={t.leave} onClick={() => dispatch(groupCallActions.leaveRequested())}>
          <PhoneIcon hangUp />
        </button>
      </div>
    </section>
  );
}
