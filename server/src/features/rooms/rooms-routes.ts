// REST for rooms (SPEC.md §7): chat list, user search, create, rename, leave, invite search,
// add user, e-mail notification. Each route decodes, calls one service, replies.
import { api } from '../../../../common/api';
import { userOf, type Route } from '../../transport/http';
import type { NotificationService } from './notification-service';
import { idValue, jsonBody, stringValue } from './request-fields';
import type { RoomsService } from './rooms-service';

export function roomsRoutes(rooms: RoomsService, notifications: NotificationService): Route[] {
  return [
    {
      method: 'GET',
      path: api.chats,
      handle: async (ctx) => ({ json: await rooms.chatList(userOf(ctx).userId) }),
    },
    {
      method: 'GET',
      path: api.userSearch,
      handle: async (ctx) => {
        userOf(ctx);
        return { json: await rooms.searchUsers(ctx.query.get('keyword') ?? '') };
      },
    },
    {
      method: 'POST',
      path: api.roomCreate,
      handle: async (ctx) => {
        const body = jsonBody(ctx);
        const chatRoomId = await rooms.create(userOf(ctx).userId, idValue(body.targetUserId, 'targetUserId'));
        return { json: { chatRoomId } };
      },
    },
    {
      method: 'POST',
      path: api.updateSubject,
      handle: async (ctx) => {
        const body = jsonBody(ctx);
        const chatRoomId = idValue(body.chatRoomId, 'chatRoomId');
        const chatRoomName = await rooms.rename(userOf(ctx).userId, chatRoomId, stringValue(body.chatRoomName, 'chatRoomName'));
        return { json: { chatRoomId, chatRoomName } };
      },
    },
    {
      method: 'DELETE',
      path: api.leaveChat,
      handle: async (ctx) => {
        const chatRoomId = idValue(ctx.query.get('chatRoomId'), 'chatRoomId');
        await rooms.leave(userOf(ctx).userId, chatRoomId);
        return { json: { chatRoomId } };
      },
    },
    {
      method: 'GET',
      path: api.roomSearch,
      handle: async (ctx) => {
        const chatRoomId = idValue(ctx.query.get('chatRoomId'), 'chatRoomId');
        return { json: await rooms.searchForRoom(userOf(ctx).userId, chatRoomId, ctx.query.get('keyword') ?? '') };
      },
    },
    {
      method: 'POST',
      path: api.addUser,
      handle: async (ctx) => {
        const body = jsonBody(ctx);
        const chatRoomId = idValue(body.chatRoomId, 'chatRoomId');
        const userId = idValue(body.userId, 'userId');
        await rooms.addUser(userOf(ctx).userId, chatRoomId, userId);
        return { json: { chatRoomId, userId } };
      },
    },
    {
      method: 'POST',
      path: api.notificationSend,
      handle: async (ctx) => {
        const chatRoomId = idValue(jsonBody(ctx).chatRoomId, 'chatRoomId');
        return { json: await notifications.notify(userOf(ctx).userId, chatRoomId) };
      },
    },
  ];
}
