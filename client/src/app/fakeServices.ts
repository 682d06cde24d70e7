// Fake services for tests: an HTTP double answering by "METHOD path", a STOMP connection the
// test drives, an in-memory uid, recorders for navigation, redirects, alerts and logged errors,
// and an RTC service that refuses. Use createFakeServices with createAppStore; the feature test
// stores (chatFakes, callFakes) build their saga context from the same FakeHttp and FakeStomp.
import { HttpError, NetworkError, type HttpClient, type Query } from '../services/http';
import type { UidStore } from '../services/uid';
import type { NotificationPermissionState, Notifier } from '../services/notifier';
import { createMemoryUnsentStore } from '../features/room/unsentStore';
import type { Ringer, RingStart, RingTone } from '../services/ringer';
import type { Notice } from '../sw/pushNotice';
import type { PushSubscriptionRequest } from '@common/push';
import type { RtcService } from '../services/rtc';
import type { StompService, SubscriptionHandlers } from '../services/stomp';
import type { NavigateOptions, Services } from '../kernel/services';

export interface RecordedRequest {
  method: string;
  path: string;
  body?: unknown;
  query?: Query;
}

/** Answers a request: return the JSON body, or throw (see httpError / networkError). */
export type FakeRoute = (request: RecordedRequest) => unknown;

export function httpError(status: number, message = 'refused'): HttpError {
  return new HttpError(status, { error: 'test', message });
}

/** For a route: the server refuses with this status. */
export function refuse(status: number): never {
  throw httpError(status, `refused with ${status}`);
}

export function networkError(): NetworkError {
  return new NetworkError(new TypeError('Failed to fetch'));
}

/** Answers "METHOD path" from a table the test can change as it goes; records every request. */
export class FakeHttp implements HttpClient {
  readonly requests: RecordedRequest[] = [];
  private readonly table: Map<string, FakeRoute>;

  constructor(routes: Record<string, FakeRoute> = {}) {
    this.table = new Map(Object.entries(routes));
  }

  /** Replaces or adds the answer for "METHOD path". */
  route(key: string, answer: FakeRoute): void {
    this.table.set(key, answer);
  }
  requested(method: string, path: string): RecordedRequest[] {
    return this.requests.filter((r) => r.method === method && r.path === path);
  }
  private async answer<T>(request: RecordedRequest): Promise<T> {
    this.requests.push(request);
    const route = this.table.get(`${request.method} ${request.path}`);
    if (!route) throw new Error(`fake http has no answer for ${request.method} ${request.path}`);
    return (await route(request)) as T;
  }
  get<T>(path: string, query?: Query) { return this.answer<T>({ method: 'GET', path, query }); }
  post<T>(path: string, body?: unknown) { return this.answer<T>({ method: 'POST', path, body }); }
  patch<T>(path: string, body?: unknown) { return this.answer<T>({ method: 'PATCH', path, body }); }
  put<T>(path: string, body?: unknown) { return this.answer<T>({ method: 'PUT', path, body }); }
  delete<T>(path: string, query?: Query, body?: unknown) { return this.answer<T>({ method: 'DELETE', path, query, body }); }
}

/**
 * A STOMP connection the test drives: down until connect(), then drop and connect again;
 * deliver() plays the server. Left alone it never connects, for screens that do not use it.
 */
export class FakeStomp implements StompService {
  readonly subscriptions = new Map<string, SubscriptionHandlers>();
  readonly published: Array<{ destination: string; payload: unknown }> = [];
  readonly unsubscribed: string[] = [];
  private connected = false;
  private readonly listeners = new Set<(connected: boolean) => void>();
  deactivations = 0;

