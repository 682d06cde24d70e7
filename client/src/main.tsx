// Entry point: the store with browser services, the routes (wouter, following the history API,
// through which sagas navigate too: browserServices.ts), and the first render.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { routes } from './app/routes';
import { createBrowserServices } from './app/browserServices';
import { createAppStore } from './app/store';
import { DialogProvider, DialogQueue } from './components/dialogs';
import { RouteTree } from './kernel/routing';
// A stylesheet of its own, linked from index.html (webpack.config.ts), not JavaScript to run.
import './styles/global.css';
// The call overlays and the call bar (CallHost) show above every signed-in route: a stylesheet
// linked from index.html like the global one.
import './features/call/call.css';

// The app's confirmations and alerts (components/Dialog.tsx), above every route; sagas alert through it.
const dialogs = new DialogQueue();
const store = createAppStore(createBrowserServices(dialogs), {
  // STOMP, RTC, the ringer, the notifier and the unsent store: with the first signed-in screen (its chunk).
  loadLateServices: () => import(/* webpackChunkName: "signed-in" */ './app/lateServices').then((m) => m.createBrowserLateServices()),
});

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

createRoot(container).render(
  <StrictMode>
    <Provider store={store}>
      <DialogProvider queue={dialogs}>
        <RouteTree routes={routes} />
      </DialogProvider>
    </Provider>
  </StrictMode>,
);
