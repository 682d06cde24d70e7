// GET /metrics: the Prometheus scrape, behind a bearer token.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Route } from '../transport/route';
import type { Metrics } from './metrics';

/**
 * GET /metrics in Prometheus' text format, only for `Authorization: Bearer $METRICS_TOKEN`:
 * 404 when no token is configured (the route does not exist), 401 without the right one.
 */
export function metricsRoute(token: string | null, metrics: Metrics): Route {
  // Both sides hashed: timingSafeEqual needs equal lengths, and the token's length must not leak.
  const expected = token === null ? null : createHash('sha256').update(`Bearer ${token}`).digest();
  return {
    method: 'GET',
    path: '/metrics',
    public: true,
    async handle(ctx) {
      if (expected === null) return { status: 404, json: { error: 'not_found', message: 'no such route' } };
      const given = createHash('sha256').update(ctx.headers.authorization ?? '').digest();
      if (!timingSafeEqual(given, expected)) {
        return { status: 401, json: { error: 'unauthorized', message: 'a bearer token is required' }, headers: { 'WWW-Authenticate': 'Bearer' } };
      }
      return { text: { contentType: metrics.contentType, body: await metrics.text() } };
    },
  };
}
