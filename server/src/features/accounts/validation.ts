// Decoding of JSON request bodies: every field is checked before a service sees it.
import { badRequest } from '../../transport/errors';

export function objectBody(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('a JSON object body is required');
  return body as Record<string, unknown>;
}

export function stringField(body: Record<string, unknown>, key: string, maxLength: number): string {
  const value = body[key];
  if (typeof value !== 'string') throw badRequest(`${key} must be a string`);
  if (value.length > maxLength) throw badRequest(`${key} is longer than ${maxLength} characters`);
  return value;
}
