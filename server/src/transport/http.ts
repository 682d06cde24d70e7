// HTTP on uWebSockets.js: routing, JSON bodies, cookies, CSRF and size checks, static files.
// The uWS lifecycle rules this file follows are in LIFECYCLE.md beside it.
import { STATUS_CODES } from 'node:http';
import { Readable } from 'node:stream';
import type { HttpRequest as UwsRequest, HttpResponse as UwsResponse, TemplatedApp } from 'uWebSockets.js';
import { parse as parseCookies, serialize as serializeCookie, type SerializeOptions } from 'cookie';
import type { Logger } from '../log';
import { clientAddress } from './client-address';
import { isClientRoute } from '@common/client-routes';
import { HttpError } from './errors';
import { noneMatch } from './conditional';
import { answerRange } from './range';
import { encodingHeaders, loadStatic, negotiate, type StaticFile } from './static-files';

export const MAX_BODY_BYTES = 64 * 1024;
export const SESSION_COOKIE = 'sid';

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

export interface HttpOptions {
  publicOrigin: string;
  secureCookies: boolean;
  staticDir: string;
  authenticator: SessionAuthenticator;
  log: Logger;
  /** Proxies whose X-Forwarded-For names the client (see client-address.ts). */
  trustedProxies?: readonly string[];
  /** Told of every answered route request (metrics). */
  onResponse?(method: string, route: string, status: number, seconds: number): void;
}

export function cookie(name: string, value: string, options: SerializeOptions & { secure: boolean }): string {
  return serializeCookie(name, value, { httpOnly: true, sameSite: 'lax', path: '/', ...options });
}


const SECURITY_HEADERS: Record<string, string> = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'same-origin',
  'X-Frame-Options': 'DENY',
};

const PAGE_CSP =
  "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self' ws: wss:; " +
  "media-src 'self' blob: mediastream:; worker-src 'self' blob:; frame-ancestors 'none'; base-uri 'self'; form-action 'self'";

interface RawRequest {
  method: string;
  path: string;
  query: string;
  headers: Record<string, string>;
  remoteAddress: string;
}

interface Outgoing {
  status: number;
  headers: Record<string, string>;
  setCookies: string[];
  body: string | Buffer;
  /** A streamed body of exactly `length` bytes. */
  stream?: { length: number; pieces: () => AsyncIterable<Uint8Array> };
}

/** A response's progress: `aborted` once the client left or the response was written. */
interface ResponseState {
  aborted: boolean;
  /** Told when the client goes away (a streamed body in either direction stops then). */
  onAborted?: () => void;
}

/** A route whose path has `:name` segments, matched by a regular expression. */
interface PatternRoute { method: string; regex: RegExp; names: string[]; route: Route }

function compilePattern(route: Route): PatternRoute {
  const names: string[] = [];
  const source = route.path.split('/').map((segment) => {
    if (!segment.startsWith(':')) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    names.push(segment.slice(1));
    return '([^/]+)';
  }).join('/');
  return { method: route.method, regex: new RegExp(`^${source}$`), names, route };
}


/** 304 for a static file the client holds: its validators and Vary, no body. */
function notModified(file: StaticFile, cache: Record<string, string>): Outgoing {
  const { Vary } = encodingHeaders(file, null);
  return { status: 304, headers: { ...cache, ...(Vary ? { Vary } : {}) }, setCookies: [], body: '' };
}

function json(status: number, value: unknown, headers: Record<string, string> = {}): Outgoing {
  return {
    status,
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', ...headers },
    setCookies: [],
    body: value === undefined ? '' : JSON.stringify(value),
  };
}

function errorBody(status: number, code: string, message: string, headers: Record<string, string> = {}): Outgoing {
  return json(status, { error: code, message }, headers);
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

const STATE_CHANGING = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);

export class HttpTransport {
  private readonly routes = new Map<string, Route>();
  private readonly patterns: PatternRoute[] = [];
  private readonly staticFiles: Map<string, StaticFile>;
  /** Set by stopAccepting: the listening socket is closed, but a kept-alive connection may still ask. */
  private stopping = false;

  constructor(private readonly options: HttpOptions) {
    this.staticFiles = loadStatic(options.staticDir);
    if (!this.staticFiles.has('/index.html')) {
      options.log.warn({ staticDir: options.staticDir }, 'client is not built: pages answer a plain notice (run make build)');
    }
  }

