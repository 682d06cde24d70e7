// One group call this page is in (issue 25, common/group-call.ts), from start or join to leave:
// the server answers with the call and our TURN servers, this side publishes its media to the
// SFU, takes every subscribe offer the server relays as participants come and go, trickles
// candidates both ways, and says its mute, camera and screen. Loaded with the first group call
// (chunk `group-call`); the browser's WebRTC is behind the groupRtc service. Everything opened
// here is closed in one `finally`.
import { buffers, channel, eventChannel, type Channel, type EventChannel } from 'redux-saga';
import { actionChannel, call, cancel, delay, fork, put, race, select, take, type SagaGenerator } from 'typed-redux-saga';
import { api } from '@common/api';
import { app, queues } from '@common/destinations';
import { decodeGroupCallNews } from '@common/group-call-events';
import { decodeGroupSignal } from '@common/group-signal-events';
import type { GroupCallSignal, GroupCallSignalPayload } from '@common/group-call';
import { service } from '../../kernel/sagaContext';
import { koCall } from '../../i18n/koCall';
import { koGroupCall } from '../../i18n/koGroupCall';
import type { GroupSession, GroupSessionEvent } from '../../services/groupRtc';
import type { StompService } from '../../services/stomp';
import { forgetGroupCall, rememberedGroupCall, rememberGroupCall } from './groupCallMemory';
import { concernsCall, farewellText, pickSpeaker } from './groupCallRules';
import { groupCallActions, selectActiveGroupCall, type JoinRequest } from './groupCallSlice';

const t = koGroupCall;
/** How long the server may take to answer a start or join before the call is given up. */
const JOIN_WAIT_MS = 15_000;
/** How often the active speaker is looked for. */
const SPEAKER_EVERY_MS = 400;

type Distributive<T> = T extends unknown ? Omit<T, 'chatRoomId' | 'callId'> : never;

function signalChannel(stomp: StompService, me: number): EventChannel<GroupCallSignal> {
  return eventChannel<GroupCallSignal>(
    (emit) =>
      stomp.subscribe(queues.call('group-signal', me), {
        message: (body) => {
          const signal = decodeGroupSignal(body);
          if (signal) emit(signal);
        },
      }),
    buffers.expanding<GroupCallSignal>(32),
  );
}

function sessionChannel(session: GroupSession): EventChannel<GroupSessionEvent> {
  return eventChannel<GroupSessionEvent>((emit) => session.onEvent(emit), buffers.expanding<GroupSessionEvent>(32));
}

function* send(destination: string, payload: unknown): SagaGenerator<void> {
  const stomp = yield* service('stomp');
  if (!(yield* call([stomp, stomp.publish], destination, payload))) {
    const logError = yield* service('logError');
    yield* call(logError, 'group call', new Error(`not connected: ${destination} was not sent`));
  }
}

/** The server's first answer about this call: joined, or refused (or nothing in time: null). */
function* awaitJoined(signals: EventChannel<GroupCallSignal>, chatRoomId: number, callId: string | null): SagaGenerator<GroupCallSignal | 'left' | null> {
  for (;;) {
    const { signal, leave, timeout } = yield* race({ signal: take(signals), leave: take(groupCallActions.leaveRequested), timeout: delay(JOIN_WAIT_MS) });
    if (leave) return 'left';
    if (timeout || !signal) return null;
    if (!concernsCall(signal, chatRoomId, callId)) continue;
    if (signal.kind === 'joined' || signal.kind === 'refused' || signal.kind === 'ended') return signal;
  }
}

function* watchSpeaker(session: GroupSession): SagaGenerator<void> {
  for (;;) {
    yield* delay(SPEAKER_EVERY_MS);
    const levels = yield* call([session, session.audioLevels]);
    const current = (yield* select(selectActiveGroupCall))?.speakingUserId ?? null;
    const next = pickSpeaker(levels, current);
    if (next !== current) yield* put(groupCallActions.speakerChanged(next));
  }
}

