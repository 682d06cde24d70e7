// GET /api/chat-room/chat-history?chatRoomId=&page= (or &beforeId= for gap-free paging while
// new messages arrive).
import { api } from '../../../../common/api';
import { userOf, type Route } from '../../transport/http';
import { idValue, pageValue } from '../rooms/request-fields';
import type { HistoryPage } from './messages-repository';
import type { MessagesService } from './messages-service';

export function messagesRoutes(messages: MessagesService): Route[] {
  return [
    {
      method: 'GET',
      path: api.chatHistory,
      handle: async (ctx) => {
        const user = userOf(ctx);
        const chatRoomId = idValue(ctx.query.get('chatRoomId'), 'chatRoomId');
        const beforeId = ctx.query.get('beforeId');
        const which: HistoryPage =
          beforeId !== null && beforeId !== '' ? { beforeId: idValue(beforeId, 'beforeId') } : { page: pageValue(ctx.query.get('page'), 'page', 0) };
        return { json: await messages.history(user.userId, chatRoomId, which) };
      },
    },
  ];
}
