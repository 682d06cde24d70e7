// Ends this device's push subscription: in the browser, then on the server
// (DELETE /api/push/subscriptions), which needs the login session, so a logout calls it first.
// Shared by auth (every logout) and notifications (switched off), so it sits below both: the
// login screen's logout loads no notifications, room or call code with it.
import { call, getContext, type SagaGenerator } from 'typed-redux-saga';
import { api } from '@common/api';
import type { PushUnsubscribeRequest } from '@common/push';
import { service } from './sagaContext';
import type { Notifier } from '../services/notifier';
import { isHttpStatus } from '../services/http';
import { endBrowserPushSubscription } from '../services/pushSubscription';

/**
 * A failure is logged only: an ended browser subscription answers 410 to the server's next push,
 * which deletes it then. Without the notifier (not loaded yet on the login page) the browser's
 * subscription is ended directly.
 */
export function* endPushSubscription(): SagaGenerator<void> {
  // A late service: on the login page it is not in the saga context yet.
  const notifier = yield* getContext<Notifier | undefined>('notifier');
  const http = yield* service('http');
  try {
    const endpoint = notifier ? yield* call([notifier, notifier.unsubscribePush]) : yield* call(endBrowserPushSubscription);
    const body: PushUnsubscribeRequest | null = endpoint ? { endpoint } : null;
    if (body) yield* call([http, http.delete], api.pushSubscriptions, undefined, body);
  } catch (error) {
    // 401: no session (the login page of a signed-out browser); the browser's part is done.
    if (!isHttpStatus(error, 401)) {
      const logError = yield* service('logError');
      yield* call(logError, 'push unsubscription', error);
    }
  }
}
