// Renders page routes with the real store on fake services, in a memory router: the setup of
// the page tests (React Testing Library). Used only by tests.
import { render } from '@testing-library/react';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router-dom';
import { DialogProvider, DialogQueue } from '../components/dialogs';
import type { FakeServices } from './fakeServices';
import { allFeatures } from './allFeatures';
import { createAppStore } from './store';

type InitialEntry = string | { pathname: string; state?: unknown };

export function renderApp(services: FakeServices, routes: RouteObject[], initialEntry: InitialEntry) {
  const store = createAppStore(services, { features: allFeatures });
  const router = createMemoryRouter(routes, { initialEntries: [initialEntry] });
  const dialogs = new DialogQueue();
  render(
    <Provider store={store}>
      <DialogProvider queue={dialogs}>
        <RouterProvider router={router} />
      </DialogProvider>
    </Provider>,
  );
  return { store, router, dialogs };
}
