// One STOMP 1.2 session over a WebSocket, as lean as the load driver needs: connect, subscribe
// with a receipt, send with a receipt, and callbacks for MESSAGE, RECEIPT, ERROR and close.
import WebSocket from 'ws';
import { DroppedBeforeConnected, RECONNECTS_BEFORE_CONNECTED, withReconnects } from '../shared/stomp';
import { encodeFrame, FrameReader, type StompFrame } from './stomp-frames';

export interface SessionOptions {
  url: string;
  /** Extra upgrade headers: the session cookie and Origin for the chat server. */
  headers?: Record<string, string>;
  /** STOMP `host` header (RabbitMQ: the virtual host). */
  host?: string;
  login?: string;
  passcode?: string;
  connectTimeoutMs?: number;
  /** See RECONNECTS_BEFORE_CONNECTED (shared/stomp.ts), the default; 0 turns reconnecting off. */
  reconnectsBeforeConnected?: number;
  /**
   * `harness load --reconnect`: a socket that drops once CONNECTED is opened again as the browser
   * client does (reconnectDelay below, from this base) and subscribed again to everything it was;
   * then `reconnected` is told. Unset: a drop is final (`closed(false)`).
   */
  reconnectBaseMs?: number;
  /**
   * With reconnectBaseMs, the other nodes of a cluster (without a load balancer in front): the
   * n-th attempt after a drop goes to the n-th of them in turn, so a dead node's sessions fail over.
   */
  otherUrls?: string[];
}

/** The browser's backoff (client/src/services/stomp.ts, docs/operations.md "Reconnecting"). */
export const MAX_RECONNECT_DELAY_MS = 30_000;
export function reconnectDelay(baseMs: number, attempt: number, random: () => number = Math.random): number {
  return Math.round(Math.min(MAX_RECONNECT_DELAY_MS, baseMs * 2 ** Math.max(0, attempt - 1)) * (0.5 + random() / 2));
}

const RESUBSCRIBE_RECEIPT = 'resub:';

export interface SessionEvents {
  message(frame: StompFrame): void;
  receipt(receiptId: string): void;
  /** An ERROR frame after CONNECTED (receiptId: the refused frame's receipt), or a socket error. */
  error(reason: string, receiptId?: string): void;
  closed(expected: boolean): void;
  /** With reconnectBaseMs: open again and subscribed again (every SUBSCRIBE receipted) after a drop. */
  reconnected?(): void;
}

/** How often we promise the server an EOL; the server may ask for more often (never less). */
const CLIENT_HEARTBEAT_MS = 10_000;

export class StompSession {
  private ws: WebSocket | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private closing = false;
  private subscriptions = 0;
  /** Destinations by subscription id, to subscribe again after a reconnect. */
  private readonly destinations: string[] = [];
  private options: SessionOptions | null = null;
  /** close() was called: no reconnect any more. */
  private stopped = false;
  private resubscribing = 0;
  /** Sockets opened again after a drop once CONNECTED (reconnectBaseMs). */
  reconnectsAfterConnected = 0;
  events: SessionEvents = { message() {}, receipt() {}, error() {}, closed() {} };
  /** Why each socket of this session that dropped before CONNECTED ended (then opened again). */
  readonly reconnects: string[] = [];

  /**
   * Resolves once CONNECTED arrives; rejects on an ERROR, a refused upgrade, the time-out, or a
   * socket that keeps dropping before CONNECTED. A drop before CONNECTED is met as the browser
   * client meets it, by opening the socket again after a back-off; each is kept in `reconnects`
   * for the report. Nothing is ever retried once CONNECTED arrived.
   */
  connect(options: SessionOptions): Promise<void> {
    this.options = options;
    return withReconnects(() => this.connectOnce(options), options.reconnectsBeforeConnected ?? RECONNECTS_BEFORE_CONNECTED, (reason) =>
      this.reconnects.push(reason),
    );
  }

