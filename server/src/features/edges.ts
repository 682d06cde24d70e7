// The two edges where domain refusals (errors.ts) become wire answers: one table for REST,
// one rule for STOMP. Features throw domain errors; the assembly (index.ts) wraps every route
// and handler with these, so the mapping lives here only.
import { PayloadError } from '@common/payloads';
import { isDatabaseUnavailable } from '../db/errors';
import { StompHandlerError, StompUnavailableError, type AppHandler } from '../stomp/api';
import { HttpError } from '../transport/errors';
import type { Route } from '../transport/route';
import {
  ConflictError, DomainError, EmailTakenError, ForbiddenError, InvalidError, NotConfiguredError, NotFoundError,
  QuotaExceededError, RateLimitedError, SharedStateUnavailableError, UnauthenticatedError, UpstreamFailedError,
} from './errors';

type ErrorClass = abstract new (...args: never[]) => DomainError;

/** Domain refusal → HTTP status. Subclasses answer as their parent (NotAMemberError is a 403). */
const HTTP_STATUS: ReadonlyArray<readonly [ErrorClass, number]> = [
  [InvalidError, 400],
  [UnauthenticatedError, 401],
  [EmailTakenError, 401],
  [ForbiddenError, 403],
  [NotFoundError, 404],
  [ConflictError, 409],
  [QuotaExceededError, 413],
  [RateLimitedError, 429],
  [UpstreamFailedError, 502],
  [NotConfiguredError, 503],
];

export function toHttpError(err: DomainError): HttpError {
  const status = HTTP_STATUS.find(([type]) => err instanceof type)?.[1] ?? 500;
  const headers: Record<string, string> = err instanceof RateLimitedError ? { 'Retry-After': String(err.retryAfterSeconds) } : {};
  return new HttpError(status, err.code, err.message, headers);
}

export function restEdge(route: Route): Route {
  return {
    ...route,
    async handle(ctx) {
      try {
        return await route.handle(ctx);
      } catch (err) {
        if (isDatabaseUnavailable(err)) throw new HttpError(503, 'unavailable', DATABASE_UNAVAILABLE, { 'Retry-After': '2' });
        if (err instanceof SharedStateUnavailableError) throw new HttpError(503, err.code, err.message, { 'Retry-After': '2' });
        throw err instanceof DomainError ? toHttpError(err) : err;
      }
    },
  };
}

const DATABASE_UNAVAILABLE = 'the database is unavailable; try again in a moment';

/**
 * Every domain refusal and every undecodable payload answers an ERROR frame carrying its
 * message; a database out of reach answers a retryable one (nothing was stored, the client
 * sends again after reconnecting), and so does the cluster bus out of reach; anything else stays an internal error.
 */
export function stompEdge(handler: AppHandler): AppHandler {
  return async (user, body) => {
    try {
      await handler(user, body);
    } catch (err) {
      if (err instanceof DomainError || err instanceof PayloadError) throw new StompHandlerError(err.message);
      if (isDatabaseUnavailable(err)) throw new StompUnavailableError(DATABASE_UNAVAILABLE);
      if (err instanceof SharedStateUnavailableError) throw new StompUnavailableError(err.message);
      throw err;
    }
  };
}
