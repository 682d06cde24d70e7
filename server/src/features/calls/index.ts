// The calls feature assembled: the in-memory call state, its STOMP handlers, the ICE-servers
// route, and the hang-up when a party's last connection drops.
import { queues } from '../../../../common/destinations';
import type { Deps, ServerFeature } from '../types';
import type { UsersRepository } from '../accounts/users-repository';
import { callHandlers } from './calls-handlers';
import { callsRoutes } from './calls-routes';
import { CallService, DEFAULT_RING_TIMEOUT_MS, type CallPorts } from './calls-service';

/** How a callee with no open connection is rung anyway (Web Push), from features/index.ts. */
export type RingElsewhere = Pick<CallPorts, 'canRingElsewhere' | 'ringElsewhere'>;

export function createCalls(deps: Deps, users: UsersRepository, elsewhere: RingElsewhere = {}): ServerFeature {
  const { config, publisher, log } = deps;
  const calls = new CallService(
    {
      deliver: (userId, signal, event, except) => publisher.publishToUser(userId, queues.call(signal, userId), event, except),
      schedule: (ms, fire) => {
        const timer = setTimeout(fire, ms);
        return () => clearTimeout(timer);
      },
      names: (userIds) => users.names(userIds),
      isReachable: (userId) => publisher.connectionCount(userId) > 0,
      outcome: (outcome) => deps.metrics.call(outcome),
      ...elsewhere,
    },
    config.callRingTimeoutMs ?? DEFAULT_RING_TIMEOUT_MS,
  );
  publisher.onDisconnect((user, remaining) => {
    if (remaining === 0) calls.disconnected(user.userId);
  });
  publisher.onSubscribe((user, destination, deliver) => {
    if (destination !== queues.call('incoming', user.userId)) return;
    const incoming = calls.incomingFor(user.userId);
    if (incoming) deliver(incoming);
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
