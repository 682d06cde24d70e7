// What goes back, before it is written: a route's Reply turned into status, headers and body
// (JSON, text, a redirect, or a streamed body with its conditional and range answers), and the
// JSON error bodies the transport answers with itself.
import { noneMatch } from './conditional';
import { answerRange } from './range';
import type { Reply, StreamedBody } from './route';

export interface Outgoing {
  status: number;
  headers: Record<string, string>;
  setCookies: string[];
  body: string | Buffer;
  /** A streamed body of exactly `length` bytes. */
  stream?: { length: number; pieces: () => AsyncIterable<Uint8Array> };
}

export function json(status: number, value: unknown, headers: Record<string, string> = {}): Outgoing {
  return {
    status,
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', ...headers },
    setCookies: [],
    body: value === undefined ? '' : JSON.stringify(value),
  };
}

export function errorBody(status: number, code: string, message: string, headers: Record<string, string> = {}): Outgoing {
  return json(status, { error: code, message }, headers);
}

export function toOutgoing(reply: Reply, requestHeaders: Record<string, string>): Outgoing {
  if (reply.redirect) {
    return { status: 302, headers: { Location: reply.redirect, 'Cache-Control': 'no-store', ...reply.headers }, setCookies: reply.setCookies ?? [], body: '' };
  }
  if (reply.stream) return streamed(reply, reply.stream, requestHeaders);
  if (reply.text) {
    return {
      status: reply.status ?? 200,
      headers: { 'Content-Type': reply.text.contentType, 'Cache-Control': 'no-store', ...reply.headers },
      setCookies: reply.setCookies ?? [],
      body: reply.text.body,
    };
  }
  // No Content has no body (and no body type).
  if (reply.status === 204) return { status: 204, headers: { 'Cache-Control': 'no-store', ...reply.headers }, setCookies: reply.setCookies ?? [], body: '' };
  const out = json(reply.status ?? 200, reply.json ?? {}, reply.headers);
  out.setCookies = reply.setCookies ?? [];
  return out;
}

/** A streamed reply as sent: the whole body, or the one range the request asked for. */
function streamed(reply: Reply, body: StreamedBody, requestHeaders: Record<string, string>): Outgoing {
  const headers: Record<string, string> = { 'Content-Type': body.contentType, 'Accept-Ranges': 'bytes', ...(body.etag ? { ETag: body.etag } : {}), ...reply.headers };
  const status = reply.status ?? 200;
  // The client's copy is this very body: no need to send it again (If-None-Match wins over Range).
  if (status === 200 && noneMatch(requestHeaders['if-none-match'], body.etag)) {
    const { 'Content-Type': _type, 'Accept-Ranges': _ranges, ...kept } = headers;
    return { status: 304, headers: kept, setCookies: reply.setCookies ?? [], body: '' };
  }
  const answer = status === 200 ? answerRange(requestHeaders.range, requestHeaders['if-range'], body.size, body.etag) : { kind: 'whole' as const };
  if (answer.kind === 'unsatisfiable') {
    return errorBody(416, 'range_not_satisfiable', 'the range is past the end', { 'Accept-Ranges': 'bytes', 'Content-Range': `bytes */${body.size}` });
  }
  const [start, end] = answer.kind === 'part' ? [answer.start, answer.end] : [0, body.size - 1];
  if (answer.kind === 'part') headers['Content-Range'] = `bytes ${start}-${end}/${body.size}`;
  return {
    status: answer.kind === 'part' ? 206 : status,
    headers,
    setCookies: reply.setCookies ?? [],
    body: '',
    stream: { length: end - start + 1, pieces: () => body.read(start, end) },
  };
}
