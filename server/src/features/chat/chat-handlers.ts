// STOMP /app/... destinations of chat: a message into a room, a room gaining or losing focus
// and an explicit read (which move the read position), typing, and editing, deleting and
// reacting to a message. The sender is the connection's user: a senderId or userId naming
// someone else is refused, never trusted.
import { app } from '@common/destinations';
import { decode } from '@common/payloads';
import { hasForbiddenCharacters, isSendableCaption, isSendableMessage, LIMITS } from '@common/rules';
import type { AppHandler, StompPrincipal } from '../../stomp/api';
import { ForbiddenError, InvalidError } from '../errors';
import type { ChatDeps } from './chat-deps';
import { deleteMessage } from './delete-message';
import { editMessage } from './edit-message';
import { forwardMessage, hideMessage } from './pass-on';
import { react } from './reactions';

function focusedRoom(user: StompPrincipal, body: string): number {
  const p = decode.presence(body);
  if (p.userId !== undefined && p.userId !== user.userId) throw new ForbiddenError('userId is not the signed-in user');
  return p.chatRoomId;
}

export function chatHandlers(chat: ChatDeps): Record<string, AppHandler> {
  const { sender, readMarkers, typing } = chat;
  return {
    [app.privateMessage]: async (user, body) => {
      const p = decode.privateMessage(body);
      if (p.senderId !== undefined && p.senderId !== user.userId) throw new ForbiddenError('senderId is not the signed-in user');
      if (hasForbiddenCharacters(p.content, 'message')) throw new InvalidError('content holds control or bidi-override characters');
      // With an attachment the text may be empty (a photo alone).
      if (p.attachmentId !== undefined || p.attachmentIds !== undefined) {
        if (!isSendableCaption(p.content)) throw new InvalidError(`content must be at most ${LIMITS.message} characters`);
      } else if (!isSendableMessage(p.content)) throw new InvalidError(`content must be 1 to ${LIMITS.message} characters`);
      await sender.sendUserMessage(user.userId, p.chatRoomId, p.content.trim(), p.clientMsgId ?? null, p.replyToMessageId ?? null, p.attachmentId ?? null, p.mentions ?? [], p.attachmentIds ?? null);
    },
    [app.userActive]: async (user, body) => {
      await readMarkers.roomOpened(user.connectionId, user.userId, focusedRoom(user, body));
    },
    [app.userInactive]: async (user, body) => {
      await readMarkers.roomClosed(user.connectionId, user.userId, focusedRoom(user, body));
    },
    [app.read]: async (user, body) => {
      const p = decode.read(body);
      await readMarkers.read(user.userId, p.chatRoomId, p.seq);
    },
    [app.typing]: async (user, body) => {
      await typing.typing(user.userId, decode.typing(body).chatRoomId);
    },
    [app.editMessage]: async (user, body) => {
      const p = decode.editMessage(body);
      await editMessage(chat, user.userId, p.chatRoomId, p.messageId, p.content);
    },
    [app.deleteMessage]: async (user, body) => {
      const p = decode.deleteMessage(body);
      await deleteMessage(chat, user.userId, p.chatRoomId, p.messageId);
    },
    [app.forwardMessage]: async (user, body) => {
      const p = decode.forwardMessage(body);
      await forwardMessage(chat, user.userId, p.messageId, p.chatRoomIds, p.clientMsgId ?? null);
    },
    [app.hideMessage]: async (user, body) => {
      await hideMessage(chat, user.userId, decode.hideMessage(body).messageId);
    },
    [app.reaction]: async (user, body) => {
      const p = decode.reaction(body);
      await react(chat, user.userId, p.chatRoomId, p.messageId, p.emoji, p.on);
    },
  };
}
