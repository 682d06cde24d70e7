// Reading ids and strings out of query strings and JSON bodies, answering 400 when absent or
// malformed. Ids may come as numbers or numeric strings (query strings are always strings).
import { toPositiveId } from '../../../../common/rules';
import { badRequest } from '../../transport/errors';
import type { RequestContext } from '../../transport/http';

export function idValue(raw: unknown, name: string): number {
  const n = toPositiveId(raw);
  if (n === null) throw badRequest(`${name} must be a positive integer`);
  return n;
}

/** A non-negative integer query parameter, or the fallback when it is absent. */
export function pageValue(raw: string | null, name: string, fallback: number): number {
  if (raw === null || raw === '') return fallback;
  if (!/^[0-9]{1,9}$/.test(raw)) throw badRequest(`${name} must be a non-negative integer`);
  return Number(raw);
}

export function jsonBody(ctx: RequestContext): Record<string, unknown> {
  const body = ctx.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('body must be a JSON object');
  return body as Record<string, unknown>;
}

export function stringValue(raw: unknown, name: string): string {
  if (typeof raw !== 'string') throw badRequest(`${name} must be a string`);
  return raw;
}
