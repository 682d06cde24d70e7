// SEND /app/private-message {chatRoomId, senderId, content, clientMsgId?}. The sender is the
// connection's user; a differing senderId is refused, never trusted.
import { app } from '../../../../common/destinations';
import { decode, PayloadError } from '../../../../common/payloads';
import { isSendableMessage, LIMITS } from '../../../../common/rules';
import { StompHandlerError, type AppHandler } from '../../stomp/api';
import { NotAMemberError } from '../presence/presence-service';
import type { MessagesService } from './messages-service';

/** Decodes with a payload decoder, turning its refusal into a STOMP ERROR. */
export function decodeOrRefuse<T>(decoder: (body: string) => T, body: string): T {
  try {
    return decoder(body);
  } catch (err) {
    if (err instanceof PayloadError) throw new StompHandlerError(err.message);
    throw err;
  }
}

export function messagesHandlers(messages: MessagesService): Record<string, AppHandler> {
  return {
    [app.privateMessage]: async (user, body) => {
      const p = decodeOrRefuse(decode.privateMessage, body);
      if (p.senderId !== undefined && p.senderId !== user.userId) throw new StompHandlerError('senderId is not the signed-in user');
      if (!isSendableMessage(p.content)) throw new StompHandlerError(`content must be 1 to ${LIMITS.message} characters`);
      try {
        await messages.sendUserMessage(user.userId, p.chatRoomId, p.content.trim(), p.clientMsgId ?? null);
      } catch (err) {
        if (err instanceof NotAMemberError) throw new StompHandlerError(err.message);
        throw err;
      }
    },
  };
}
