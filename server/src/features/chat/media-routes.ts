// Ours: the room's drawer (docs/protocol.md): GET /api/chat-room/media?chatRoomId=&kind=&before=.
import { api } from '@common/api';
import { userOf, type Route } from '../../transport/route';
import { idField } from '../request-fields';
import { mediaCursor, mediaKind, roomMedia, type RoomMediaDeps } from './room-media';

export function mediaRoutes(deps: RoomMediaDeps): Route[] {
  return [
    {
      method: 'GET',
      path: api.roomMedia,
      handle: async (ctx) => {
        const user = userOf(ctx);
        const chatRoomId = idField(ctx.query.get('chatRoomId'), 'chatRoomId');
        const kind = mediaKind(ctx.query.get('kind'));
        return { json: await roomMedia(deps, user.userId, chatRoomId, kind, mediaCursor(ctx.query.get('before'))) };
      },
    },
  ];
}
