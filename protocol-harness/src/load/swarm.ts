// Many STOMP sessions opened and subscribed together, with their failures counted. The driver
// installs a handler per run; the swarm routes every MESSAGE, RECEIPT and ERROR to it.
import type { SessionOptions } from './stomp-session';
import { StompSession } from './stomp-session';

export interface SwarmHandler {
  message(client: number, body: string): void;
  receipt(client: number, receiptId: string): void;
  /** The server refused a frame with ERROR (receiptId when the frame asked for one). */
  refused(client: number, receiptId: string | undefined): void;
  /** The session was opened and subscribed again after a drop (`--reconnect`): it may have missed messages. */
  resync?(client: number): void;
}

const MAX_ERROR_SAMPLES = 5;
const SUBSCRIBE_RECEIPT = 'sub:';

export class Swarm {
  /** By client index; null where the session could not be opened. */
  readonly sessions: (StompSession | null)[] = [];
  connectionErrors = 0;
  readonly errorSamples: string[] = [];
  /** Sockets that dropped before CONNECTED and were opened again (not failures: nothing was sent on them). */
  reconnectsBeforeConnected = 0;
  readonly reconnectSamples: string[] = [];
  handler: SwarmHandler | null = null;
  private readonly subscribed = new Map<string, () => void>();

  noteError(reason: string): void {
    this.connectionErrors++;
    if (this.errorSamples.length < MAX_ERROR_SAMPLES && !this.errorSamples.includes(reason)) this.errorSamples.push(reason);
  }

  private noteReconnects(client: number, reasons: readonly string[]): void {
    this.reconnectsBeforeConnected += reasons.length;
    for (const reason of reasons) {
      if (this.reconnectSamples.length < MAX_ERROR_SAMPLES) this.reconnectSamples.push(`session ${client}: ${reason}`);
    }
  }

  /** Opens `count` sessions, `concurrency` handshakes at a time; failures are counted, not thrown. */
  async connect(count: number, optionsFor: (client: number) => SessionOptions, concurrency: number, onEach?: () => void): Promise<void> {
    let next = 0;
    const worker = async () => {
      while (next < count) {
        const client = next++;
        const session = new StompSession();
        this.wire(client, session);
        try {
          await session.connect(optionsFor(client));
          this.sessions[client] = session;
        } catch (err) {
          this.sessions[client] = null;
          this.noteError(`connect: ${(err as Error).message}`);
        }
        this.noteReconnects(client, session.reconnects);
        onEach?.();
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  }

  private wire(client: number, session: StompSession): void {
    session.events = {
      message: (frame) => this.handler?.message(client, frame.body),
      receipt: (id) => {
        if (id.startsWith(SUBSCRIBE_RECEIPT)) {
          this.subscribed.get(id)?.();
          this.subscribed.delete(id);
        } else {
          this.handler?.receipt(client, id);
        }
      },
      error: (reason, receiptId) => {
        this.noteError(`session ${client}: ${reason}`);
        this.handler?.refused(client, receiptId);
      },
      closed: (expected) => {
        if (!expected) this.noteError(`session ${client}: closed by the server`);
      },
      reconnected: () => this.handler?.resync?.(client),
    };
  }

  /**
   * Subscribes each open session to its destination and waits for every receipt, so nothing
   * sent afterwards can miss a subscriber. Returns the clients whose subscription is confirmed.
   */
  async subscribe(destinationFor: (client: number) => string, timeoutMs = 30_000): Promise<Set<number>> {
    const confirmed = new Set<number>();
    const waits: Promise<void>[] = [];
    this.sessions.forEach((session, client) => {
      if (!session?.open) return;
      const receipt = `${SUBSCRIBE_RECEIPT}${client}`;
      waits.push(
        new Promise<void>((resolve) => {
          const timer = setTimeout(() => {
            this.subscribed.delete(receipt);
            this.noteError(`session ${client}: no receipt for SUBSCRIBE within ${timeoutMs} ms`);
            resolve();
          }, timeoutMs);
          this.subscribed.set(receipt, () => {
            clearTimeout(timer);
            confirmed.add(client);
            resolve();
          });
          session.subscribe(destinationFor(client), receipt);
        }),
      );
    });
    await Promise.all(waits);
    return confirmed;
  }

  async close(): Promise<void> {
    await Promise.all(this.sessions.flatMap((s) => (s ? [s.close()] : [])));
  }
}
