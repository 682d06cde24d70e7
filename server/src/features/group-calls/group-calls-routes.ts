// GET /api/chat-room/group-call?chatRoomId=: the room's group call, or {active: false}; 403 for
// a non-member.
import { api } from '@common/api';
import { idField } from '../request-fields';
import { InvalidError } from '../errors';
import { userOf, type Route } from '../../transport/route';
import type { GroupCallService } from './group-call-service';

export function groupCallRoutes(calls: GroupCallService): Route[] {
  return [
    {
      method: 'GET',
      path: api.groupCall,
      async handle(ctx) {
        const raw = ctx.query.get('chatRoomId');
        if (raw === null) throw new InvalidError('chatRoomId is required');
        return { json: await calls.state(userOf(ctx).userId, idField(raw, 'chatRoomId')) };
      },
    },
  ];
}
