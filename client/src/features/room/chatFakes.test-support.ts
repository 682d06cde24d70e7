// Fakes for the chat sagas' services and a store that runs the real chat list, room, search and
// invite sagas and reducers with them. Used only by the chat tests.
import { configureStore } from '@reduxjs/toolkit';
import createSagaMiddleware from 'redux-saga';
import { HttpError, type HttpClient, type Query } from '../../services/http';
import type { StompService, SubscriptionHandlers } from '../../services/stomp';
import type { NavigateOptions } from '../../app/services';
import type { UidStore } from '../auth/uid';
import { chatListSaga } from '../chatList/chatListSaga';
import { chatListReducer } from '../chatList/chatListSlice';
import { inviteSaga } from '../invite/inviteSaga';
import { inviteReducer } from '../invite/inviteSlice';
import { userSearchSaga } from '../userSearch/userSearchSaga';
import { userSearchReducer } from '../userSearch/userSearchSlice';
import { roomSaga } from './roomSaga';
import { roomReducer } from './roomSlice';

/** A STOMP connection the test drives: connect, drop, reconnect, deliver. */
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
  async deactivate() {
    this.deactivations += 1;
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
  deliver(destination: string, body: unknown): void {
    const handlers = this.subscriptions.get(destination);
    if (!handlers) throw new Error(`nobody subscribed to ${destination}`);
    handlers.message(body);
  }
  sentTo(destination: string): unknown[] {
    return this.published.filter((p) => p.destination === destination).map((p) => p.payload);
  }
}

export interface Request {
  method: string;
  path: string;
  query?: Query;
  body?: unknown;
}

type Route = (request: Request) => unknown;

/** Answers "METHOD path" from a table the test can change as it goes; records every request. */
export class FakeHttp implements HttpClient {
  readonly requests: Request[] = [];
  constructor(private readonly routes: Record<string, Route> = {}) {}

  route(key: string, answer: Route): void {
    this.routes[key] = answer;
  }
  requested(method: string, path: string): Request[] {
    return this.requests.filter((r) => r.method === method && r.path === path);
  }
  private async answer<T>(request: Request): Promise<T> {
    this.requests.push(request);
    const route = this.routes[`${request.method} ${request.path}`];
    if (!route) throw new Error(`no answer for ${request.method} ${request.path}`);
    return (await route(request)) as T;
  }
  get<T>(path: string, query?: Query) { return this.answer<T>({ method: 'GET', path, query }); }
  post<T>(path: string, body?: unknown) { return this.answer<T>({ method: 'POST', path, body }); }
  patch<T>(path: string, body?: unknown) { return this.answer<T>({ method: 'PATCH', path, body }); }
  delete<T>(path: string, query?: Query) { return this.answer<T>({ method: 'DELETE', path, query }); }
}

export function refuse(status: number): never {
  throw new HttpError(status, { error: 'test', message: `refused with ${status}` });
}

export function createChatTestStore(http: FakeHttp, uidValue: number | null = null) {
  const stomp = new FakeStomp();
  const alerts: string[] = [];
  const navigations: Array<{ to: string; options?: NavigateOptions }> = [];
  const errors: string[] = [];
  let stored = uidValue;
  const uid: UidStore = { read: () => stored, store: (id) => { stored = id; }, clear: () => { stored = null; } };
  const sagaMiddleware = createSagaMiddleware({
    context: {
      http,
      stomp,
      uid,
      alert: (message: string) => alerts.push(message),
      navigate: (to: string, options?: NavigateOptions) => navigations.push({ to, options }),
      logError: (context: string, error: unknown) => errors.push(`${context}: ${error instanceof Error ? error.message : String(error)}`),
    },
  });
  const store = configureStore({
    reducer: { room: roomReducer, chatList: chatListReducer, userSearch: userSearchReducer, invite: inviteReducer },
    middleware: (getDefault) => getDefault({ thunk: false }).concat(sagaMiddleware),
  });
  const tasks = [roomSaga, chatListSaga, userSearchSaga, inviteSaga].map((saga) => sagaMiddleware.run(saga));
  return {
    store,
    stomp,
    http,
    alerts,
    navigations,
    errors,
    storedUid: () => stored,
    stop: () => tasks.forEach((t) => t.cancel()),
  };
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
