// STOMP /app/call/* handlers: decode the frame, check that any userId it names is the
// session's own user, and hand the signal to the call service. The sender is always the
// session's user; the service adds it to what the peer receives.
import { app } from '../../../../common/destinations';
import { decode, PayloadError } from '../../../../common/payloads';
import type { Logger } from '../../log';
import { StompHandlerError, type AppHandler, type StompPrincipal } from '../../stomp/api';
import type { CallsRepository } from './calls-repository';
import type { CallService } from './calls-service';

function decoded<T>(parse: (body: string) => T, body: string): T {
  try {
    return parse(body);
  } catch (err) {
    if (err instanceof PayloadError) throw new StompHandlerError(err.message);
    throw err;
  }
}

/** initiate, accept and reject carry the sender's userId (SPEC.md §7): it must be the session's. */
function party(user: StompPrincipal, body: string): number {
  const { targetUserId, userId } = decoded(decode.callParty, body);
  if (userId !== undefined && userId !== user.userId) throw new StompHandlerError('userId is not the signed-in user');
  if (targetUserId === user.userId) throw new StompHandlerError('targetUserId is the signed-in user');
  return targetUserId;
}

export function callHandlers(calls: CallService, repository: CallsRepository, log: Logger): Record<string, AppHandler> {
  const dropped = (signal: string, user: StompPrincipal, targetUserId: number) =>
    log.debug({ signal, userId: user.userId, targetUserId }, 'call signal outside a matching call dropped');

  return {
    async [app.callInitiate](user, body) {
      const target = party(user, body);
      const names = await repository.names([user.userId, target]);
      const callerName = names.get(user.userId);
      if (!names.has(target) || callerName === undefined) throw new StompHandlerError('targetUserId is not a user');
      calls.initiate(user.userId, callerName, target);
    },
    [app.callAccept](user, body) {
      const caller = party(user, body);
      if (!calls.accept(user.userId, caller, user.connectionId)) dropped('accept', user, caller);
    },
    [app.callReject](user, body) {
      const caller = party(user, body);
      if (!calls.reject(user.userId, caller)) dropped('reject', user, caller);
    },
    [app.callOffer](user, body) {
      const { targetUserId, sdp } = decoded(decode.sdp, body);
      if (!calls.relay(user.userId, targetUserId, 'offer', { sdp })) dropped('offer', user, targetUserId);
    },
    [app.callAnswer](user, body) {
      const { targetUserId, sdp } = decoded(decode.sdp, body);
      if (!calls.relay(user.userId, targetUserId, 'answer', { sdp })) dropped('answer', user, targetUserId);
    },
    [app.callIceCandidate](user, body) {
      const { targetUserId, candidate } = decoded(decode.iceCandidate, body);
      if (!calls.relay(user.userId, targetUserId, 'ice-candidate', { candidate })) dropped('ice-candidate', user, targetUserId);
    },
    [app.callHangup](user, body) {
      const { targetUserId } = decoded(decode.hangup, body);
      if (!calls.hangup(user.userId, targetUserId)) dropped('hangup', user, targetUserId);
    },
  };
}
