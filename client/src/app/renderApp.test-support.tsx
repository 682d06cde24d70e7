// Renders page routes with the real store on fake services, in a memory router: the setup of
// the page tests (React Testing Library). Used only by tests.
import { render } from '@testing-library/react';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router-dom';
import type { FakeServices } from './fakeServices';
import { createAppStore } from './store';

type InitialEntry = string | { pathname: string; state?: unknown };

export function renderApp(services: FakeServices, routes: RouteObject[], initialEntry: InitialEntry) {
  const store = createAppStore(services);
  const router = createMemoryRouter(routes, { initialEntries: [initialEntry] });
  render(
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>,
  );
  return { store, router };
}
