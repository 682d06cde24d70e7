// Fakes for the call saga's services (STOMP, RTC, browser) and a store that runs the real call
// saga and reducer with them. Used only by the call tests.
import { configureStore } from '@reduxjs/toolkit';
import createSagaMiddleware from 'redux-saga';
import type { HttpClient } from '../../services/http';
import type { Microphone, Peer, PeerEvent, RtcService } from '../../services/rtc';
import type { StompService, SubscriptionHandlers } from '../../services/stomp';
import { callSaga } from './callSaga';
import { callReducer } from './callSlice';

export class FakeStomp implements StompService {
  readonly subscriptions = new Map<string, SubscriptionHandlers>();
  readonly published: Array<{ destination: string; payload: unknown }> = [];

  subscribe(destination: string, handlers: SubscriptionHandlers): () => void {
    this.subscriptions.set(destination, handlers);
    return () => {
      if (this.subscriptions.get(destination) === handlers) this.subscriptions.delete(destination);
    };
  }
  publish(destination: string, payload: unknown): boolean {
    this.published.push({ destination, payload });
    return true;
  }
  isConnected = () => true;
  onConnectionChange = () => () => undefined;
  activate() {}
  async deactivate() {}

  /** The server delivers a message on a destination the saga subscribed to. */
  deliver(destination: string, body: unknown): void {
    const handlers = this.subscriptions.get(destination);
    if (!handlers) throw new Error(`nobody subscribed to ${destination}`);
    handlers.message(body);
  }
  sentTo(destination: string): unknown[] {
    return this.published.filter((p) => p.destination === destination).map((p) => p.payload);
  }
}

export class FakeMicrophone implements Microphone {
  stopped = false;
  stop() {
    this.stopped = true;
  }
}

/** Follows the real signalling-state rules closely enough for the saga's guards to matter. */
export class FakePeer implements Peer {
  signalingState: RTCSignalingState = 'stable';
  remote: RTCSessionDescriptionInit | null = null;
  readonly added: RTCIceCandidateInit[] = [];
  closed = false;
  failOffer = false;
  private readonly listeners = new Set<(event: PeerEvent) => void>();

  constructor(readonly iceServers: RTCIceServer[], readonly microphone: Microphone) {}

  get hasRemoteDescription() {
    return this.remote !== null;
  }
  async createOffer(): Promise<RTCSessionDescriptionInit> {
    if (this.failOffer) throw new Error('createOffer failed');
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

  async openMicrophone(): Promise<Microphone> {
    if (this.microphoneDenied) throw new DOMException('Permission denied', 'NotAllowedError');
    const microphone = new FakeMicrophone();
    this.microphones.push(microphone);
    return microphone;
  }
  createPeer(iceServers: RTCIceServer[], microphone: Microphone): Peer {
    const peer = new FakePeer(iceServers, microphone);
    peer.failOffer = this.failOffer;
    this.peers.push(peer);
    return peer;
  }
}

export function fakeHttp(routes: Record<string, (query?: Record<string, unknown>) => unknown>): HttpClient & { requests: string[] } {
  const requests: string[] = [];
  const get = async <T,>(path: string, query?: Record<string, unknown>): Promise<T> => {
    requests.push(path);
    const route = routes[path];
    if (!route) throw new Error(`no route for ${path}`);
    return (await route(query)) as T;
  };
  const refuse = async <T,>(): Promise<T> => {
    throw new Error('not used by calls');
  };
  return { requests, get, post: refuse, patch: refuse, delete: refuse };
}

export function createCallTestStore(http = fakeHttp({ '/api/call/ice-servers': () => [{ urls: 'stun:127.0.0.1:3478' }] })) {
  const stomp = new FakeStomp();
  const rtc = new FakeRtc();
  const alerts: string[] = [];
  const navigations: string[] = [];
  const errors: string[] = [];
  const sagaMiddleware = createSagaMiddleware({
    context: {
      callStomp: stomp,
      rtc,
      http,
      alert: (message: string) => alerts.push(message),
      navigate: (to: string) => navigations.push(to),
      logError: (context: string, error: unknown) => errors.push(`${context}: ${error instanceof Error ? error.message : String(error)}`),
    },
  });
  const store = configureStore({
    reducer: { call: callReducer },
    middleware: (getDefault) => getDefault({ thunk: false }).concat(sagaMiddleware),
  });
  const task = sagaMiddleware.run(callSaga);
  return { store, stomp, rtc, http, alerts, navigations, errors, stop: () => task.cancel() };
}

/** Resolves once the condition holds; the generous limit only matters when the saga is broken. */
export async function eventually(condition: () => boolean, what: string, limitMs = 10000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > limitMs) throw new Error(`never happened: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Lets every pending promise and saga step run. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 5; i += 1) await new Promise((resolve) => setTimeout(resolve, 0));
}
