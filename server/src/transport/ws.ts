// The WebSocket endpoint on uWebSockets.js: the authenticated upgrade, then bytes in and out of
// the STOMP sessions. Lifecycle rules followed here are in LIFECYCLE.md beside this file.
import type { HttpRequest, HttpResponse, TemplatedApp, us_socket_context_t, WebSocket, WebSocketBehavior } from 'uWebSockets.js';
import { WEBSOCKET_PATH } from '@common/destinations';
import type { Logger } from '../log';
import type { Broker } from '../stomp/broker';
import { intern } from '../stomp/intern';
import { CLOSE, StompSession } from '../stomp/session';
import { UWS_MAX_BACKPRESSURE } from '../stomp/slow-consumer';
import { clientAddress } from './client-address';
import { requestCookies, SESSION_COOKIE } from './cookies';
import type { SessionAuthenticator } from './route';

/** Subprotocols in order of preference; a client offering several gets exactly one back. */
export const STOMP_SUBPROTOCOLS = ['v12.stomp', 'v11.stomp', 'v10.stomp'];

/**
 * The largest WebSocket message a client may send (docs/protocol.md, Limits), well above the
 * STOMP frame limit (64 KiB), which the parser enforces with an ERROR frame.
 */
export const MAX_MESSAGE_BYTES = 1024 * 1024;
/**
 * uWS closes a socket without a word (1006) when a message exceeds its maxPayloadLength, before
 * our code sees it. So uWS takes up to twice our limit and we answer a message between the two
 * with an ERROR frame; only beyond this does the silent close remain. uWS buffers at most this
 * much of a message per socket (docs/architecture.md §3a).
 */
export const UWS_MAX_PAYLOAD_BYTES = 2 * MAX_MESSAGE_BYTES;
/** Seconds; with automatic pings a live client that negotiated no heart-beats is never cut. */
const IDLE_TIMEOUT_SECONDS = 120;

export interface WebSocketOptions {
  publicOrigin: string;
  authenticator: SessionAuthenticator;
  broker: Broker;
  log: Logger;
  /** Proxies whose X-Forwarded-For names the client (see client-address.ts). */
  trustedProxies?: readonly string[];
}

/** uWS copies the upgrade's user data into its own plain object, so the session rides inside one. */
interface SocketData {
  session: StompSession;
}

export function chooseSubprotocol(header: string): string {
  const offered = header.split(',').map((p) => p.trim()).filter(Boolean);
  return STOMP_SUBPROTOCOLS.find((p) => offered.includes(p)) ?? '';
}

const STATUS: Record<number, string> = { 401: '401 Unauthorized', 403: '403 Forbidden', 500: '500 Internal Server Error' };

function refuse(res: HttpResponse, status: 401 | 403 | 500, code: string, message: string): void {
  res.cork(() => {
    res
      .writeStatus(STATUS[status])
      .writeHeader('Content-Type', 'application/json; charset=utf-8')
      .writeHeader('Cache-Control', 'no-store')
      .end(JSON.stringify({ error: code, message }));
  });
}

