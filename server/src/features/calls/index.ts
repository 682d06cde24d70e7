// The calls feature assembled: the call state (in memory, or in Redis for a cluster), its STOMP
// handlers, the ICE-servers route, and the hang-up when a party's last connection anywhere drops.
import { queues } from '@common/destinations';
import type { Deps, ServerFeature } from '../types';
import type { UsersRepository } from '../accounts/users-repository';
import type { CallStore } from './call-store';
import { callHandlers } from './calls-handlers';
import { callsRoutes } from './calls-routes';
import { CallService, DEFAULT_RING_TIMEOUT_MS, type CallPorts } from './calls-service';

/** How a callee with no open connection is rung anyway (Web Push), from features/index.ts. */
export type RingElsewhere = Pick<CallPorts, 'canRingElsewhere' | 'ringElsewhere'>;

export function createCalls(deps: Deps, users: UsersRepository, elsewhere: RingElsewhere = {}): ServerFeature {
  const { config, publisher, log } = deps;
  const { presence, sharedCallStore } = deps.cluster;
  const ringTimeoutMs = config.callRingTimeoutMs ?? DEFAULT_RING_TIMEOUT_MS;
  const ports: CallPorts = {
    deliver: (userId, signal, event, except) => publisher.publishToUser(userId, queues.call(signal, userId), event, except),
    schedule: (ms, fire) => {
      const timer = setTimeout(() => void fire(), ms);
      return () => clearTimeout(timer);
    },
    names: (userIds) => users.names(userIds),
    isReachable: (userId) => presence.isOnline(userId),
    outcome: (outcome) => deps.metrics.call(outcome),
    ...elsewhere,
  };
  const store: CallStore | undefined = sharedCallStore
    ? sharedCallStore(ringTimeoutMs, {
        isLocal: (userId) => publisher.connectionCount(userId) > 0,
        isOnline: (userId) => presence.isOnline(userId),
        peerGone: async (userId) => void (await calls.disconnected(userId)),
      }, log.child({ feature: 'calls' }))
    : undefined;
  const calls = new CallService(ports, ringTimeoutMs, store);
  const failed = (err: unknown) => log.error({ err }, 'call state update failed');
  publisher.onDisconnect((user, remaining) => {
    if (remaining > 0) return;
    // The user may still be connected to another node: only their last connection anywhere ends the call.
    void (async () => {
      if (!(await presence.isOnline(user.userId))) await calls.disconnected(user.userId);
    })().catch(failed);
  });
  publisher.onSubscribe((user, destination, deliver) => {
    if (destination !== queues.call('incoming', user.userId)) return;
    calls.incomingFor(user.userId).then((incoming) => incoming && deliver(incoming), failed);
  });
  if (config.turnUrls.length > 0 && !config.turnSecret) log.warn('TURN_URLS is set without TURN_SECRET: TURN servers are not offered');
  return {
    routes: callsRoutes(config, deps.clock),
    stomp: { handlers: callHandlers(calls, log.child({ feature: 'calls' })) },
    stop() {
      calls.stop();
      return Promise.resolve();
    },
  };
}
