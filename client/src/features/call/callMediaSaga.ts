// The call's media (docs/spec.md §4 Call, §5): the microphone, whose mute follows the slice, and
// the peer connection with ICE servers from the server. The RTC objects themselves come from the
// rtc service (services/rtc.ts) and never enter the store.
import { buffers, eventChannel, type EventChannel } from 'redux-saga';
import { call, select, takeEvery, type SagaGenerator } from 'typed-redux-saga';
import { api, type IceServer } from '@common/api';
import { service } from '../../kernel/sagaContext';
import { ko } from '../../i18n/ko';
import type { Microphone, Peer, PeerEvent } from '../../services/rtc';
import { callActions, selectCallMuted } from './callSlice';

/** The peer's events of the wanted types, none dropped while the saga is busy. */
export function peerEventChannel<T extends PeerEvent['type']>(peer: Peer, wanted: readonly T[]): EventChannel<Extract<PeerEvent, { type: T }>> {
  const isWanted = (event: PeerEvent): event is Extract<PeerEvent, { type: T }> => wanted.some((type) => type === event.type);
  return eventChannel<Extract<PeerEvent, { type: T }>>((emit) => peer.onEvent((event) => isWanted(event) && emit(event)), buffers.expanding(16));
}

/** The microphone, or null after telling the user to check the permission (docs/spec.md §5). */
export function* openMicrophone(): SagaGenerator<Microphone | null> {
  const rtc = yield* service('rtc');
  try {
    return yield* call([rtc, rtc.openMicrophone]);
  } catch (error) {
    const logError = yield* service('logError');
    yield* call(logError, 'call microphone', error);
    const alert = yield* service('alert');
    yield* call(alert, ko.call.microphoneDenied);
    return null;
  }
}

/** ICE servers with fresh TURN credentials from the server; without them only direct paths are tried. */
function* fetchIceServers(): SagaGenerator<RTCIceServer[]> {
  const http = yield* service('http');
  try {
    return yield* call([http, http.get<IceServer[]>], api.iceServers);
  } catch (error) {
    const logError = yield* service('logError');
    yield* call(logError, 'call ice servers', error);
    return [];
  }
}

/** The call's peer connection, sending the microphone. */
export function* createConnection(microphone: Microphone): SagaGenerator<Peer> {
  const iceServers = yield* fetchIceServers();
  const rtc = yield* service('rtc');
  return yield* call([rtc, rtc.createPeer], iceServers, microphone);
}

/** Mute and unmute follow the slice's flag for as long as the microphone is open. */
export function* followMute(microphone: Microphone): SagaGenerator<void> {
  const apply = function* (): SagaGenerator<void> {
    const muted = yield* select(selectCallMuted);
    microphone.setMuted(muted);
  };
  yield* apply();
  yield* takeEvery(callActions.muteToggled, apply);
}
