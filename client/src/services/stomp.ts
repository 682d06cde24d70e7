// The app's STOMP connection (SPEC.md §7): the only importer of @stomp/stompjs. Sagas reach it
// through the saga context. It keeps a registry of subscriptions and re-establishes all of them
// after every reconnect, so callers subscribe once and only hear about connection changes.
import { Client, type IMessage, type StompSubscription, TickerStrategy } from '@stomp/stompjs';
import { WEBSOCKET_PATH } from '../../../common/destinations';

export const DEFAULT_RECONNECT_DELAY_MS = 5000;
const HEARTBEAT_MS = 10000;
/** How long to wait for a SUBSCRIBE receipt before trusting the subscription anyway. */
const RECEIPT_WAIT_MS = 3000;

export interface StompServiceOptions {
  /** ws:// or wss:// address; defaults to /websocket on the page's own origin. */
  url?: string;
  /** SPEC.md §9: 5 s for the app, 3 s for the call listener. */
  reconnectDelayMs?: number;
}

export interface SubscriptionHandlers {
  /** A MESSAGE arrived; its body parsed as JSON (frames that are not JSON are logged and dropped). */
  message(body: unknown): void;
  /**
   * The server has confirmed the subscription (its RECEIPT arrived): from now on nothing published
   * to the destination is missed. Called again after every reconnect, so callers can fetch what
   * they missed while disconnected.
   */
  active?(): void;
}

export interface StompService {
  /** Subscribes now (connecting if needed) and again after every reconnect, until the returned function is called. */
  subscribe(destination: string, handlers: SubscriptionHandlers): () => void;
  /** Sends the payload as JSON. Returns false, sending nothing, when there is no connection right now. */
  publish(destination: string, payload: unknown): boolean;
  isConnected(): boolean;
  /** Told true after each (re)connect and false on each loss. Returns the function that stops listening. */
  onConnectionChange(listener: (connected: boolean) => void): () => void;
  /** Starts connecting (subscribe() does this too). */
  activate(): void;
  /** Closes the connection and stops reconnecting (logout). Registered subscriptions are kept for the next activate(). */
  deactivate(): Promise<void>;
}

interface Registration {
  destination: string;
  handlers: SubscriptionHandlers;
  live: StompSubscription | null;
}

export function defaultWebSocketUrl(location: Pick<Location, 'protocol' | 'host'> = window.location): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${WEBSOCKET_PATH}`;
}

function parseBody(message: IMessage): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(message.body) as unknown };
  } catch {
    return { ok: false };
  }
}

export function createStompService(options: StompServiceOptions = {}): StompService {
  const registrations = new Set<Registration>();
  const listeners = new Set<(connected: boolean) => void>();
  let receiptCounter = 0;
  let connected = false;

  const client = new Client({
    brokerURL: options.url ?? defaultWebSocketUrl(),
    reconnectDelay: options.reconnectDelayMs ?? DEFAULT_RECONNECT_DELAY_MS,
    heartbeatIncoming: HEARTBEAT_MS,
    heartbeatOutgoing: HEARTBEAT_MS,
    // Chrome runs a long-hidden tab's timers about once a minute; the server closes a client
    // silent for twice the heart-beat. A worker's timer is not throttled, so the pings keep
    // coming and a tab in the background still hears incoming calls.
    heartbeatStrategy: TickerStrategy.Worker,
    debug: () => {},
  });

  function setConnected(value: boolean) {
    if (connected === value) return;
    connected = value;
    for (const listener of [...listeners]) listener(value);
  }

  function establish(registration: Registration) {
    const receipt = `sub-receipt-${++receiptCounter}`;
    let confirmed = false;
    const confirm = () => {
      if (confirmed || !registrations.has(registration) || registration.live !== live) return;
      confirmed = true;
      registration.handlers.active?.();
    };
    // A server that ignores receipts must not leave the subscriber waiting forever.
    const fallback = setTimeout(confirm, RECEIPT_WAIT_MS);
    client.watchForReceipt(receipt, () => {
      clearTimeout(fallback);
      confirm();
    });
    const live = client.subscribe(
      registration.destination,
      (message) => {
        const body = parseBody(message);
        if (body.ok) registration.handlers.message(body.value);
        else console.error(`[stomp] dropped a non-JSON frame on ${registration.destination}`);
      },
      { receipt },
    );
    registration.live = live;
  }

  client.onConnect = () => {
    for (const registration of registrations) establish(registration);
    setConnected(true);
  };
  client.onWebSocketClose = () => {
    for (const registration of registrations) registration.live = null;
    setConnected(false);
  };
  client.onStompError = (frame) => {
    console.error('[stomp] ERROR frame', frame.headers.message ?? '', frame.body);
  };

  return {
    subscribe(destination, handlers) {
      const registration: Registration = { destination, handlers, live: null };
      registrations.add(registration);
      if (client.connected) establish(registration);
      else if (!client.active) client.activate();
      return () => {
        if (!registrations.delete(registration)) return;
        const live = registration.live;
        registration.live = null;
        if (live && client.connected) live.unsubscribe();
      };
    },
    publish(destination, payload) {
      if (!client.connected) return false;
      client.publish({ destination, body: JSON.stringify(payload), headers: { 'content-type': 'application/json' } });
      return true;
    },
    isConnected: () => client.connected,
    onConnectionChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    activate() {
      if (!client.active) client.activate();
    },
    async deactivate() {
      await client.deactivate();
      for (const registration of registrations) registration.live = null;
      setConnected(false);
    },
  };
}
