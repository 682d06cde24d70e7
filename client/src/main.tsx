// Entry point: the router, the store with browser services, and the first render.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { routes } from './app/routes';
import { createBrowserServices } from './app/services';
import { createAppStore } from './app/store';
import './styles/global.css';
// The call overlays and the call bar (CallHost) show above every route.
import './features/call/call.css';

const router = createBrowserRouter(routes);
const store = createAppStore(
  createBrowserServices((to, options) => {
    void router.navigate(to, options);
  }),
);

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

createRoot(container).render(
  <StrictMode>
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>
  </StrictMode>,
);