  private connectOnce(options: SessionOptions): Promise<void> {
    this.closing = false;
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(options.url, ['v12.stomp'], { headers: options.headers, perMessageDeflate: false });
      this.ws = ws;
      const reader = new FrameReader();
      let connected = false;
      const timer = setTimeout(() => fail(`no CONNECTED within ${options.connectTimeoutMs ?? 15_000} ms`), options.connectTimeoutMs ?? 15_000);
      const fail = (reason: string, dropped = false) => {
        clearTimeout(timer);
        if (!connected) {
          connected = true; // settle once
          this.closing = true;
          ws.terminate();
          reject(dropped ? new DroppedBeforeConnected(reason) : new Error(reason));
        }
      };
      // How the TCP connection ended: ws reports a dropped connection as a bare 1006.
      let socketEnd = '';
      ws.on('upgrade', (res) => {
        const port = res.socket.localPort;
        res.socket.once('end', () => (socketEnd ||= `the server ended the TCP connection (local port ${port})`));
        res.socket.once('error', (err: NodeJS.ErrnoException) => (socketEnd ||= `socket ${err.syscall ?? ''} ${err.code ?? err.message}`));
      });
      let opened = false;
      ws.on('open', () => {
        opened = true;
        const headers: Record<string, string> = { 'accept-version': '1.2', host: options.host ?? new URL(options.url).hostname, 'heart-beat': `${CLIENT_HEARTBEAT_MS},0` };
        if (options.login !== undefined) headers.login = options.login;
        if (options.passcode !== undefined) headers.passcode = options.passcode;
        ws.send(encodeFrame('CONNECT', headers));
      });
      ws.on('message', (data: Buffer) => {
        reader.push(data, (frame) => {
          switch (frame.command) {
            case 'MESSAGE':
              this.events.message(frame);
              break;
            case 'RECEIPT': {
              const id = frame.headers['receipt-id'] ?? '';
              if (!id.startsWith(RESUBSCRIBE_RECEIPT)) this.events.receipt(id);
              else if (--this.resubscribing === 0) this.events.reconnected?.();
              break;
            }
            case 'CONNECTED':
              if (!connected) {
                connected = true;
                clearTimeout(timer);
                this.startHeartbeat(frame.headers['heart-beat']);
                resolve();
              }
              break;
            case 'ERROR':
              if (!connected) fail(`ERROR: ${frame.headers.message ?? frame.body}`);
              else this.events.error(frame.headers.message ?? frame.body, frame.headers['receipt-id']);
              break;
          }
        });
      });
      ws.on('unexpected-response', (_req, res) => fail(`upgrade refused: HTTP ${res.statusCode}`));
      ws.on('error', (err) => {
        if (!connected) fail(err.message);
        else if (!this.closing) this.events.error(err.message);
      });
      ws.on('close', (code, reason) => {
        this.stopHeartbeat();
        // 1006: no close frame came; a server that refuses says so with ERROR and a close frame.
        if (!connected) fail(`closed before CONNECTED (${code}${reason.length ? ` ${reason.toString()}` : ''}${socketEnd ? `: ${socketEnd}` : ''})`, opened && code === 1006);
        else if (!this.closing && !this.stopped && options.reconnectBaseMs !== undefined) this.reopen(options.reconnectBaseMs, 1);
        else this.events.closed(this.closing);
      });
    });
  }

  /** After a drop once CONNECTED: the browser's backoff, then CONNECT and every SUBSCRIBE again. */
  private reopen(baseMs: number, attempt: number): void {
    this.reconnectsAfterConnected++;
    const timer = setTimeout(() => {
      if (this.stopped) return;
      const others = this.options!.otherUrls ?? [];
      const url = others.length === 0 ? this.options!.url : others[(attempt - 1) % others.length];
      this.connectOnce({ ...this.options!, url }).then(
        () => {
          this.resubscribing = this.destinations.length;
          if (this.resubscribing === 0) this.events.reconnected?.();
          this.destinations.forEach((destination, i) =>
            this.write(encodeFrame('SUBSCRIBE', { id: `sub-${i}`, destination, ack: 'auto', receipt: `${RESUBSCRIBE_RECEIPT}${i}` })),
          );
        },
        () => {
          if (!this.stopped) this.reopen(baseMs, attempt + 1);
        },
      );
    }, reconnectDelay(baseMs, attempt));
    timer.unref();
  }

  private startHeartbeat(negotiated: string | undefined): void {
    const serverWants = Number((negotiated ?? '0,0').split(',')[1]) || 0;
    if (serverWants <= 0) return;
    const every = Math.max(CLIENT_HEARTBEAT_MS, serverWants);
    this.heartbeat = setInterval(() => {
      if (this.ws?.readyState === WebSocket.OPEN) this.ws.send('\n');
    }, every);
    this.heartbeat.unref();
  }

  private stopHeartbeat(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
  }

  get open(): boolean {
    return this.ws?.readyState === WebSocket.OPEN;
  }

  /** Bytes queued in the socket and not yet written to the network. */
  get buffered(): number {
    return this.ws?.bufferedAmount ?? 0;
  }

  /** Subscribes with ids sub-0, sub-1, … like our web client; returns the id. */
  subscribe(destination: string, receipt?: string): string {
    const id = `sub-${this.subscriptions++}`;
    this.destinations.push(destination);
    const headers: Record<string, string> = { id, destination, ack: 'auto' };
    if (receipt) headers.receipt = receipt;
    this.write(encodeFrame('SUBSCRIBE', headers));
    return id;
  }

  /** Returns false when the socket is not open (nothing was sent). */
  send(destination: string, body: string, receipt?: string): boolean {
    const headers: Record<string, string> = { destination, 'content-type': 'application/json' };
    if (receipt) headers.receipt = receipt;
    return this.write(encodeFrame('SEND', headers, body));
  }

  private write(frame: string): boolean {
    if (!this.open) return false;
    this.ws!.send(frame);
    return true;
  }

  /** DISCONNECT, then close; the socket is terminated if the server does not close it soon. */
  async close(): Promise<void> {
    const ws = this.ws;
    this.stopped = true;
    if (!ws || ws.readyState === WebSocket.CLOSED) return;
    this.closing = true;
    this.stopHeartbeat();
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        ws.terminate();
        resolve();
      }, 2000);
      ws.once('close', () => {
        clearTimeout(timer);
        resolve();
      });
      if (ws.readyState === WebSocket.OPEN) {
        ws.send(encodeFrame('DISCONNECT', {}));
        ws.close(1000);
      } else {
        ws.terminate();
      }
    });
  }
}
