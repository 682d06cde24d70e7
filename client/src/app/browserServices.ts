// The browser's core services (kernel/services.ts CoreServices): those of every screen, /login
// included, built once by main.tsx. The late ones come with the first signed-in screen (lateServices.ts).
import type { DialogQueue } from '../components/dialogs';
import { navigate } from 'wouter/use-browser-location';
import type { CoreServices } from '../kernel/services';
import { createHttpClient } from '../services/http';
import { createUidStore } from '../services/uid';

export function createBrowserServices(dialogs: DialogQueue): CoreServices {
  return {
    http: createHttpClient(),
    uid: createUidStore(window.localStorage),
    // The history API, which the router follows (it patches pushState and replaceState to hear them).
    navigate: (to, options) => navigate(to, options),
    currentPath: () => window.location.pathname,
    redirect: (url) => window.location.assign(url),
    logError: (context, error) => console.error(`[${context}]`, error),
    alert: (message) => void dialogs.alert(message),
    storage: window.localStorage,
  };
}