  add(routes: Route[]): this {
    for (const route of routes) {
      const key = `${route.method} ${route.path}`;
      if (this.routes.has(key)) throw new Error(`route defined twice: ${key}`);
      this.routes.set(key, route);
      if (route.path.includes('/:')) this.patterns.push(compilePattern(route));
    }
    return this;
  }

  mount(app: TemplatedApp): void {
    app.any('/*', (res, req) => this.onRequest(res, req));
  }

  /**
   * The server is stopping: a request that still arrives on a kept-alive connection is answered
   * 503 with Retry-After and the connection closed, so the client goes to another node, instead of
   * reaching a route whose database is being closed (which answered 500).
   */
  stopAccepting(): void {
    this.stopping = true;
  }

  private onRequest(res: UwsResponse, req: UwsRequest): void {
    // Everything from req must be copied now: it is invalid after this callback returns.
    const headers: Record<string, string> = {};
    req.forEach((k, v) => {
      headers[k] = v;
    });
    const raw: RawRequest = {
      method: req.getMethod().toUpperCase(),
      path: req.getUrl(),
      query: req.getQuery() ?? '',
      headers,
      remoteAddress: clientAddress(Buffer.from(res.getRemoteAddressAsText()).toString(), headers['x-forwarded-for'] ?? '', this.options.trustedProxies ?? []),
    };
    const state: ResponseState = { aborted: false };
    res.onAborted(() => {
      state.aborted = true;
      state.onAborted?.();
    });
    if (this.stopping) {
      this.send(res, state, errorBody(503, 'unavailable', 'server stopping', { 'Retry-After': '1' }), true);
      return;
    }
    const found = this.match(raw.method, raw.path);
    if (!found) {
      this.send(res, state, this.fallback(raw));
      return;
    }
    const { route, params } = found;
    if (route.streamBody) {
      this.onStreamedRequest(res, state, raw, route, params, route.streamBody.maxBytes);
      return;
    }
    const declared = Number(headers['content-length'] ?? 0);
    if (declared > MAX_BODY_BYTES) {
      this.send(res, state, errorBody(413, 'payload_too_large', `body over ${MAX_BODY_BYTES} bytes`), true);
      return;
    }
    // uWS never calls onData for a request without a body: only read when one is announced.
    const hasBody = declared > 0 || headers['transfer-encoding'] !== undefined;
    const proceed = (body: Buffer | null) => {
      if (body === null) {
        this.send(res, state, errorBody(413, 'payload_too_large', `body over ${MAX_BODY_BYTES} bytes`), true);
        return;
      }
      const started = performance.now();
      const answer = (out: Outgoing) => {
        this.options.onResponse?.(raw.method, route.path, out.status, (performance.now() - started) / 1000);
        this.send(res, state, out);
      };
      this.dispatch(route, raw, body, params, null).then(answer, (err) => {
        this.options.log.error({ err, path: raw.path }, 'route failed');
        answer(errorBody(500, 'internal', 'internal error'));
      });
    };
    if (hasBody) this.readBody(res, state, proceed);
    else proceed(Buffer.alloc(0));
  }

  private match(method: string, path: string): { route: Route; params: Record<string, string> } | null {
    const exact = this.routes.get(`${method} ${path}`);
    if (exact) return { route: exact, params: {} };
    for (const p of this.patterns) {
      if (p.method !== method) continue;
      const m = p.regex.exec(path);
      if (m) return { route: p.route, params: Object.fromEntries(p.names.map((n, i) => [n, decodeURIComponent(m[i + 1])])) };
    }
    return null;
  }

