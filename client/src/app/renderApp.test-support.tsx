// Renders page routes with the real store on fake services, in a memory location: the setup of
// the page tests (React Testing Library). Used only by tests.
import { render } from '@testing-library/react';
import { useMemo, type ReactNode } from 'react';
import { Provider } from 'react-redux';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { DialogProvider, DialogQueue } from '../components/dialogs';
import { NavigationStateContext, RouteTree, type AppRoute } from '../kernel/routing';
import type { FakeServices } from './fakeServices';
import { allFeatures } from './allFeatures';
import { createAppStore } from './store';

type InitialEntry = string | { pathname: string; state?: unknown };

/** A router in memory at `path` (links and redirects work; the browser's history is untouched). */
export function MemoryRouter({ children, path = '/' }: { children: ReactNode; path?: string }) {
  const { hook, searchHook } = useMemo(() => memoryLocation({ path }), [path]);
  return (
    <Router hook={hook} searchHook={searchHook}>
      {children}
    </Router>
  );
}

export function renderApp(services: FakeServices, routes: AppRoute[], initialEntry: InitialEntry) {
  const store = createAppStore(services, { features: allFeatures });
  const entry = typeof initialEntry === 'string' ? { pathname: initialEntry, state: null } : { state: null, ...initialEntry };
  const location = memoryLocation({ path: entry.pathname, state: entry.state, record: true });
  const router = {
    navigate: (to: string) => location.navigate(to),
    /** The path shown now (query aside). */
    pathname: () => (location.history?.at(-1) ?? entry.pathname).split('?')[0],
  };
  const dialogs = new DialogQueue();
  render(
    <Provider store={store}>
      <DialogProvider queue={dialogs}>
        <Router hook={location.hook} searchHook={location.searchHook}>
          <NavigationStateContext.Provider value={() => location.state}>
            <RouteTree routes={routes} />
          </NavigationStateContext.Provider>
        </Router>
      </DialogProvider>
    </Provider>,
  );
  return { store, router, dialogs };
}
