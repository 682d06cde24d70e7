// Reading a REST request's fields: JSON bodies, query strings, ids. Every field is checked
// before a service sees it; a malformed one answers 400 through InvalidError. Ids may come as
// numbers or numeric strings (query strings are always strings).
import { toPositiveId } from '@common/rules';
import { InvalidError } from './errors';

export type JsonObject = Record<string, unknown>;

export function objectBody(body: unknown): JsonObject {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new InvalidError('body must be a JSON object');
  return body as JsonObject;
}

export function stringField(raw: unknown, name: string, maxLength = Infinity): string {
  if (typeof raw !== 'string') throw new InvalidError(`${name} must be a string`);
  if (raw.length > maxLength) throw new InvalidError(`${name} is longer than ${maxLength} characters`);
  return raw;
}

export function idField(raw: unknown, name: string): number {
  const n = toPositiveId(raw);
  if (n === null) throw new InvalidError(`${name} must be a positive integer`);
  return n;
}

/** A non-negative integer query parameter, or the fallback when it is absent. */
export function pageField(raw: string | null, name: string, fallback: number): number {
  if (raw === null || raw === '') return fallback;
  if (!/^[0-9]{1,9}$/.test(raw)) throw new InvalidError(`${name} must be a non-negative integer`);
  return Number(raw);
}
