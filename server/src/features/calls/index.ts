// The calls feature assembled: the call state (in memory, or in Redis for a cluster), its STOMP
// handlers, the ICE-servers and call-record routes, the reconnect grace when a party's last
// connection anywhere drops, the resume when they subscribe again, and each call's record.
import type { CallSystemEvent } from '@common/api';
import { queues } from '@common/destinations';
import type { Logger } from '../../log';
import type { Deps, ServerFeature } from '../types';
import type { UsersRepository } from '../accounts/users-repository';
import type { CallRecordRooms } from '../chat/call-record';
import type { CallStore } from './call-store';
import { callHandlers } from './calls-handlers';
import { CallsRepository } from './calls-repository';
import { callsRoutes } from './calls-routes';
import { CallService, DEFAULT_RECONNECT_GRACE_MS, DEFAULT_RING_TIMEOUT_MS, type CallPorts, type CallRecordFacts } from './calls-service';

/** How a callee with no open connection is rung anyway (Web Push), from features/index.ts. */
export type RingElsewhere = Pick<CallPorts, 'canRingElsewhere' | 'ringElsewhere'>;
/** Whether a callee blocked a caller (people's blocks), from features/index.ts. */
export type CallBlocks = CallPorts['blocks'];

/**
 * Keeps an ended call's record: the calls row (with the room it was told in) and the system
 * message in the two people's room. A failure is logged; the call itself is over either way.
 */
function recorder(calls: CallsRepository, rooms: CallRecordRooms | undefined, log: Logger): (facts: CallRecordFacts) => Promise<void> {
  return async (facts) => {
    let roomId: number | null = null;
    try {
      if (rooms) roomId = await rooms.roomOf(facts.caller, facts.callee);
    } catch (err) {
      log.warn({ err, caller: facts.caller, callee: facts.callee }, 'no room for the call record');
    }
    try {
      await calls.insert({
        callerId: facts.caller, calleeId: facts.callee, roomId, media: facts.media, outcome: facts.outcome,
        startedAtMs: facts.startedAtMs, answeredAtMs: facts.answeredAtMs, endedAtMs: facts.endedAtMs, durationSec: facts.durationSec,
      });
      if (rooms && roomId !== null) {
        const event: CallSystemEvent = {
          type: 'call', actorUserId: facts.caller, actorName: facts.callerName,
          media: facts.media, outcome: facts.outcome, durationSec: facts.durationSec, callerUserId: facts.caller,
        };
        await rooms.post(roomId, event);
      }
    } catch (err) {
      log.error({ err, caller: facts.caller, callee: facts.callee }, 'could not keep the call record');
    }
  };
}

export function createCalls(deps: Deps, users: UsersRepository, elsewhere: RingElsewhere = {}, rooms?: CallRecordRooms, blocks?: CallBlocks): ServerFeature {
  const { config, publisher } = deps;
  const log = deps.log.child({ feature: 'calls' });
  const { presence, sharedCallStore } = deps.cluster;
  const ringTimeoutMs = config.callRingTimeoutMs ?? DEFAULT_RING_TIMEOUT_MS;
  const repository = new CallsRepository(deps.db);
  const ports: CallPorts = {
    deliver: (userId, signal, event, except) => publisher.publishToUser(userId, queues.call(signal, userId), event, except),
    schedule: (ms, fire) => {
      const timer = setTimeout(() => void fire(), ms);
      return () => clearTimeout(timer);
    },
    names: (userIds) => users.names(userIds),
    isReachable: (userId) => presence.isOnline(userId),
    outcome: (outcome) => deps.metrics.call(outcome),
    now: deps.clock,
    record: recorder(repository, rooms, log),
    blocks,
    ...elsewhere,
  };
  const store: CallStore | undefined = sharedCallStore
    ? sharedCallStore(ringTimeoutMs, {
        isLocal: (userId) => publisher.connectionCount(userId) > 0,
        isOnline: (userId) => presence.isOnline(userId),
        peerGone: async (userId) => void (await calls.disconnected(userId)),
      }, log)
    : undefined;
  const calls = new CallService(ports, ringTimeoutMs, store, config.callReconnectGraceMs ?? DEFAULT_RECONNECT_GRACE_MS);
  const failed = (err: unknown) => log.error({ err }, 'call state update failed');
  publisher.onDisconnect((user, remaining) => {
    if (remaining > 0) return;
    // The user may still be connected to another node: only their last connection anywhere counts.
    void (async () => {
      if (!(await presence.isOnline(user.userId))) await calls.disconnected(user.userId);
    })().catch(failed);
  });
  publisher.onSubscribe((user, destination, deliver) => {
    if (destination === queues.call('incoming', user.userId)) {
      calls.incomingFor(user.userId).then((incoming) => incoming && deliver(incoming), failed);
    } else if (destination === queues.call('resume', user.userId)) {
      // A client that can resume is back: an accepted call that waited for it goes on.
      calls.returned(user.userId).catch(failed);
    }
  });
  if (config.turnUrls.length > 0 && !config.turnSecret) log.warn('TURN_URLS is set without TURN_SECRET: TURN servers are not offered');
  return {
    routes: callsRoutes(config, deps.clock, repository),
    stomp: { handlers: callHandlers(calls, log) },
    stop: () => calls.stop(),
  };
}
