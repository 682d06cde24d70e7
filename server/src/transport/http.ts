// HTTP on uWebSockets.js: each request copied out of uWS, matched to a route (router.ts), its
// body read (request-body.ts), checked (origin.ts, the session cookie of cookies.ts), handled,
// and answered (response.ts, response-writer.ts); what no route takes is the built client
// (static-site.ts). The uWS lifecycle rules these files follow are in LIFECYCLE.md beside them.
import type { Readable } from 'node:stream';
import type { HttpRequest as UwsRequest, HttpResponse as UwsResponse, TemplatedApp } from 'uWebSockets.js';
import type { Logger } from '../log';
import { clientAddress } from './client-address';
import { requestCookies, SESSION_COOKIE } from './cookies';
import { HttpError } from './errors';
import { crossOriginWrite } from './origin';
import { announcedBody, MAX_BODY_BYTES, parseJsonBody, readBody, streamBody } from './request-body';
import { errorBody, toOutgoing, type Outgoing } from './response';
import { send, trackResponse, type ResponseState } from './response-writer';
import type { Method, Principal, Route, SessionAuthenticator } from './route';
import { RouteTable } from './router';
import { StaticSite } from './static-site';

export interface HttpOptions {
  publicOrigin: string;
  staticDir: string;
  authenticator: SessionAuthenticator;
  log: Logger;
  /** Proxies whose X-Forwarded-For names the client (see client-address.ts). */
  trustedProxies?: readonly string[];
  /** Told of every answered route request (metrics). */
  onResponse?(method: string, route: string, status: number, seconds: number): void;
}

/** A request's parts, copied out of uWS before the handler returns. */
interface RawRequest {
  method: string;
  path: string;
  query: string;
  headers: Record<string, string>;
  remoteAddress: string;
}

export class HttpTransport {
  private readonly routes = new RouteTable();
  private readonly site: StaticSite;
  /** Set by stopAccepting: the listening socket is closed, but a kept-alive connection may still ask. */
  private stopping = false;

  constructor(private readonly options: HttpOptions) {
    this.site = new StaticSite(options.staticDir, options.log);
  }

  add(routes: Route[]): void {
    this.routes.add(routes);
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

  private send(res: UwsResponse, state: ResponseState, out: Outgoing, close = false): void {
    send(res, state, out, this.options.log, close);
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
    const state = trackResponse(res);
    if (this.stopping) {
      this.send(res, state, errorBody(503, 'unavailable', 'server stopping', { 'Retry-After': '1' }), true);
      return;
    }
    const found = this.routes.match(raw.method, raw.path);
    if (!found) {
      this.send(res, state, this.fallback(raw));
      return;
    }
    const { route, params } = found;
    if (route.streamBody) {
      this.onStreamedRequest(res, state, raw, route, params, route.streamBody.maxBytes);
      return;
    }
    const { declared, hasBody } = announcedBody(headers);
    const tooLarge = () => errorBody(413, 'payload_too_large', `body over ${MAX_BODY_BYTES} bytes`);
    if (declared > MAX_BODY_BYTES) {
      this.send(res, state, tooLarge(), true);
      return;
    }
    const proceed = (body: Buffer | null) => {
      if (body === null) {
        this.send(res, state, tooLarge(), true);
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
    if (hasBody) readBody(res, state, proceed);
    else proceed(Buffer.alloc(0));
  }

  /**
   * A route that reads its body as a stream (request-body.ts). Past maxBytes, declared or
   * counted, 413 goes out with the connection closed; a route that answers before the whole
   * body came (refused) closes the connection too, the rest unread.
   */
  private onStreamedRequest(res: UwsResponse, state: ResponseState, raw: RawRequest, route: Route, params: Record<string, string>, maxBytes: number): void {
    const tooLarge = () => errorBody(413, 'payload_too_large', `body over ${maxBytes} bytes`);
    const { declared, hasBody } = announcedBody(raw.headers);
    if (declared > maxBytes) {
      this.send(res, state, tooLarge(), true);
      return;
    }
    const { body, ended } = streamBody(res, state, hasBody, maxBytes, () => this.send(res, state, tooLarge(), true));
    const started = performance.now();
    this.dispatch(route, raw, Buffer.alloc(0), params, body).then(
      (out) => {
        this.options.onResponse?.(raw.method, route.path, out.status, (performance.now() - started) / 1000);
        this.send(res, state, out, !ended());
        if (!body.destroyed) body.destroy();
      },
      (err) => {
        if (!state.aborted) this.options.log.error({ err, path: raw.path }, 'route failed');
        this.send(res, state, errorBody(500, 'internal', 'internal error'), !ended());
        if (!body.destroyed) body.destroy();
      },
    );
  }

  private async dispatch(route: Route, raw: RawRequest, body: Buffer, params: Record<string, string>, bodyStream: Readable | null): Promise<Outgoing> {
    try {
      if (crossOriginWrite(raw.method, raw.headers.origin, this.options.publicOrigin)) {
        return errorBody(403, 'forbidden_origin', 'cross-origin request refused');
      }
      const parsed = parseJsonBody(body, raw.headers['content-type']);
      const cookies = requestCookies(raw.headers.cookie);
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
      return toOutgoing(reply, raw.headers);
    } catch (err) {
      if (err instanceof HttpError) return errorBody(err.status, err.code, err.message, err.headers);
      throw err;
    }
  }

  /** No route matched: an unknown API path (404, or 405 for a known path), else the built client. */
  private fallback(raw: RawRequest): Outgoing {
    if (raw.path.startsWith('/api/') || raw.path === '/api') {
      return this.routes.hasPath(raw.path) ? errorBody(405, 'method_not_allowed', 'method not allowed') : errorBody(404, 'not_found', 'no such API');
    }
    if (raw.method !== 'GET' && raw.method !== 'HEAD') return errorBody(405, 'method_not_allowed', 'method not allowed');
    return this.site.answer(raw.path, raw.headers);
  }
}
