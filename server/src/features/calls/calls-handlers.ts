// STOMP /app/call/* handlers: decode the frame, check that any userId it names is the
// session's own user, and hand the signal to the call service. The sender is always the
// session's user; the service adds it to what the peer receives.
import { app } from '@common/destinations';
import { decode } from '@common/payloads';
import type { Logger } from '../../log';
import type { AppHandler, StompPrincipal } from '../../stomp/api';
import { ForbiddenError, InvalidError } from '../errors';
import type { CallService } from './calls-service';

/** initiate, accept and reject carry the sender's userId (docs/spec.md §7): it must be the session's. */
function party(user: StompPrincipal, body: string): number {
  return checkedParty(user, decode.callParty(body));
}

function checkedParty(user: StompPrincipal, { targetUserId, userId }: { targetUserId: number; userId?: number }): number {
  if (userId !== undefined && userId !== user.userId) throw new ForbiddenError('userId is not the signed-in user');
  if (targetUserId === user.userId) throw new InvalidError('targetUserId is the signed-in user');
  return targetUserId;
}

export function callHandlers(calls: CallService, log: Logger): Record<string, AppHandler> {
  const dropped = (signal: string, user: StompPrincipal, targetUserId: number) =>
    log.debug({ signal, userId: user.userId, targetUserId }, 'call signal outside a matching call dropped');

  return {
    async [app.callInitiate](user, body) {
      const initiate = decode.callInitiate(body);
      await calls.ring(user.userId, checkedParty(user, initiate), initiate.media);
    },
    async [app.callAccept](user, body) {
      const caller = party(user, body);
      if (!(await calls.accept(user.userId, caller, user.connectionId))) dropped('accept', user, caller);
    },
    async [app.callReject](user, body) {
      const caller = party(user, body);
      if (!(await calls.reject(user.userId, caller))) dropped('reject', user, caller);
    },
    async [app.callOffer](user, body) {
      const { targetUserId, sdp } = decode.sdp(body);
      if (!(await calls.relay(user.userId, targetUserId, 'offer', { sdp }))) dropped('offer', user, targetUserId);
    },
    async [app.callAnswer](user, body) {
      const { targetUserId, sdp } = decode.sdp(body);
      if (!(await calls.relay(user.userId, targetUserId, 'answer', { sdp }))) dropped('answer', user, targetUserId);
    },
    async [app.callIceCandidate](user, body) {
      const { targetUserId, candidate } = decode.iceCandidate(body);
      if (!(await calls.relay(user.userId, targetUserId, 'ice-candidate', { candidate }))) dropped('ice-candidate', user, targetUserId);
    },
    async [app.callMediaState](user, body) {
      const state = decode.mediaState(body);
      if (!(await calls.mediaState(user.userId, state))) dropped('media-state', user, state.targetUserId);
    },
    async [app.callHangup](user, body) {
      const { targetUserId } = decode.hangup(body);
      if (!(await calls.hangup(user.userId, targetUserId))) dropped('hangup', user, targetUserId);
    },
  };
}
