// The group-calls feature assembled (issue 25): the media servers (JANUS_URLS, or the embedded
// Janus), where calls are recorded, the service with its STOMP handlers and its route, the two
// cluster signals (a participant left: their handles go; a participant's signal arrived on
// another node: the node holding their handles applies it), and the two ways a participant goes
// without saying so: their last connection anywhere closing (after the reconnect grace, unless
// they subscribe to their group-signal queue again or join again), and their leaving the room
// (at once).
import { queues } from '@common/destinations';
import { JanusPool } from '../../media/janus-pool';
import { iceServersFor, turnCredentials } from '../calls/turn-credentials';
import type { GroupCallRooms } from '../chat/group-call-rooms';
import type { Deps, ServerFeature } from '../types';
import { MemoryGroupCallStore } from './group-call-store';
import { GROUP_CALL_RECONNECT_GRACE_MS, GroupCallService, type GroupCallPorts, type ParticipantSignal } from './group-call-service';
import { groupCallHandlers } from './group-calls-handlers';
import { groupCallRoutes } from './group-calls-routes';

/** How long the embedded Janus' own TURN credentials last (it is restarted far sooner, or they are renewed with it). */
const JANUS_TURN_TTL_SECONDS = 30 * 24 * 3600;

export interface GroupCallsFeature extends ServerFeature {
  /** The service (tests reach the embedded media server through it). */
  service: GroupCallService;
  pool: JanusPool;
}

export function createGroupCalls(deps: Deps, rooms: GroupCallRooms, ringElsewhere?: GroupCallPorts['ringElsewhere']): GroupCallsFeature {
  const { config, publisher } = deps;
  const log = deps.log.child({ feature: 'group-calls' });
  const { presence } = deps.cluster;
  const pool = new JanusPool({
    urls: config.janusUrls,
    apiSecret: config.janusApiSecret,
    embedded: {
      binary: config.janusBinary,
      stunUrls: config.stunUrls,
      turnUrls: config.turnUrls,
      turnCredentials: config.turnSecret ? turnCredentials(0, config.turnSecret, JANUS_TURN_TTL_SECONDS, deps.clock()) : null,
    },
    log,
  });
  /** The cluster signal that a participant left a call (its data: `{callId}|{userId}`). */
  const LEFT = 'group-call.left';
  /** The cluster signal carrying a participant's signal checked on another node (JSON: callId, userId, signal). */
  const SIGNAL = 'group-call.signal';
  const { signals } = deps.cluster;
  const ports: GroupCallPorts = {
    tellOthersLeft: (callId, userId) => signals.broadcast(LEFT, `${callId}|${userId}`),
    relaySignal: (callId, userId, signal) => signals.broadcast(SIGNAL, JSON.stringify({ callId, userId, signal })),
    members: (roomId) => rooms.members(roomId),
    signal: (userId, signal) => publisher.publishToUser(userId, queues.call('group-signal', userId), signal),
    ring: (userId, event) => publisher.publishToUser(userId, queues.call('group-incoming', userId), event),
    isOnline: (userId) => Promise.resolve(presence.isOnline(userId)),
    ringElsewhere,
    publishRoom: (roomId, event) => rooms.publish(roomId, event),
    record: async (roomId, event) => {
      try {
        await rooms.post(roomId, event);
      } catch (err) {
        log.error({ err, roomId }, 'could not post the group call record');
      }
    },
    rowChanged: (roomId) => void rooms.rowChanged(roomId).catch((err: unknown) => log.error({ err, roomId }, 'could not tell the members of a group call change')),
    iceServers: (userId) => iceServersFor(config, userId, deps.clock()),
    now: deps.clock,
  };
  const service = new GroupCallService(ports, deps.cluster.sharedGroupCallStore?.() ?? new MemoryGroupCallStore(), pool, config.groupCallMax, log, config.groupCallReconnectGraceMs ?? GROUP_CALL_RECONNECT_GRACE_MS);
  const failed = (err: unknown) => log.error({ err }, 'group call update failed');
  signals.onSignal(LEFT, (data) => {
    const [callId, userId] = data.split('|');
    service.leftElsewhere(callId, Number(userId)).catch(failed);
  });
  signals.onSignal(SIGNAL, (data) => {
    // From another node of ours, which checked the sender's membership.
    const { callId, userId, signal } = JSON.parse(data) as { callId: string; userId: number; signal: ParticipantSignal };
    service.relayedSignal(callId, userId, signal).catch(failed);
  });
  publisher.onDisconnect((user, remaining) => {
    if (remaining > 0) return;
    void (async () => {
      if (!(await presence.isOnline(user.userId))) await service.disconnected(user.userId);
    })().catch(failed);
  });
  publisher.onSubscribe((user, destination) => {
    if (destination === queues.call('group-signal', user.userId)) service.resubscribed(user.userId).catch(failed);
  });
  rooms.onMemberLeft((roomId, userId) => void service.gone(userId, roomId).catch(failed));
  rooms.answerCalls(() => service.onRows());
  return {
    routes: groupCallRoutes(service),
    stomp: { handlers: groupCallHandlers(service) },
    stop: () => service.stop(),
    service,
    pool,
  };
}