  subscribe(destination: string, handlers: SubscriptionHandlers): () => void {
    this.subscriptions.set(destination, handlers);
    if (this.connected) queueMicrotask(() => handlers.active?.());
    return () => {
      if (this.subscriptions.get(destination) !== handlers) return;
      this.subscriptions.delete(destination);
      this.unsubscribed.push(destination);
    };
  }
  publish(destination: string, payload: unknown): boolean {
    if (!this.connected) return false;
    this.published.push({ destination, payload });
    return true;
  }
  isConnected = () => this.connected;
  onConnectionChange(listener: (connected: boolean) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  activate() {}
  deactivate() {
    this.deactivations += 1;
    return Promise.resolve();
  }

  /** The connection comes up (again): listeners hear it and every subscription is confirmed. */
  connect(): void {
    this.connected = true;
    this.listeners.forEach((l) => l(true));
    this.subscriptions.forEach((h) => h.active?.());
  }
  drop(): void {
    this.connected = false;
    this.listeners.forEach((l) => l(false));
  }
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

/** Records the tones asked for; `blocked` plays the autoplay rules until unblock(). */
export class FakeRinger implements Ringer {
  /** The tone sounding now (null: silent or blocked). */
  playing: RingTone | null = null;
  readonly started: RingTone[] = [];
  blocked = false;
  private wanted: RingTone | null = null;
  private waiters: Array<() => void> = [];

  start(tone: RingTone): Promise<RingStart> {
    this.started.push(tone);
    this.wanted = tone;
    this.playing = this.blocked ? null : tone;
    return Promise.resolve(this.blocked ? 'blocked' : 'playing');
  }
  stop(): void {
    this.wanted = this.playing = null;
  }
  whenUnblocked(): Promise<void> {
    return this.blocked ? new Promise((resolve) => this.waiters.push(resolve)) : Promise.resolve();
  }
  /** The user's first gesture. */
  unblock(): void {
    this.blocked = false;
    this.playing = this.wanted;
    this.waiters.splice(0).forEach((resolve) => resolve());
  }
}

/** Notifications without a browser: `tabHidden` plays a hidden tab, `answer` the user's choice at the prompt. */
export class FakeNotifier implements Notifier {
  state: NotificationPermissionState = 'default';
  /** What the user answers when asked. */
  answer: NotificationPermission = 'granted';
  tabHidden = true;
  asked = 0;
  /** The subscription the browser holds (made by subscribePush); none at first. */
  held: PushSubscriptionRequest | null = null;
  /** Endpoints of the subscriptions ended in the browser (unsubscribePush). */
  readonly unsubscribed: string[] = [];
  readonly shown: Notice[] = [];
  readonly subscribedWith: string[] = [];
  subscription: PushSubscriptionRequest | null = {
    endpoint: 'https://push.example.test/device-1',
    keys: { p256dh: `B${'A'.repeat(86)}`, auth: 'A'.repeat(22) },
  };
  private readonly listeners = new Set<(url: string) => void>();

  permission(): NotificationPermissionState {
    return this.state;
  }
  requestPermission(): Promise<NotificationPermissionState> {
    this.asked += 1;
    this.state = this.answer;
    return Promise.resolve(this.state);
  }
  hidden(): boolean {
    return this.tabHidden;
  }
  show(notice: Notice): Promise<boolean> {
    if (this.state !== 'granted') return Promise.resolve(false);
    this.shown.push(notice);
    return Promise.resolve(true);
  }
  showIfHidden(notice: Notice): Promise<boolean> {
    return this.tabHidden ? this.show(notice) : Promise.resolve(false);
  }
  subscribePush(publicKey: string): Promise<PushSubscriptionRequest | null> {
    this.subscribedWith.push(publicKey);
    this.held = this.subscription;
    return Promise.resolve(this.subscription);
  }
  unsubscribePush(): Promise<string | null> {
    const endpoint = this.held?.endpoint ?? null;
    if (endpoint) this.unsubscribed.push(endpoint);
    this.held = null;
    return Promise.resolve(endpoint);
  }
  onOpen(listener: (url: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  /** The user clicks a notification. */
  click(url: string): void {
    this.listeners.forEach((listener) => listener(url));
  }
}

/** Local storage in memory. */
export function memoryStorage(): Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> {
  const items = new Map<string, string>();
  return { getItem: (key) => items.get(key) ?? null, setItem: (key, value) => void items.set(key, value), removeItem: (key) => void items.delete(key) };
}

/** An RTC service without a microphone: for tests that make no call. */
export function inertRtc(): RtcService {
  return {
    openMedia: () => Promise.reject(new Error('no microphone in this test')),
    createPeer: () => {
      throw new Error('no peer connections in this test');
    },
  };
}

export interface FakeServices extends Services {
  requests: RecordedRequest[];
  alerts: string[];
  navigations: Array<{ to: string; options?: NavigateOptions }>;
  /** What currentPath() answers: the last navigation's path, or the one a test sets. */
  path: string;
  redirects: string[];
  errors: Array<{ context: string; error: unknown }>;
  /** Replaces or adds the answer for "METHOD path". */
  route(key: string, answer: FakeRoute): void;
}

export function createFakeServices(routes: Record<string, FakeRoute> = {}, initialUid: number | null = null): FakeServices {
  const http = new FakeHttp(routes);
  let uid = initialUid;

  const uidStore: UidStore = {
    read: () => uid,
    store: (id) => {
      uid = id;
    },
    clear: () => {
      uid = null;
    },
  };

  const services: FakeServices = {
    http,
    uid: uidStore,
    unsent: createMemoryUnsentStore(),
    requests: http.requests,
    navigations: [],
    redirects: [],
    errors: [],
    alerts: [],
    stomp: new FakeStomp(),
    callStomp: new FakeStomp(),
    rtc: inertRtc(),
    groupRtc: { open: () => Promise.reject(new Error('no microphone in this test')) },
    groupCallStorage: memoryStorage(),
    ringer: new FakeRinger(),
    notifier: new FakeNotifier(),
    storage: memoryStorage(),
    path: '/',
    currentPath: () => services.path,
    navigate: (to, options) => {
      services.navigations.push({ to, options });
      services.path = to;
    },
    redirect: (url) => {
      services.redirects.push(url);
    },
    logError: (context, error) => {
      services.errors.push({ context, error });
    },
    alert: (message) => {
      services.alerts.push(message);
    },
    route: (key, route) => http.route(key, route),
  };
  return services;
}

/** Resolves once `condition` holds; rejects with `what` after a generous wait (that only a broken saga needs). */
export async function eventually(condition: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Lets every pending promise and saga step run. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 5; i += 1) await new Promise((resolve) => setTimeout(resolve, 0));
}

/** A promise with its resolve and reject exposed: holds a fake request open. */
export function deferred<T = unknown>(): { promise: Promise<T>; resolve: (value: T) => void; reject: (error: unknown) => void } {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
