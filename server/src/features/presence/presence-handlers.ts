// SEND /app/user-active and /app/user-inactive {chatRoomId, userId}: the connection's user
// only; a differing userId is refused.
import { app } from '../../../../common/destinations';
import { decode } from '../../../../common/payloads';
import { StompHandlerError, type AppHandler, type StompPrincipal } from '../../stomp/api';
import { decodeOrRefuse } from '../messages/messages-handlers';
import { NotAMemberError, type PresenceService } from './presence-service';

function presenceOf(user: StompPrincipal, body: string): number {
  const p = decodeOrRefuse(decode.presence, body);
  if (p.userId !== undefined && p.userId !== user.userId) throw new StompHandlerError('userId is not the signed-in user');
  return p.chatRoomId;
}

export function presenceHandlers(presence: PresenceService): Record<string, AppHandler> {
  return {
    [app.userActive]: async (user, body) => {
      const roomId = presenceOf(user, body);
      try {
        await presence.activate(user.connectionId, user.userId, roomId);
      } catch (err) {
        if (err instanceof NotAMemberError) throw new StompHandlerError(err.message);
        throw err;
      }
    },
    [app.userInactive]: (user, body) => {
      presence.deactivate(user.connectionId, presenceOf(user, body));
    },
  };
}
