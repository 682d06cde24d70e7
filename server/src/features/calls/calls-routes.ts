// GET /api/call/ice-servers: the STUN and TURN servers a signed-in caller may use, with TURN
// credentials that expire (TURN_TTL) and name the user.
import { api } from '@common/api';
import type { Clock } from '../types';
import { userOf, type Route } from '../../transport/route';
import { iceServersFor, type IceServerSettings } from './turn-credentials';

export function callsRoutes(settings: IceServerSettings, clock: Clock): Route[] {
  return [
    {
      method: 'GET',
      path: api.iceServers,
      handle(ctx) {
        return { json: iceServersFor(settings, userOf(ctx).userId, clock()) };
      },
    },
  ];
}
