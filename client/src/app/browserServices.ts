// The browser's core services (kernel/services.ts CoreServices): those of every screen, /login
// included, built once by main.tsx. The late ones come with the first signed-in screen (lateServices.ts).
import type { DialogQueue } from '../components/dialogs';
import type { CoreServices, Services } from '../kernel/services';
import { createHttpClient } from '../services/http';
import { createUidStore } from '../services/uid';

export function createBrowserServices(navigate: Services['navigate'], dialogs: DialogQueue): CoreServices {
  return {
    http: createHttpClient(),
    uid: createUidStore(window.localStorage),
    navigate,
    currentPath: () => window.location.pathname,
    redirect: (url) => window.location.assign(url),
    logError: (context, error) => console.error(`[${context}]`, error),
    alert: (message) => void dialogs.alert(message),
    storage: window.localStorage,
  };
}
