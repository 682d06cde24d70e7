// The group call's UI above the routes (mounted once in AppShell, like the 1:1 call's CallHost):
// it keeps the group-call listener running, rings once when a call starts in one of the user's
// rooms, plays each participant's audio, and shows the call (GroupCallScreen, loaded with the
// call's chunk) or, while the user moves around the app, the call bar.
import { lazy, Suspense, useEffect, useRef } from 'react';
import { useAppDispatch, useAppSelector } from '../../kernel/hooks';
import { useSignedInUser } from '../../kernel/useSignedInUser';
import { bindGroupAudio } from '../../services/groupCallElements';
import { groupCallActions, selectActiveGroupCall, selectGroupCall, selectRoomGroupCall, type WithGroupCall } from './groupCallSlice';

const GroupCallScreen = lazy(() => import(/* webpackChunkName: "group-call" */ './GroupCallScreen'));
const IncomingGroupCall = lazy(() => import(/* webpackChunkName: "group-call" */ './GroupCallOverlays').then((m) => ({ default: m.IncomingGroupCall })));
const GroupCallBar = lazy(() => import(/* webpackChunkName: "group-call" */ './GroupCallOverlays').then((m) => ({ default: m.GroupCallBar })));

function ParticipantAudio({ userId }: { userId: number }) {
  const ref = useRef<HTMLAudioElement>(null);
  useEffect(() => {
    bindGroupAudio(userId, ref.current);
    return () => bindGroupAudio(userId, null);
  }, [userId]);
  return <audio ref={ref} autoPlay data-testid={`group-audio-${userId}`} />;
}

export function GroupCallHost() {
  const uid = useSignedInUser();
  const dispatch = useAppDispatch();
  const active = useAppSelector(selectActiveGroupCall);
  const roomCall = useAppSelector((state: WithGroupCall) => (active ? selectRoomGroupCall(state, active.chatRoomId) : null));

  useEffect(() => {
    if (uid === null) return undefined;
    dispatch(groupCallActions.listenRequested({ userId: uid }));
    return () => {
      dispatch(groupCallActions.listenStopped());
    };
  }, [dispatch, uid]);

  const { incoming } = useAppSelector(selectGroupCall);
  return (
    <>
      {incoming && (
        <Suspense fallback={null}>
          <IncomingGroupCall />
        </Suspense>
      )}
      {active && (
        <div hidden>
          {roomCall?.participants
            .filter((p) => p.userId !== uid)
            .map((p) => <ParticipantAudio key={p.userId} userId={p.userId} />)}
        </div>
      )}
      {active &&
        (active.minimized ? (
          <Suspense fallback={null}>
            <GroupCallBar />
          </Suspense>
        ) : (
          <Suspense fallback={null}>
            <GroupCallScreen me={uid ?? 0} />
          </Suspense>
        ))}
    </>
  );
}
