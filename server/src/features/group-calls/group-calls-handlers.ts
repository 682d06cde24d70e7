// STOMP /app/group-call/* handlers: decode, then hand to the service with the session's user.
// The service checks membership and answers refusals on the user's group-signal queue.
import { app } from '@common/destinations';
import type { AppHandler } from '../../stomp/api';
import { decodeGroupCall } from './group-call-payloads';
import type { GroupCallService } from './group-call-service';

export function groupCallHandlers(calls: GroupCallService): Record<string, AppHandler> {
  return {
    async [app.groupCallStart](user, body) {
      const { chatRoomId, media } = decodeGroupCall.start(body);
      await calls.start(user.userId, chatRoomId, media);
    },
    async [app.groupCallJoin](user, body) {
      const { chatRoomId, callId } = decodeGroupCall.join(body);
      await calls.join(user.userId, chatRoomId, callId);
    },
    async [app.groupCallLeave](user, body) {
      const { chatRoomId, callId } = decodeGroupCall.join(body);
      await calls.leave(user.userId, chatRoomId, callId);
    },
    async [app.groupCallMediaState](user, body) {
      const { chatRoomId, callId, muted, camera, screen } = decodeGroupCall.mediaState(body);
      await calls.mediaState(user.userId, chatRoomId, callId, { muted, camera, screen });
    },
    async [app.groupCallSignal](user, body) {
      const { chatRoomId, callId, ...signal } = decodeGroupCall.signal(body);
      await calls.signal(user.userId, chatRoomId, callId, signal);
    },
  };
}