export function mountWebSocket(app: TemplatedApp, options: WebSocketOptions): void {
  const { broker, log } = options;
  const upgrade = (res: HttpResponse, req: HttpRequest, context: us_socket_context_t): void => {
    // Everything from req must be copied now: it is invalid after this callback returns.
    const key = req.getHeader('sec-websocket-key');
    const protocol = chooseSubprotocol(req.getHeader('sec-websocket-protocol'));
    const extensions = req.getHeader('sec-websocket-extensions');
    const origin = req.getHeader('origin');
    const token = requestCookies(req.getHeader('cookie'))[SESSION_COOKIE];
    // Shared copy: sockets from one address (a proxy, a NAT, a load test) hold one string between them.
    const peer = Buffer.from(res.getRemoteAddressAsText()).toString();
    const remoteAddress = intern(clientAddress(peer, req.getHeader('x-forwarded-for'), options.trustedProxies ?? []));
    let aborted = false;
    res.onAborted(() => {
      aborted = true;
    });
    // Browsers always send Origin on a WebSocket upgrade; other clients may omit it.
    if (origin !== '' && origin !== options.publicOrigin) {
      refuse(res, 403, 'forbidden_origin', 'cross-origin WebSocket refused');
      return;
    }
    // No cookie is an empty token: the authenticator refuses it (the product's without a query).
    options.authenticator
      .authenticate(token ?? '')
      .then(
        (principal) => {
          if (aborted) return;
          if (!principal) {
            refuse(res, 401, 'unauthorized', 'login required');
            return;
          }
          const session = new StompSession(
            broker,
            { userId: principal.userId, authSessionId: principal.sessionId, connectionId: broker.newConnectionId() },
            remoteAddress,
            token ?? '',
          );
          res.cork(() => res.upgrade<SocketData>({ session }, key, protocol, extensions, context));
        },
        (err: unknown) => {
          log.error({ err }, 'WebSocket upgrade: session check failed');
          if (!aborted) refuse(res, 500, 'internal', 'internal error');
        },
      )
      // A late write to an aborted response throws: logged, never an unhandled rejection.
      .catch((err: unknown) => log.error({ err }, 'WebSocket upgrade failed'));
  };

  /**
   * A logout that ran between the upgrade's session check and `open` found no socket to close
   * (closeAuthSession only knows registered ones), so the login session is checked once more
   * after registering. The same close as a logout; the 5-minute re-check remains the backstop.
   */
  const recheckAtOpen = async (session: StompSession): Promise<void> => {
    try {
      const principal = await options.authenticator.authenticate(session.token);
      // session.socket is null once the socket closed while we waited: nothing to end then.
      if (principal?.sessionId !== session.principal.authSessionId && session.socket) {
        broker.closeAuthSession(session.principal.authSessionId);
      }
    } catch (err) {
      log.warn({ err, connection: session.principal.connectionId }, 'could not re-check the login session of a new WebSocket');
    }
  };

  const behavior: WebSocketBehavior<SocketData> = {
    maxPayloadLength: UWS_MAX_PAYLOAD_BYTES,
    maxBackpressure: UWS_MAX_BACKPRESSURE,
    closeOnBackpressureLimit: 1,
    idleTimeout: IDLE_TIMEOUT_SECONDS,
    sendPingsAutomatically: true,

    upgrade(res, req, context) {
      try {
        upgrade(res, req, context);
      } catch (err) {
        log.error({ err }, 'WebSocket upgrade failed');
        refuse(res, 500, 'internal', 'internal error');
      }
    },

    open(ws) {
      const { session } = ws.getUserData();
      try {
        session.opened(ws);
        broker.opened(session);
      } catch (err) {
        log.error({ err }, 'WebSocket open failed');
        ws.end(1011, 'internal error');
        return;
      }
      void recheckAtOpen(session);
    },

    message(ws, message) {
      const { session } = ws.getUserData();
      try {
        if (message.byteLength > MAX_MESSAGE_BYTES) {
          session.fail(`a WebSocket message over ${MAX_MESSAGE_BYTES} bytes`, { code: CLOSE.tooBig });
          return;
        }
        // Parsed synchronously: the ArrayBuffer is only valid during this callback.
        session.receive(new Uint8Array(message));
      } catch (err) {
        log.error({ err, connection: session.principal.connectionId }, 'STOMP input failed');
        try {
          session.fail('internal server error', { code: 1011 });
        } catch {
          ws.close();
        }
      }
    },

    close(ws: WebSocket<SocketData>, code: number, message: ArrayBuffer) {
      const { session } = ws.getUserData();
      // Every close this server makes before CONNECT sends a close frame (an ERROR first), so
      // 1006 here means the TCP connection ended under us, or uWS closed a socket it had just
      // upgraded (its cork-after-async-upgrade bug, LIFECYCLE.md): said, for a client that reports it.
      if (session.state === 'new' && code === 1006) {
        log.warn({ connection: session.principal.connectionId, userId: session.principal.userId, reason: Buffer.from(message).toString() }, 'WebSocket closed without a close frame before CONNECT');
      }
      try {
        broker.closed(session);
      } catch (err) {
        log.error({ err }, 'WebSocket close handling failed');
      }
    },
  };
  app.ws<SocketData>(WEBSOCKET_PATH, behavior);
}
