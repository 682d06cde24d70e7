// REST of chat (docs/spec.md §7): chat list, user search, create, history, rename, leave, invite
// search, add user, e-mail notification; ours: message search, a member's room settings, the room's notice. Each route decodes its fields,
// calls one rule, replies.
import { api, type RoomNotice } from '@common/api';
import { userOf, type Route } from '../../transport/route';
import { idField, objectBody, pageField, stringField } from '../request-fields';
import { InvalidError } from '../errors';
import type { ChatDeps } from './chat-deps';
import { CatchUpSlots } from './catch-up-slots';
import { chatList } from './chat-list';
import { createRoom } from './create-room';
import { chatHistory } from './history';
import type { HistoryQuery } from './messages-repository';
import { addUser } from './invite';
import { leaveRoom } from './leave';
import { searchMessages } from './message-search';
import type { NotificationMail } from './notification-mail';
import { renameRoom } from './rename-room';
import { updateRoomSettings } from './room-settings';
import { removeNotice, setNotice } from './room-notice';
import { memoRoom } from './pass-on';
import { searchForRoom, searchUsers } from './user-search';

/** Which part of the history: afterSeq, beforeSeq, beforeId, aroundSeq, changedSince or page (0 by default); at most one of them. */
function historyPage(query: URLSearchParams): HistoryQuery {
  const given = (name: string) => {
    const v = query.get(name);
    return v !== null && v !== '' ? v : null;
  };
  const afterSeq = given('afterSeq');
  const beforeSeq = given('beforeSeq');
  const beforeId = given('beforeId');
  const changedSince = given('changedSince');
  const aroundSeq = given('aroundSeq');
  if ([afterSeq, beforeSeq, beforeId, changedSince, aroundSeq].filter((v) => v !== null).length > 1) {
    throw new InvalidError('give one of afterSeq, beforeSeq, beforeId, aroundSeq and changedSince');
  }
  if (changedSince !== null) return { changedSince: pageField(changedSince, 'changedSince', 0) };
  if (aroundSeq !== null) return { aroundSeq: idField(aroundSeq, 'aroundSeq') };
  if (afterSeq !== null) return { afterSeq: pageField(afterSeq, 'afterSeq', 0) };
  if (beforeSeq !== null) return { beforeSeq: idField(beforeSeq, 'beforeSeq') };
  if (beforeId !== null) return { beforeId: idField(beforeId, 'beforeId') };
  return { page: pageField(query.get('page'), 'page', 0) };
}

export function chatRoutes(chat: ChatDeps, notifications: NotificationMail): Route[] {
  const catchUps = new CatchUpSlots();
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
      method: 'GET',
      path: api.messageSearch,
      handle: async (ctx) => {
        const optionalId = (name: string) => {
          const v = ctx.query.get(name);
          return v === null || v === '' ? undefined : idField(v, name);
        };
        const where = { roomId: optionalId('chatRoomId'), beforeId: optionalId('beforeId') };
        return { json: await searchMessages(chat, userOf(ctx).userId, keyword(ctx.query.get('keyword')), where) };
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
        const asked = historyPage(ctx.query);
        const read = () => chatHistory(chat, user.userId, chatRoomId, asked);
        // A catch-up waits for a slot (catch-up-slots.ts); opening a room never does.
        return { json: await ('afterSeq' in asked || 'changedSince' in asked ? catchUps.run(read) : read()) };
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
      // Ours (issue 27): the caller's memo room, made on first use.
      method: 'POST',
      path: api.selfRoom,
      handle: async (ctx) => ({ json: { chatRoomId: await memoRoom(chat, userOf(ctx).userId) } }),
    },
    {
      method: 'PATCH',
      path: api.roomSettings,
      handle: async (ctx) => {
        const body = objectBody(ctx.body);
        const chatRoomId = idField(body.chatRoomId, 'chatRoomId');
        const flag = (name: 'muted' | 'pinned'): boolean | undefined => {
          const v = body[name];
          if (v !== undefined && typeof v !== 'boolean') throw new InvalidError(`${name} must be true or false`);
          return v;
        };
        const changes = { muted: flag('muted'), pinned: flag('pinned') };
        if (changes.muted === undefined && changes.pinned === undefined) throw new InvalidError('give muted or pinned');
        return { json: await updateRoomSettings(chat, userOf(ctx).userId, chatRoomId, changes) };
      },
    },
    {
      method: 'PUT',
      path: api.roomNotice,
      handle: async (ctx) => {
        const body = objectBody(ctx.body);
        const chatRoomId = idField(body.chatRoomId, 'chatRoomId');
        const messageId = idField(body.messageId, 'messageId');
        const json: RoomNotice = await setNotice(chat, userOf(ctx).userId, chatRoomId, messageId);
        return { json };
      },
    },
    {
      method: 'DELETE',
      path: api.roomNotice,
      handle: async (ctx) => {
        const chatRoomId = idField(ctx.query.get('chatRoomId'), 'chatRoomId');
        await removeNotice(chat, userOf(ctx).userId, chatRoomId);
        return { status: 204 };
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
