// A STOMP 1.2 client over the server's WebSocket endpoint, authenticated by the session cookie
// on the upgrade request like a browser's. Built on @stomp/stompjs with `ws` as the socket.
import { Client, Versions } from '@stomp/stompjs';
import WebSocket from 'ws';
import { WEBSOCKET_PATH } from '../../../common/destinations';

export interface StompConnectOptions {
  /** Heart-beat interval each way in milliseconds (SPEC.md §9: 10000); 0 turns it off. */
  heartbeatMs?: number;
  /** How long to wait for CONNECTED. */
  connectTimeoutMs?: number;
  /** Sent as the upgrade's Origin header, for servers that require one. */
  origin?: string;
}

/** ws://host/websocket for http://host, wss:// for https://. */
export function webSocketUrl(baseUrl: string): string {
  const url = new URL(WEBSOCKET_PATH, baseUrl);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.toString();
}

/**
 * Resolves with a connected client. It never reconnects: a harness must see a drop as a fact,
 * not paper over it. After connecting, set the client's onStompError / onWebSocketClose to
 * hear about failures.
 */
export function connect(baseUrl: string, cookie: string, options: StompConnectOptions = {}): Promise<Client> {
  const heartbeat = options.heartbeatMs ?? 10_000;
  const timeoutMs = options.connectTimeoutMs ?? 10_000;
  const headers: Record<string, string> = { cookie };
  if (options.origin) headers.origin = options.origin;
  const url = webSocketUrl(baseUrl);
  return new Promise((resolve, reject) => {
    const client = new Client({
      webSocketFactory: () => new WebSocket(url, Versions.default.protocolVersions(), { headers }),
      reconnectDelay: 0,
      heartbeatIncoming: heartbeat,
      heartbeatOutgoing: heartbeat,
      debug: () => {},
    });
    const fail = (reason: string) => {
      clearTimeout(timer);
      void client.deactivate({ force: true });
      reject(new Error(`STOMP connection to ${url} failed: ${reason}`));
    };
    const timer = setTimeout(() => fail(`no CONNECTED within ${timeoutMs} ms`), timeoutMs);
    client.onConnect = () => {
      clearTimeout(timer);
      client.onStompError = () => {};
      client.onWebSocketClose = () => {};
      resolve(client);
    };
    client.onStompError = (frame) => fail(`ERROR ${frame.headers.message ?? ''} ${frame.body}`.trim());
    client.onWebSocketClose = (event) => fail(`socket closed (${(event as { code?: number }).code ?? '?'}) before CONNECTED`);
    client.activate();
  });
}
