// A STOMP 1.2 client over the server's WebSocket endpoint, authenticated by the session cookie
// on the upgrade request like a browser's. Built on @stomp/stompjs with `ws` as the socket.
import { Client, Versions } from '@stomp/stompjs';
import WebSocket from 'ws';
import { WEBSOCKET_PATH } from '@common/destinations';

export interface StompConnectOptions {
  /** Heart-beat interval each way in milliseconds (docs/spec.md §9: 10000); 0 turns it off. */
  heartbeatMs?: number;
  /** How long to wait for CONNECTED, per socket opened. */
  connectTimeoutMs?: number;
  /** Sent as the upgrade's Origin header, for servers that require one. */
  origin?: string;
  /** See DROPPED_BEFORE_CONNECTED; 0 turns reconnecting off. */
  reconnectsBeforeConnected?: number;
  /** Told of each socket that dropped before CONNECTED and was opened again, for the report. */
  onReconnect?: (reason: string) => void;
}

/**
 * A socket that closes before CONNECTED with no close frame (1006) and no STOMP ERROR ended
 * under the handshake; the browser client opens it again, and so do the harness's clients, up
 * to this many times, waiting RECONNECT_BACKOFF_MS, then twice that, and so on. Nothing is sent
 * before CONNECTED, so nothing can be lost by it, and every such reconnect is counted and
 * reported. A refusal (an ERROR frame, an HTTP status, a close frame) is never retried, and
 * nothing is retried once CONNECTED arrived: a drop then is a fact the harness reports.
 */
export const RECONNECTS_BEFORE_CONNECTED = 3;
export const RECONNECT_BACKOFF_MS = 250;

/** The socket dropped before CONNECTED (see RECONNECTS_BEFORE_CONNECTED). */
export class DroppedBeforeConnected extends Error {}

/** Runs `attempt` again after a drop before CONNECTED, with the back-off, up to `allowed` times. */
export async function withReconnects<T>(attempt: () => Promise<T>, allowed: number, onReconnect: (reason: string) => void): Promise<T> {
  for (let tries = 0; ; tries++) {
    try {
      return await attempt();
    } catch (err) {
      if (!(err instanceof DroppedBeforeConnected) || tries >= allowed) throw err;
      onReconnect(err.message);
      await new Promise((resolve) => setTimeout(resolve, RECONNECT_BACKOFF_MS * 2 ** tries));
    }
  }
}

/** ws://host/websocket for http://host, wss:// for https://. */
export function webSocketUrl(baseUrl: string): string {
  const url = new URL(WEBSOCKET_PATH, baseUrl);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.toString();
}

/**
 * Resolves with a connected client. Once connected it never reconnects: a harness must see a
 * drop as a fact, not paper over it. After connecting, set the client's onStompError /
 * onWebSocketClose to hear about failures.
 */
export function connect(baseUrl: string, cookie: string, options: StompConnectOptions = {}): Promise<Client> {
  return withReconnects(() => connectOnce(baseUrl, cookie, options), options.reconnectsBeforeConnected ?? RECONNECTS_BEFORE_CONNECTED, (reason) =>
    options.onReconnect?.(reason),
  );
}

function connectOnce(baseUrl: string, cookie: string, options: StompConnectOptions): Promise<Client> {
  const heartbeat = options.heartbeatMs ?? 10_000;
  const timeoutMs = options.connectTimeoutMs ?? 10_000;
  const headers: Record<string, string> = { cookie };
  if (options.origin) headers.origin = options.origin;
  const url = webSocketUrl(baseUrl);
  return new Promise((resolve, reject) => {
    // Whether the upgrade completed, and how the TCP connection ended if it did.
    let opened = false;
    let socketEnd = '';
    const client = new Client({
      webSocketFactory: () => {
        const ws = new WebSocket(url, Versions.default.protocolVersions(), { headers });
        ws.on('upgrade', (res) => {
          const port = res.socket.localPort;
          res.socket.once('end', () => (socketEnd ||= `the server ended the TCP connection (local port ${port})`));
          res.socket.once('error', (err: NodeJS.ErrnoException) => (socketEnd ||= `socket ${err.syscall ?? ''} ${err.code ?? err.message}`));
        });
        ws.once('open', () => (opened = true));
        return ws;
      },
      reconnectDelay: 0,
      heartbeatIncoming: heartbeat,
      heartbeatOutgoing: heartbeat,
      debug: () => {},
    });
    let settled = false;
    const fail = (reason: string, dropped = false) => {
      clearTimeout(timer);
      if (settled) return;
      settled = true;
      void client.deactivate({ force: true });
      const message = `STOMP connection to ${url} failed: ${reason}`;
      reject(dropped ? new DroppedBeforeConnected(message) : new Error(message));
    };
    const timer = setTimeout(() => fail(`no CONNECTED within ${timeoutMs} ms`), timeoutMs);
    client.onConnect = () => {
      clearTimeout(timer);
      settled = true;
      client.onStompError = () => {};
      client.onWebSocketClose = () => {};
      resolve(client);
    };
    client.onStompError = (frame) => fail(`ERROR ${frame.headers.message ?? ''} ${frame.body}`.trim());
    client.onWebSocketClose = (event) => {
      const code = (event as { code?: number }).code;
      fail(`socket closed (${code ?? '?'}${socketEnd ? `: ${socketEnd}` : ''}) before CONNECTED`, opened && code === 1006);
    };
    client.activate();
  });
}
