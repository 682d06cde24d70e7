// Web Push assembled: the repository, the service with the web-push sender and the VAPID keys
// (configured, or generated once and stored), and its routes. Calls and chat get the service
// through the small hooks of features/index.ts.
import { Outbound } from '../../outbound';
import type { Deps, ServerFeature } from '../types';
import { PushRepository } from './push-repository';
import { pushRoutes } from './push-routes';
import { PushService, type PushSender } from './push-service';
import { generateVapidKeys, webPushSender } from './web-push-sender';

export interface PushFeature {
  feature: ServerFeature;
  push: PushService;
}

/** `send` may be passed in (tests); otherwise pushes go out through the web-push library. */
export function createPush(deps: Deps, send?: PushSender): PushFeature {
  const { config, db, clock, publisher } = deps;
  const repo = new PushRepository(db);
  const configured = config.vapid;
  const log = deps.log.child({ feature: 'push' });
  const outbound = new Outbound({ allowHosts: config.outboundAllowHosts });
  if (config.outboundAllowHosts.length > 0) log.warn({ hosts: config.outboundAllowHosts }, 'OUTBOUND_ALLOW_HOSTS is set: for tests only, these hosts are reached on http and at any address');
  const push = new PushService({
    repo,
    send: send ?? webPushSender(config.vapidSubject, outbound),
    vapidKeys: () => (configured ? Promise.resolve(configured) : repo.vapidKeys(generateVapidKeys, clock())),
    isConnectedHere: (userId) => publisher.connectionCount(userId) > 0,
    isOnline: (userId) => deps.cluster.presence.isOnline(userId),
    clock,
    log,
    checkEndpoint: (endpoint) => void outbound.checkUrl(endpoint),
    count: (outcome) => deps.metrics.push(outcome),
  });
  const stop = async () => {
    await push.idle();
    outbound.close();
  };
  return { feature: { routes: pushRoutes(push), stop }, push };
}
