// GET /api/call/ice-servers: the STUN and TURN servers a signed-in caller may use, with TURN
// credentials that expire (TURN_TTL) and name the user. GET /api/calls: the user's call record.
import { api } from '@common/api';
import type { Clock } from '../types';
import { InvalidError } from '../errors';
import { idField } from '../request-fields';
import { userOf, type Route } from '../../transport/route';
import { CALLS_PAGE_DEFAULT, CALLS_PAGE_MAX, callHistory } from './call-history';
import type { CallsRepository } from './calls-repository';
import { iceServersFor, type IceServerSettings } from './turn-credentials';

/** `limit`: 1 to CALLS_PAGE_MAX, CALLS_PAGE_DEFAULT when absent. */
function limitField(raw: string | null): number {
  if (raw === null) return CALLS_PAGE_DEFAULT;
  const n = /^[0-9]{1,3}$/.test(raw) ? Number(raw) : NaN;
  if (!(n >= 1 && n <= CALLS_PAGE_MAX)) throw new InvalidError(`limit must be an integer from 1 to ${CALLS_PAGE_MAX}`);
  return n;
}

export function callsRoutes(settings: IceServerSettings, clock: Clock, calls: CallsRepository): Route[] {
  return [
    {
      method: 'GET',
      path: api.iceServers,
      handle(ctx) {
        return { json: iceServersFor(settings, userOf(ctx).userId, clock()) };
      },
    },
    {
      method: 'GET',
      path: api.calls,
      async handle(ctx) {
        const before = ctx.query.get('before');
        const page = await callHistory(calls, userOf(ctx).userId, before === null ? null : idField(before, 'before'), limitField(ctx.query.get('limit')));
        return { json: page };
      },
    },
  ];
}
