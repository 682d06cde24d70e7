// The call's media (docs/spec.md §4 Call, docs/architecture.md §5 "Calls"): the microphone, and
// the camera for a video call, opened before the call; its peer connection; mute, camera on/off
// (a voice call's upgrade to video too), switching cameras and sharing the screen while it runs,
// each change told to the peer as media-state. The media and the connection live in the RTC
// service (services/rtc.ts) and never enter the store.
import { buffers, eventChannel, type EventChannel } from 'redux-saga';
import { actionChannel, call, put, race, select, take, type SagaGenerator } from 'typed-redux-saga';
import { api, type IceServer } from '@common/api';
import { app } from '@common/destinations';
import { service } from '../../kernel/sagaContext';
import { koCall } from '../../i18n/koCall';
import type { LocalMedia, Peer, PeerEvent } from '../../services/rtc';
import { publish } from './callSignallingSaga';
import { callActions, selectCall, selectCallMediaState } from './callSlice';

/** The peer's events of the wanted types, none dropped while the saga is busy. */
export function peerEventChannel<T extends PeerEvent['type']>(peer: Peer, wanted: readonly T[]): EventChannel<Extract<PeerEvent, { type: T }>> {
  const isWanted = (event: PeerEvent): event is Extract<PeerEvent, { type: T }> => wanted.some((type) => type === event.type);
  return eventChannel<Extract<PeerEvent, { type: T }>>((emit) => peer.onEvent((event) => isWanted(event) && emit(event)), buffers.expanding(16));
}

/**
 * The microphone (and the camera for a video call), or null after telling the user to check the
 * permission (docs/spec.md §5). A refused camera leaves a voice call.
 */
export function* openMedia(video: boolean): SagaGenerator<LocalMedia | null> {
  const rtc = yield* service('rtc');
  try {
    return yield* call([rtc, rtc.openMedia], video);
  } catch (error) {
    const logError = yield* service('logError');
    yield* call(logError, 'call microphone', error);
    const alert = yield* service('alert');
    yield* call(alert, koCall.microphoneDenied);
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

/** The call's peer connection, sending the microphone and the video, if any. */
export function* createConnection(media: LocalMedia): SagaGenerator<Peer> {
  const iceServers = yield* fetchIceServers();
  const rtc = yield* service('rtc');
  return yield* call([rtc, rtc.createPeer], iceServers, media);
}

/** Tells the peer this side's microphone, camera and screen, once the call is accepted (the server drops it before). */
export function* sendMediaState(targetUserId: number): SagaGenerator<void> {
  const { phase } = yield* select(selectCall);
  if (phase !== 'connecting' && phase !== 'connected') return;
  const state = yield* select(selectCallMediaState);
  yield* publish(app.callMediaState, { targetUserId, ...state });
}

function* reportVideo(media: LocalMedia): SagaGenerator<void> {
  yield* put(callActions.localVideoChanged({ camera: media.cameraOn, screen: media.screenOn }));
}

function* mediaFailed(context: string, error: unknown, message: string): SagaGenerator<void> {
  const logError = yield* service('logError');
  yield* call(logError, context, error);
  const alert = yield* service('alert');
  yield* call(alert, message);
}

/**
 * For as long as the media is open: mute, camera, camera switch and screen share follow the
 * user's buttons (and the browser's own "stop sharing"), and every change goes to the peer.
 */
export function* controlMedia(media: LocalMedia, targetUserId: number): SagaGenerator<void> {
  let endScreen: () => void = () => undefined;
  const ended = eventChannel<true>((emit) => {
    endScreen = () => emit(true);
    return () => undefined;
  }, buffers.sliding(1));
  // The buttons, each press kept while a camera or a screen is still being opened: a take()
  // alone would miss a mute pressed meanwhile, leaving the microphone on under a muted button.
  const presses = yield* actionChannel(
    [callActions.muteToggled.type, callActions.cameraToggled.type, callActions.cameraSwitched.type, callActions.screenShareToggled.type],
    buffers.expanding<{ type: string }>(8),
  );
  try {
    media.setMuted((yield* select(selectCall)).muted);
    yield* reportVideo(media);
    try {
      yield* put(callActions.cameraCountKnown(yield* call([media, media.cameraCount])));
    } catch {
      // No device list (an old browser): switching is simply not offered.
    }
    for (;;) {
      // The browser's own "stop sharing" (ended) changes nothing here but is reported below.
      const { press } = yield* race({ press: take(presses), screenEnded: take(ended) });
      const pressed = press?.type;
      if (pressed === callActions.muteToggled.type) {
        media.setMuted((yield* select(selectCall)).muted);
      } else if (pressed === callActions.cameraToggled.type) {
        try {
          yield* call([media, media.setCamera], !media.cameraOn);
        } catch (error) {
          yield* mediaFailed('call camera', error, koCall.cameraDenied);
        }
      } else if (pressed === callActions.cameraSwitched.type) {
        try {
          yield* call([media, media.switchCamera]);
        } catch (error) {
          yield* mediaFailed('call camera switch', error, koCall.cameraDenied);
        }
      } else if (pressed === callActions.screenShareToggled.type) {
        if (media.screenOn) media.stopScreenShare();
        else {
          try {
            yield* call([media, media.startScreenShare], () => endScreen());
          } catch (error) {
            // Cancelling the browser's picker lands here too: nothing changed, nothing to alert.
            const logError = yield* service('logError');
            yield* call(logError, 'call screen share', error);
          }
        }
      }
      yield* reportVideo(media);
      yield* sendMediaState(targetUserId);
    }
  } finally {
    ended.close();
    presses.close();
  }
}