  /**
   * A route that reads its body as a stream: chunks are pushed into a Readable as uWS hands
   * them over, and the socket is paused while the reader is behind (backpressure), so at most
   * a few chunks are held whatever the body's size. Past maxBytes the stream fails and 413
   * goes out with the connection closed, without waiting for the rest of the body.
   */
  private onStreamedRequest(res: UwsResponse, state: ResponseState, raw: RawRequest, route: Route, params: Record<string, string>, maxBytes: number): void {
    const tooLarge = () => errorBody(413, 'payload_too_large', `body over ${maxBytes} bytes`);
    const declared = Number(raw.headers['content-length'] ?? 0);
    if (declared > maxBytes) {
      this.send(res, state, tooLarge(), true);
      return;
    }
    let paused = false;
    let ended = false;
    const body = new Readable({
      highWaterMark: 256 * 1024,
      read: () => {
        if (paused && !state.aborted) {
          paused = false;
          res.resume();
        }
      },
    });
    state.onAborted = () => body.destroy(new Error('client went away'));
    let size = 0;
    const hasBody = declared > 0 || raw.headers['transfer-encoding'] !== undefined;
    if (!hasBody) {
      ended = true;
      body.push(null);
    } else {
      res.onData((chunk, isLast) => {
        if (state.aborted || body.destroyed) return;
        size += chunk.byteLength;
        if (size > maxBytes) {
          body.destroy(new Error('body too large'));
          this.send(res, state, tooLarge(), true);
          return;
        }
        // The chunk's memory is reused by uWS after this callback: copy it.
        if (!body.push(Buffer.from(new Uint8Array(chunk))) && !isLast) {
          paused = true;
          res.pause();
        }
        if (isLast) {
          ended = true;
          body.push(null);
        }
      });
    }
    const started = performance.now();
    this.dispatch(route, raw, Buffer.alloc(0), params, body).then(
      (out) => {
        this.options.onResponse?.(raw.method, route.path, out.status, (performance.now() - started) / 1000);
        // Answered before the whole body came (refused): the rest is not read, the connection ends.
        this.send(res, state, out, !ended);
        if (!body.destroyed) body.destroy();
      },
      (err) => {
        if (!state.aborted) this.options.log.error({ err, path: raw.path }, 'route failed');
        this.send(res, state, errorBody(500, 'internal', 'internal error'), !ended);
        if (!body.destroyed) body.destroy();
      },
    );
  }

  /** Collects the body up to the limit; null when it grows past it. */
  private readBody(res: UwsResponse, state: ResponseState, done: (body: Buffer | null) => void): void {
    const chunks: Buffer[] = [];
    let size = 0;
    let overflow = false;
    res.onData((chunk, isLast) => {
      if (state.aborted || overflow) return;
      size += chunk.byteLength;
      if (size > MAX_BODY_BYTES) {
        overflow = true;
        done(null);
        return;
      }
      // The chunk's memory is reused by uWS after this callback: copy it.
      chunks.push(Buffer.from(new Uint8Array(chunk)));
      if (isLast) done(Buffer.concat(chunks));
    });
  }

