// Entry point: the router, the store with browser services, and the first render.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { DialogProvider, DialogQueue } from './components/dialogs';
import { routes } from './app/routes';
import { createBrowserServices } from './app/services';
import { createAppStore } from './app/store';
import './styles/global.css';
// Read counts and unread badges (issue 11), shared by the room and the chat list.
import './features/room/reads.css';
// The call overlays and the call bar (CallHost) show above every route.
import './features/call/call.css';

const router = createBrowserRouter(routes);
// The app's confirmations and alerts (components/Dialog.tsx), above every route; sagas alert through it.
const dialogs = new DialogQueue();
const store = createAppStore(
  createBrowserServices((to, options) => {
    void router.navigate(to, options);
  }, dialogs),
);

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

createRoot(container).render(
  <StrictMode>
    <Provider store={store}>
      <DialogProvider queue={dialogs}>
        <RouterProvider router={router} />
      </DialogProvider>
    </Provider>
  </StrictMode>,
);
