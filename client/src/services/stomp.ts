// The app's STOMP connection (docs/spec.md §7): the only importer of @stomp/stompjs. Sagas reach it
// through the saga context. It keeps a registry of subscriptions and re-establishes all of them
// after every reconnect, so callers subscribe once and only hear about connection changes.
// The library loads on the first connect, in a chunk of its own: screens without a live
// connection (login, sign-up) never download it.
import type { Client, IMessage, StompSubscription } from '@stomp/stompjs';
import { WEBSOCKET_PATH } from '@common/destinations';

export const DEFAULT_RECONNECT_DELAY_MS = 5000;
/** The longest wait between two attempts (docs/operations.md "Reconnecting"). */
export const MAX_RECONNECT_DELAY_MS = 30_000;

/**
 * Jittered exponential backoff (docs/operations.md "Reconnecting"): the n-th attempt in a row
 * (n ≥ 1) waits base·2^(n−1), at most MAX_RECONNECT_DELAY_MS, times a random factor in [½, 1].
 * When a node dies, its clients' next attempts spread over half the delay instead of all
 * arriving at the surviving nodes in the same instant, and a server that keeps refusing is
 * asked less and less often.
 */
export function reconnectDelay(baseMs: number, attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(MAX_RECONNECT_DELAY_MS, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling * (0.5 + random() / 2));
}
const HEARTBEAT_MS = 10000;
/** How long to wait for a SUBSCRIBE receipt before trusting the subscription anyway. */
const RECEIPT_WAIT_MS = 3000;

export interface StompServiceOptions {
  /** ws:// or wss:// address; defaults to /websocket on the page's own origin. */
  url?: string;
  /** docs/spec.md §9: 5 s for the app, 3 s for the call listener; the base of reconnectDelay(). */
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
  /** Whether the connection should be up: set by subscribe/activate, cleared by deactivate. */
  let wanted = false;
  let client: Client | null = null;
  let loading: Promise<Client> | null = null;
  /** Connections lost (or never made) since the last CONNECTED; a deactivate() starts afresh. */
  let failures = 0;

  function setConnected(value: boolean) {
    if (connected === value) return;
    connected = value;
    for (const listener of [...listeners]) listener(value);
  }

  function establish(stomp: Client, registration: Registration) {
    const receipt = `sub-receipt-${++receiptCounter}`;
    let confirmed = false;
    const confirm = () => {
      if (confirmed || !registrations.has(registration) || registration.live !== live) return;
      confirmed = true;
      registration.handlers.active?.();
    };
    // A server that ignores receipts must not leave the subscriber waiting forever.
    const fallback = setTimeout(confirm, RECEIPT_WAIT_MS);
    stomp.watchForReceipt(receipt, () => {
      clearTimeout(fallback);
      confirm();
    });
    const live = stomp.subscribe(
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

  async function createClient(): Promise<Client> {
    const { Client: StompClient, TickerStrategy } = await import(/* webpackChunkName: "signed-in" */ '@stomp/stompjs');
    const base = options.reconnectDelayMs ?? DEFAULT_RECONNECT_DELAY_MS;
    const stomp = new StompClient({
      brokerURL: options.url ?? defaultWebSocketUrl(),
      // The library's own delay is fixed: it only schedules the attempt, and beforeConnect
      // waits the jittered, growing one (reconnectDelay()). A deactivate() meanwhile still
      // stops it (the library checks after beforeConnect).
      reconnectDelay: 1,
      beforeConnect: () => (failures > 0 ? new Promise<void>((resolve) => setTimeout(resolve, reconnectDelay(base, failures))) : undefined),
      heartbeatIncoming: HEARTBEAT_MS,
      heartbeatOutgoing: HEARTBEAT_MS,
      // Chrome runs a long-hidden tab's timers about once a minute; the server closes a client
      // silent for twice the heart-beat. A worker's timer is not throttled, so the pings keep
      // coming and a tab in the background still hears incoming calls.
      heartbeatStrategy: TickerStrategy.Worker,
      debug: () => {},
    });
    stomp.onConnect = () => {
      failures = 0;
      for (const registration of registrations) establish(stomp, registration);
      setConnected(true);
    };
    stomp.onWebSocketClose = () => {
      failures += 1;
      for (const registration of registrations) registration.live = null;
      setConnected(false);
    };
    stomp.onStompError = (frame) => {
      console.error('[stomp] ERROR frame', frame.headers.message ?? '', frame.body);
    };
    client = stomp;
    return stomp;
  }

  /** Loads the library once, then connects unless a deactivate() came in the meantime. */
  function start() {
    wanted = true;
    loading ??= createClient();
    loading.then(
      (stomp) => {
        if (wanted && !stomp.active) stomp.activate();
      },
      (error: unknown) => {
        // The chunk could not be fetched (offline): the next subscribe or activate tries again.
        loading = null;
        console.error('[stomp] the STOMP client could not be loaded', error);
      },
    );
  }

  return {
    subscribe(destination, handlers) {
      const registration: Registration = { destination, handlers, live: null };
      registrations.add(registration);
      if (client?.connected) establish(client, registration);
      else start();
      return () => {
        if (!registrations.delete(registration)) return;
        const live = registration.live;
        registration.live = null;
        if (live && client?.connected) live.unsubscribe();
      };
    },
    publish(destination, payload) {
      if (!client?.connected) return false;
      client.publish({ destination, body: JSON.stringify(payload), headers: { 'content-type': 'application/json' } });
      return true;
    },
    isConnected: () => client?.connected === true,
    onConnectionChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    activate() {
      start();
    },
    async deactivate() {
      wanted = false;
      if (client) await client.deactivate();
      failures = 0;
      for (const registration of registrations) registration.live = null;
      setConnected(false);
    },
  };
}
