// REST of chat (SPEC.md §7): chat list, user search, create, history, rename, leave, invite
// search, add user, e-mail notification. Each route decodes its fields, calls one rule, replies.
import { api } from '../../../../common/api';
import { userOf, type Route } from '../../transport/http';
import { idField, objectBody, pageField, stringField } from '../request-fields';
import type { ChatDeps } from './chat-deps';
import { chatList } from './chat-list';
import { createRoom } from './create-room';
import { chatHistory } from './history';
import { addUser } from './invite';
import { leaveRoom } from './leave';
import type { HistoryPage } from './messages-repository';
import type { NotificationMail } from './notification-mail';
import { renameRoom } from './rename-room';
import { searchForRoom, searchUsers } from './user-search';

export function chatRoutes(chat: ChatDeps, notifications: NotificationMail): Route[] {
  const keyword = (raw: string | null) => raw ?? '';
  return [
    {
      method: 'GET',
      path: api.chats,
      handle: async (ctx) => ({ json: await chatList(chat, userOf(ctx).userId) }),
    },
    {
      method: 'GET',
      path: api.userSearch,
      handle: async (ctx) => {
        userOf(ctx);
        return { json: await searchUsers(chat, keyword(ctx.query.get('keyword'))) };
      },
    },
    {
      method: 'POST',
      path: api.roomCreate,
      handle: async (ctx) => {
        const body = objectBody(ctx.body);
        const chatRoomId = await createRoom(chat, userOf(ctx).userId, idField(body.targetUserId, 'targetUserId'));
        return { json: { chatRoomId } };
      },
    },
    {
      method: 'GET',
      path: api.chatHistory,
      handle: async (ctx) => {
        const user = userOf(ctx);
        const chatRoomId = idField(ctx.query.get('chatRoomId'), 'chatRoomId');
        const beforeId = ctx.query.get('beforeId');
        const which: HistoryPage =
          beforeId !== null && beforeId !== '' ? { beforeId: idField(beforeId, 'beforeId') } : { page: pageField(ctx.query.get('page'), 'page', 0) };
        return { json: await chatHistory(chat, user.userId, chatRoomId, which) };
      },
    },
    {
      method: 'POST',
      path: api.updateSubject,
      handle: async (ctx) => {
        const body = objectBody(ctx.body);
        const chatRoomId = idField(body.chatRoomId, 'chatRoomId');
        const requested = stringField(body.chatRoomName, 'chatRoomName');
        const chatRoomName = await renameRoom(chat, userOf(ctx).userId, chatRoomId, requested);
        return { json: { chatRoomId, chatRoomName } };
      },
    },
    {
      method: 'DELETE',
      path: api.leaveChat,
      handle: async (ctx) => {
        const chatRoomId = idField(ctx.query.get('chatRoomId'), 'chatRoomId');
        await leaveRoom(chat, userOf(ctx).userId, chatRoomId);
        return { json: { chatRoomId } };
      },
    },
    {
      method: 'GET',
      path: api.roomSearch,
      handle: async (ctx) => {
        const chatRoomId = idField(ctx.query.get('chatRoomId'), 'chatRoomId');
        return { json: await searchForRoom(chat, userOf(ctx).userId, chatRoomId, keyword(ctx.query.get('keyword'))) };
      },
    },
    {
      method: 'POST',
      path: api.addUser,
      handle: async (ctx) => {
        const body = objectBody(ctx.body);
        const chatRoomId = idField(body.chatRoomId, 'chatRoomId');
        const userId = idField(body.userId, 'userId');
        await addUser(chat, userOf(ctx).userId, chatRoomId, userId);
        return { json: { chatRoomId, userId } };
      },
    },
    {
      method: 'POST',
      path: api.notificationSend,
      handle: async (ctx) => {
        const chatRoomId = idField(objectBody(ctx.body).chatRoomId, 'chatRoomId');
        return { json: await notifications.notify(userOf(ctx).userId, chatRoomId) };
      },
    },
  ];
}