  private async dispatch(route: Route, raw: RawRequest, body: Buffer, params: Record<string, string>, bodyStream: Readable | null): Promise<Outgoing> {
    try {
      if (STATE_CHANGING.has(raw.method)) {
        const origin = raw.headers.origin;
        if (origin !== undefined && origin !== this.options.publicOrigin) {
          return errorBody(403, 'forbidden_origin', 'cross-origin request refused');
        }
      }
      let parsed: unknown = undefined;
      if (body.length > 0) {
        const type = (raw.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
        if (type !== 'application/json') return errorBody(415, 'unsupported_media_type', 'body must be application/json');
        try {
          parsed = JSON.parse(body.toString('utf8'));
        } catch {
          return errorBody(400, 'malformed_json', 'body is not valid JSON');
        }
      }
      const cookies = parseCookies(raw.headers.cookie ?? '');
      let user: Principal | null = null;
      const token = cookies[SESSION_COOKIE];
      if (token) user = await this.options.authenticator.authenticate(token);
      if (!route.public && !user) return errorBody(401, 'unauthorized', 'login required');
      const reply = await route.handle({
        method: raw.method as Method,
        path: raw.path,
        query: new URLSearchParams(raw.query),
        headers: raw.headers,
        cookies,
        body: parsed,
        bodyStream,
        params,
        remoteAddress: raw.remoteAddress,
        user,
      });
      return this.toOutgoing(reply, raw.headers);
    } catch (err) {
      if (err instanceof HttpError) return errorBody(err.status, err.code, err.message, err.headers);
      throw err;
    }
  }

  private toOutgoing(reply: Reply, requestHeaders: Record<string, string>): Outgoing {
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
    const out = json(reply.status ?? 200, reply.json ?? {}, reply.headers);
    out.setCookies = reply.setCookies ?? [];
    return out;
  }

  private fallback(raw: RawRequest): Outgoing {
    if (raw.path.startsWith('/api/') || raw.path === '/api') {
      const known = [...this.routes.values()].some((r) => r.path === raw.path) || this.patterns.some((p) => p.regex.test(raw.path));
      return known ? errorBody(405, 'method_not_allowed', 'method not allowed') : errorBody(404, 'not_found', 'no such API');
    }
    if (raw.method !== 'GET' && raw.method !== 'HEAD') return errorBody(405, 'method_not_allowed', 'method not allowed');
    const file = this.staticFiles.get(raw.path);
    const acceptEncoding = raw.headers['accept-encoding'];
    if (file && raw.path !== '/index.html') {
      const cache = { 'Cache-Control': file.immutable ? 'public, max-age=31536000, immutable' : 'no-cache', ETag: file.etag };
      if (noneMatch(raw.headers['if-none-match'], file.etag)) return notModified(file, cache);
      const { body, encoding } = negotiate(file, acceptEncoding);
      return { status: 200, headers: { 'Content-Type': file.type, ...cache, ...encodingHeaders(file, encoding) }, setCookies: [], body };
    }
    // Every page answers index.html, and the client shows the screen; an address that is no
    // client route gets the same page (the client's 404 screen) with the status 404.
    const index = this.staticFiles.get('/index.html');
    const status = isClientRoute(raw.path) ? 200 : 404;
    if (!index) {
      return { status: 503, headers: { 'Content-Type': 'text/plain; charset=utf-8' }, setCookies: [], body: 'The client is not built. Run: make build\n' };
    }
    // The page is revalidated on every visit (no-cache): usually answered with 304 and no body.
    const cache = { 'Cache-Control': 'no-cache', ETag: index.etag };
    if (status === 200 && noneMatch(raw.headers['if-none-match'], index.etag)) return notModified(index, cache);
    const { body, encoding } = negotiate(index, acceptEncoding);
    return {
      status,
      headers: { 'Content-Type': index.type, ...cache, 'Content-Security-Policy': PAGE_CSP, ...encodingHeaders(index, encoding) },
      setCookies: [],
      body,
    };
  }

  private send(res: UwsResponse, state: ResponseState, out: Outgoing, close = false): void {
    if (state.aborted) return;
    const writeHead = () => {
      res.writeStatus(`${out.status} ${STATUS_CODES[out.status] ?? 'Status'}`);
      for (const [k, v] of Object.entries(SECURITY_HEADERS)) res.writeHeader(k, v);
      for (const [k, v] of Object.entries(out.headers)) res.writeHeader(k, v);
      for (const c of out.setCookies) res.writeHeader('Set-Cookie', c);
    };
    if (out.stream) {
      this.sendStream(res, state, writeHead, out.stream);
      return;
    }
    state.aborted = true; // a response is written once
    res.cork(() => {
      writeHead();
      if (close) res.end(out.body, true);
      else res.end(out.body);
    });
  }

  /**
   * Writes a streamed body of a known length (Content-Length, written by uWS's tryEnd) piece by
   * piece: each piece is offered to the socket, and what it did not take is offered again from
   * the writable handler until it is taken, before the source is asked for the next. A slow
   * reader holds one piece, not the file. `state.aborted` is set by onAborted (client gone) and
   * stops the loop; a source that fails or ends short of the length closes the connection (the
   * client sees a cut body).
   *
   * One writable handler for the whole response: uWS puts back the handler it called after the
   * call returns, and promise callbacks run inside that call, so a handler registered there
   * (for the next piece) would be replaced by the previous one.
   */
  private sendStream(res: UwsResponse, state: ResponseState, writeHead: () => void, body: NonNullable<Outgoing['stream']>): void {
    res.cork(writeHead);
    if (body.length === 0) {
      state.aborted = true;
      res.cork(() => res.end());
      return;
    }
    /** The piece the socket did not take all of: its first byte's offset in the body, and who waits for it. */
    let waiting: { piece: Uint8Array; pieceOffset: number; taken(done: boolean): void } | null = null;
    res.onWritable((offset) => {
      if (!waiting) return true;
      const w = waiting;
      const [ok, done] = res.tryEnd(w.piece.subarray(offset - w.pieceOffset), body.length);
      if (ok) {
        waiting = null;
        w.taken(done);
      }
      return ok;
    });
    void (async () => {
      try {
        for await (const piece of body.pieces()) {
          if (state.aborted) return;
          const pieceOffset = res.getWriteOffset();
          let result: [boolean, boolean] = [false, false];
          res.cork(() => {
            result = res.tryEnd(piece, body.length);
          });
          let done = result[1];
          if (!result[0]) {
            // Resolved once the rest is taken, or by the client going away (which never drains).
            done = await new Promise<boolean>((resolve) => {
              state.onAborted = () => resolve(false);
              waiting = { piece, pieceOffset, taken: resolve };
            });
          }
          if (done) {
            state.aborted = true; // the whole length is written: the response is over
            return;
          }
        }
        if (!state.aborted) throw new Error('the stored body ended before its length');
      } catch (err) {
        this.options.log.error({ err }, 'streaming a response failed');
        if (!state.aborted) {
          state.aborted = true;
          res.cork(() => res.close());
        }
      }
    })();
  }
}