export function* runGroupCall(me: number, request: JoinRequest): SagaGenerator<void> {
  const { chatRoomId } = request;
  const stomp = yield* service('stomp');
  const signals = yield* call(signalChannel, stomp, me);
  let callId = request.callId ?? null;
  let session: GroupSession | null = null;
  let events: EventChannel<GroupSessionEvent> | null = null;
  const screenEnded: Channel<true> = channel<true>();
  // The user's buttons, kept while the saga is busy (joining, opening media, applying an offer
  // or a candidate): a take() alone misses a press dispatched meanwhile, so 나가기 could be lost.
  const presses = yield* actionChannel(
    [groupCallActions.leaveRequested.type, groupCallActions.muteToggled.type, groupCallActions.cameraToggled.type, groupCallActions.screenToggled.type],
    buffers.expanding<{ type: string }>(8),
  );
  /** The server ended or refused the call: no leave to send. */
  let over = false;
  let farewell: string | null = null;
  let unavailable: string | undefined;

  const signal = (payload: Distributive<GroupCallSignalPayload>) => send(app.groupCallSignal, { chatRoomId, callId, ...payload });
  function* sayMedia(): SagaGenerator<void> {
    if (!session || callId === null) return;
    const state = { muted: (yield* select(selectActiveGroupCall))?.muted ?? false, camera: session.media.cameraOn, screen: session.media.screenOn };
    yield* put(groupCallActions.mediaChanged(state));
    yield* send(app.groupCallMediaState, { chatRoomId, callId, ...state });
  }

  try {
    if (callId) yield* send(app.groupCallJoin, { chatRoomId, callId });
    else yield* send(app.groupCallStart, { chatRoomId, media: request.media });
    const first = yield* awaitJoined(signals, chatRoomId, callId);
    if (first === 'left') return;
    if (first === null) {
      farewell = t.failed;
      return;
    }
    if (first.kind !== 'joined') {
      over = true;
      if (first.kind === 'refused' || first.kind === 'ended') farewell = farewellText(first);
      if (first.kind === 'refused' && first.reason === 'unavailable') unavailable = farewell ?? t.unavailable;
      return;
    }
    callId = first.callId;
    yield* put(groupCallActions.joined({ callId }));
    // Kept while this tab is in the call: a reload joins it again (rejoinAfterReload).
    rememberGroupCall(yield* service('groupCallStorage'), me, { chatRoomId, callId, media: first.media });

    const groupRtc = yield* service('groupRtc');
    try {
      session = yield* call([groupRtc, groupRtc.open], first.media === 'video', first.iceServers);
    } catch (error) {
      const logError = yield* service('logError');
      yield* call(logError, 'group call media', error);
      farewell = t.failed;
      return;
    }
    events = yield* call(sessionChannel, session);
    yield* signal({ kind: 'publish', sdp: yield* call([session, session.publishOffer]) });
    yield* sayMedia();
    const speaker = yield* fork(watchSpeaker, session);
    try {
      for (;;) {
        const next = yield* race({ signal: take(signals), event: take(events), press: take(presses), screenEnded: take(screenEnded) });
        const pressed = next.press?.type;
        if (pressed === groupCallActions.leaveRequested.type) return;
        if (next.signal) {
          const s = next.signal;
          if (!concernsCall(s, chatRoomId, callId)) continue;
          if (s.kind === 'publish-answer') yield* call([session, session.acceptPublishAnswer], s.sdp);
          else if (s.kind === 'subscribe-offer') yield* signal({ kind: 'subscribe-answer', sdp: yield* call([session, session.acceptSubscribeOffer], s.sdp, s.streams) });
          else if (s.kind === 'candidate') yield* call([session, session.addCandidate], s.target, s.candidate);
          else if (s.kind === 'ended' || s.kind === 'refused') {
            over = true;
            farewell = farewellText(s);
            return;
          }
        } else if (next.event) {
          const e = next.event;
          if (e.type === 'candidate') yield* signal({ kind: 'candidate', target: e.target, candidate: e.candidate });
          else if (e.target === 'publisher' && e.state === 'connected') yield* put(groupCallActions.connected());
          else if (e.target === 'publisher' && e.state === 'failed') {
            farewell = t.failed;
            return;
          }
        } else if (pressed === groupCallActions.muteToggled.type) {
          const muted = !((yield* select(selectActiveGroupCall))?.muted ?? false);
          session.media.setMuted(muted);
          yield* put(groupCallActions.mediaChanged({ muted, camera: session.media.cameraOn, screen: session.media.screenOn }));
          yield* sayMedia();
        } else if (pressed === groupCallActions.cameraToggled.type) {
          try {
            yield* call([session.media, session.media.setCamera], !session.media.cameraOn);
          } catch {
            const alert = yield* service('alert');
            yield* call(alert, koCall.cameraDenied);
          }
          yield* sayMedia();
        } else if (pressed === groupCallActions.screenToggled.type) {
          if (session.media.screenOn) session.media.stopScreenShare();
          else {
            try {
              yield* call([session.media, session.media.startScreenShare], () => screenEnded.put(true));
            } catch {
              // Refused or cancelled in the browser's picker: nothing changes.
            }
          }
          yield* sayMedia();
        } else if (next.screenEnded) yield* sayMedia();
      }
    } finally {
      yield* cancel(speaker);
    }
  } catch (error) {
    const logError = yield* service('logError');
    yield* call(logError, 'group call failed', error);
    farewell = t.failed;
  } finally {
    // Left, refused, ended or signed out: nothing to join again. (A reload runs no finally.)
    forgetGroupCall(yield* service('groupCallStorage'), me);
    if (callId !== null && !over) yield* send(app.groupCallLeave, { chatRoomId, callId });
    events?.close();
    signals.close();
    screenEnded.close();
    presses.close();
    session?.close();
    yield* put(groupCallActions.left(unavailable ? { unavailable } : {}));
    if (farewell) {
      const alert = yield* service('alert');
      yield* call(alert, farewell);
    }
  }
}

