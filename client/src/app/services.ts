// Everything with side effects that sagas use, handed to them through the saga middleware's
// context (DESIGN.md §4) so tests pass fakes. Add a service: a field here, its browser
// implementation in createBrowserServices, and a fake in test/fakeServices.ts.
import { createHttpClient, type HttpClient } from '../services/http';
import { createUidStore, type UidStore } from '../features/auth/uid';

export interface NavigateOptions {
  replace?: boolean;
  state?: unknown;
}

export interface Services {
  http: HttpClient;
  uid: UidStore;
  /** In-app navigation (react-router). */
  navigate: (to: string, options?: NavigateOptions) => void;
  /** Leaves the app for another address (OAuth providers). */
  redirect: (url: string) => void;
  /** Errors the user is told about in words are still logged for whoever debugs (SPEC.md §8). */
  logError: (context: string, error: unknown) => void;
}

export function createBrowserServices(navigate: Services['navigate']): Services {
  return {
    http: createHttpClient(),
    uid: createUidStore(window.localStorage),
    navigate,
    redirect: (url) => window.location.assign(url),
    logError: (context, error) => console.error(`[${context}]`, error),
  };
}
