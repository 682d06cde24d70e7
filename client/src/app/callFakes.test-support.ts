// Fakes for the call saga's RTC service and a store that runs the real call saga and reducer
// with them and the shared HTTP and STOMP fakes (fakeServices.ts). Used only by the call tests.
import { configureStore } from '@reduxjs/toolkit';
import createSagaMiddleware from 'redux-saga';
import { api } from '@common/api';
import { FakeHttp, FakeRinger, FakeStomp, memoryStorage } from './fakeServices';
import type { LocalMedia, Peer, PeerEvent, RtcService } from '../services/rtc';
import { callSaga } from '../features/call/callSaga';
import { callReducer } from '../features/call/callSlice';

export class FakeMicrophone implements LocalMedia {
  stopped = false;
  muted = false;
  cameraOn = false;
  screenOn = false;
  cameras = 1;
  cameraDenied = false;
  switches = 0;
  /** While set, turning the camera on or off waits for it (a camera slow to open). */
  cameraGate: Promise<void> | null = null;
  private screenEnded: (() => void) | null = null;
  setMuted(muted: boolean) {
    this.muted = muted;
  }
  async setCamera(on: boolean) {
    await this.cameraGate;
    if (on && this.cameraDenied) throw new DOMException('Permission denied', 'NotAllowedError');
    this.cameraOn = on;
  }
  async cameraCount() {
    return this.cameras;
  }
  async switchCamera() {
    this.switches += 1;
  }
  async startScreenShare(onEnded: () => void) {
    this.screenOn = true;
    this.screenEnded = onEnded;
  }
  stopScreenShare() {
    this.screenOn = false;
  }
  /** The browser's own "stop sharing" bar. */
  endScreenShareFromBrowser() {
    this.screenOn = false;
    this.screenEnded?.();
  }
  stop() {
    this.stopped = true;
  }
}

/** Follows the real signalling-state rules closely enough for the saga's guards to matter. */
export class FakePeer implements Peer {
  signalingState: RTCSignalingState = 'stable';
  remote: RTCSessionDescriptionInit | null = null;
  readonly added: RTCIceCandidateInit[] = [];
  /** While set, adding a candidate waits for it (the browser still working on one); `adding` counts those begun. */
  candidateGate: Promise<void> | null = null;
  adding = 0;
  closed = false;
  failOffer = false;
  private readonly listeners = new Set<(event: PeerEvent) => void>();

  constructor(readonly iceServers: RTCIceServer[], readonly microphone: LocalMedia) {}

  get hasRemoteDescription() {
    return this.remote !== null;
  }
  readonly offerOptions: Array<{ iceRestart?: boolean } | undefined> = [];
  async createOffer(options?: { iceRestart?: boolean }): Promise<RTCSessionDescriptionInit> {
    if (this.failOffer) throw new Error('createOffer failed');
    this.offerOptions.push(options);
    this.signalingState = 'have-local-offer';
    return { type: 'offer', sdp: 'v=0 fake-offer' };
  }
  async createAnswer(): Promise<RTCSessionDescriptionInit> {
    if (this.signalingState !== 'have-remote-offer') throw new Error(`createAnswer in ${this.signalingState}`);
    this.signalingState = 'stable';
    return { type: 'answer', sdp: 'v=0 fake-answer' };
  }
  async setRemoteDescription(description: RTCSessionDescriptionInit): Promise<void> {
    this.remote = description;
    this.signalingState = description.type === 'offer' ? 'have-remote-offer' : 'stable';
  }
  async addIceCandidate(candidate: RTCIceCandidateInit): Promise<void> {
    this.adding += 1;
    await this.candidateGate;
    if (!this.remote) throw new Error('no remote description');
    this.added.push(candidate);
  }
  onEvent(listener: (event: PeerEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  close() {
    this.closed = true;
  }
  emit(event: PeerEvent) {
    this.listeners.forEach((l) => l(event));
  }
}

export class FakeRtc implements RtcService {
  microphoneDenied = false;
  failOffer = false;
  readonly microphones: FakeMicrophone[] = [];
  readonly peers: FakePeer[] = [];

  readonly opened: boolean[] = [];
  async openMedia(video: boolean): Promise<LocalMedia> {
    if (this.microphoneDenied) throw new DOMException('Permission denied', 'NotAllowedError');
    this.opened.push(video);
    const microphone = new FakeMicrophone();
    microphone.cameraOn = video;
    this.microphones.push(microphone);
    return microphone;
  }
  createPeer(iceServers: RTCIceServer[], microphone: LocalMedia): Peer {
    const peer = new FakePeer(iceServers, microphone);
    peer.failOffer = this.failOffer;
    this.peers.push(peer);
    return peer;
  }
}

export function createCallTestStore(http = new FakeHttp({ [`GET ${api.iceServers}`]: () => [{ urls: 'stun:127.0.0.1:3478' }] })) {
  // The call listener's connection is up from the start: these tests are about the call, not reconnecting.
  const stomp = new FakeStomp();
  stomp.connect();
  const rtc = new FakeRtc();
  const ringer = new FakeRinger();
  const storage = memoryStorage();
  const alerts: string[] = [];
  const navigations: string[] = [];
  // The screen shown: /call, where the spec's call flows start and end, unless a test moves on.
  const location = { path: '/call' };
  const errors: string[] = [];
  const sagaMiddleware = createSagaMiddleware({
    context: {
      callStomp: stomp,
      rtc,
      ringer,
      storage,
      http,
      alert: (message: string) => alerts.push(message),
      navigate: (to: string) => {
        navigations.push(to);
        location.path = to;
      },
      currentPath: () => location.path,
      logError: (context: string, error: unknown) => errors.push(`${context}: ${error instanceof Error ? error.message : String(error)}`),
    },
  });
  const store = configureStore({
    reducer: { call: callReducer },
    middleware: (getDefault) => getDefault({ thunk: false }).concat(sagaMiddleware),
  });
  const task = sagaMiddleware.run(callSaga);
  return { store, stomp, rtc, ringer, storage, http, alerts, navigations, errors, location, stop: () => task.cancel() };
}
