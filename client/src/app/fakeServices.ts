// Fake services for tests: an HTTP double answering by "METHOD path", an in-memory uid,
// recorders for navigation, redirects, alerts and logged errors, and STOMP/RTC that stay idle.
// Use with createAppStore.
import { HttpError, NetworkError, type HttpClient, type Query } from '../services/http';
import type { UidStore } from '../features/auth/uid';
import type { RtcService } from '../services/rtc';
import type { StompService } from '../services/stomp';
import type { NavigateOptions, Services } from './services';

export interface RecordedRequest {
  method: string;
  path: string;
  body?: unknown;
  query?: Query;
}

/** Answers a request: return the JSON body, or throw (see httpError / networkError). */
export type FakeRoute = (request: RecordedRequest) => unknown | Promise<unknown>;

export function httpError(status: number, message = 'refused'): HttpError {
  return new HttpError(status, { error: 'test', message });
}

export function networkError(): NetworkError {
  return new NetworkError(new TypeError('Failed to fetch'));
}

/** A STOMP service that never connects: for tests of screens that do not use it. */
export function inertStomp(): StompService {
  return {
    subscribe: () => () => undefined,
    publish: () => false,
    isConnected: () => false,
    onConnectionChange: () => () => undefined,
    activate: () => undefined,
    deactivate: async () => undefined,
  };
}

/** An RTC service without a microphone: for tests that make no call. */
export function inertRtc(): RtcService {
  return {
    openMicrophone: () => Promise.reject(new Error('no microphone in this test')),
    createPeer: () => {
      throw new Error('no peer connections in this test');
    },
  };
}

export interface FakeServices extends Services {
  requests: RecordedRequest[];
  alerts: string[];
  navigations: Array<{ to: string; options?: NavigateOptions }>;
  redirects: string[];
  errors: Array<{ context: string; error: unknown }>;
  /** Replaces or adds the answer for "METHOD path". */
  route(key: string, answer: FakeRoute): void;
}

export function createFakeServices(routes: Record<string, FakeRoute> = {}, initialUid: number | null = null): FakeServices {
  const table = new Map(Object.entries(routes));
  const requests: RecordedRequest[] = [];
  let uid = initialUid;

  const answer = async (request: RecordedRequest): Promise<never> => {
    requests.push(request);
    const route = table.get(`${request.method} ${request.path}`);
    if (!route) throw new Error(`fake http has no answer for ${request.method} ${request.path}`);
    return (await route(request)) as never;
  };

  const http: HttpClient = {
    get: (path, query) => answer({ method: 'GET', path, query }),
    post: (path, body) => answer({ method: 'POST', path, body }),
    patch: (path, body) => answer({ method: 'PATCH', path, body }),
    delete: (path, query) => answer({ method: 'DELETE', path, query }),
  };

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
    requests,
    navigations: [],
    redirects: [],
    errors: [],
    alerts: [],
    stomp: inertStomp(),
    callStomp: inertStomp(),
    rtc: inertRtc(),
    navigate: (to, options) => {
      services.navigations.push({ to, options });
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
    route: (key, route) => {
      table.set(key, route);
    },
  };
  return services;
}

/** Resolves once `condition` holds; rejects with `what` after a generous wait. */
export async function eventually(condition: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
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