function connectionChannel(stomp: StompService): EventChannel<boolean> {
  return eventChannel<boolean>((emit) => stomp.onConnectionChange(emit), buffers.sliding<boolean>(1));
}

/** Until the app's STOMP connection is up (true), or JOIN_WAIT_MS passed (false). */
function* connectedSoon(stomp: StompService): SagaGenerator<boolean> {
  if (stomp.isConnected()) return true;
  const changes = yield* call(connectionChannel, stomp);
  try {
    for (;;) {
      const { up, timeout } = yield* race({ up: take(changes), timeout: delay(JOIN_WAIT_MS) });
      if (timeout) return false;
      if (up) return true;
    }
  } finally {
    changes.close();
  }
}

/**
 * After a reload (the page starts with a call kept in this tab's storage): the call to join again,
 * when the room's call is still that one and this user is still listed in it (reconnecting, their
 * place kept for the grace, or not yet seen to have gone); null otherwise, the memory forgotten.
 * Waits for the STOMP connection, so that the join it leads to can be sent.
 */
export function* rejoinAfterReload(me: number): SagaGenerator<JoinRequest | null> {
  const storage = yield* service('groupCallStorage');
  const kept = rememberedGroupCall(storage, me);
  if (!kept) {
    forgetGroupCall(storage, me);
    return null;
  }
  const http = yield* service('http');
  let news: ReturnType<typeof decodeGroupCallNews>;
  try {
    news = decodeGroupCallNews(yield* call([http, http.get<unknown>], api.groupCall, { chatRoomId: kept.chatRoomId }), kept.chatRoomId);
  } catch (error) {
    // Not a member any more (403), or the server unreachable: no rejoin.
    forgetGroupCall(storage, me);
    const logError = yield* service('logError');
    yield* call(logError, 'group call rejoin', error);
    return null;
  }
  const state = news && 'on' in news ? news.on : null;
  if (!state || state.callId !== kept.callId || !state.participants.some((p) => p.userId === me)) {
    forgetGroupCall(storage, me);
    if (state) yield* put(groupCallActions.stateReceived(state));
    return null;
  }
  yield* put(groupCallActions.stateReceived(state));
  if (!(yield* connectedSoon(yield* service('stomp')))) {
    forgetGroupCall(storage, me);
    return null;
  }
  return { chatRoomId: state.chatRoomId, callId: state.callId, media: state.media };
}
