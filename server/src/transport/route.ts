// What a REST route is: the contract features plug into the HTTP transport (http.ts). Routes see
// plain values copied out of uWS, never a uWS object, and answer with a Reply.
import type { Readable } from 'node:stream';
import { HttpError } from './errors';

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT';

/** Who is calling, established from the session cookie only. */
export interface Principal {
  userId: number;
  sessionId: string;
}

export interface SessionAuthenticator {
  authenticate(token: string): Promise<Principal | null>;
}

export interface RequestContext {
  method: Method;
  path: string;
  query: URLSearchParams;
  headers: Record<string, string>;
  cookies: Record<string, string | undefined>;
  body: unknown;
  /** A streamed route's raw body (Route.streamBody); null on every other route. */
  bodyStream: Readable | null;
  /** The `:name` segments of a route's path. */
  params: Record<string, string>;
  remoteAddress: string;
  /** Set on every route that is not public. */
  user: Principal | null;
}

export interface Reply {
  status?: number;
  json?: unknown;
  /** A body that is not JSON (the metrics' text format). */
  text?: { contentType: string; body: string };
  headers?: Record<string, string>;
  setCookies?: string[];
  /** 302 to this location. */
  redirect?: string;
  /**
   * A body streamed from storage (downloads), written piece by piece as the socket drains, with
   * its Content-Length. A GET with one byte range gets that part (206, Content-Range), a range
   * past the end 416; every answer says Accept-Ranges: bytes.
   */
  stream?: StreamedBody;
}

export interface StreamedBody {
  contentType: string;
  /** The whole body's length in bytes. */
  size: number;
  /** A strong validator of these exact bytes, sent as ETag and matched against If-Range. */
  etag?: string;
  /** Bytes `start` to `end` (inclusive) of the body, in pieces; read only once the answer is decided. */
  read(start: number, end: number): AsyncIterable<Uint8Array>;
}

export interface Route {
  method: Method;
  path: string;
  /** Public routes run without a session (login, sign-up, verification, OAuth, health). */
  public?: boolean;
  /**
   * The body is not parsed: it reaches the handler as a stream (ctx.bodyStream) read as it
   * arrives, never gathered in memory. More than maxBytes (declared or counted) answers 413 at
   * once and closes the connection, while the client may still be sending.
   */
  streamBody?: { maxBytes: number };
  handle(ctx: RequestContext): Promise<Reply> | Reply;
}

/** The signed-in user of a non-public route. */
export function userOf(ctx: RequestContext): Principal {
  if (!ctx.user) throw new HttpError(401, 'unauthorized', 'login required');
  return ctx.user;
}
