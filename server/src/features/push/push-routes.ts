// REST routes of Web Push: the server's public key, and this device's subscription.
import { api } from '@common/api';
import type { PushPublicKeyResponse } from '@common/push';
import { userOf, type Route } from '../../transport/route';
import type { PushService } from './push-service';

export function pushRoutes(push: PushService): Route[] {
  return [
    {
      method: 'GET',
      path: api.pushPublicKey,
      // Public: the key is no secret, and a page may ask before it knows who is signed in.
      public: true,
      async handle() {
        const json: PushPublicKeyResponse = { publicKey: await push.publicKey() };
        return { json };
      },
    },
    {
      method: 'POST',
      path: api.pushSubscriptions,
      async handle(ctx) {
        const { userId, sessionId } = userOf(ctx);
        await push.subscribe(userId, sessionId, ctx.body);
        return { status: 201, json: { status: 'success' } };
      },
    },
    {
      method: 'DELETE',
      path: api.pushSubscriptions,
      async handle(ctx) {
        await push.unsubscribe(userOf(ctx).userId, ctx.body);
        return { json: { status: 'success' } };
      },
    },
  ];
}
