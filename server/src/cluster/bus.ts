// The cluster bus: messages from this node to every other node listening on a channel. Lossy
// on purpose (docs/architecture.md §9): what is sent while the bus is down is dropped, the
// database stays the truth and clients fill gaps from history. A node never receives its own
// messages back: it has already handled them locally.

export type BusState = 'local' | 'up' | 'down';

export interface Bus {
  /** This node's id, unique per process start. */
  readonly nodeId: string;
  /** 'local': one process, no bus configured; 'up' or 'down': Redis reachable or not. */
  readonly state: BusState;
  /** Sends to every other node listening on the channel; dropped while the bus is down. */
  publish(channel: string, message: string): void;
  /** Starts listening (counted: each listen needs one unlisten). */
  listen(channel: string): void;
  unlisten(channel: string): void;
  /** Receives what other nodes publish on channels this node listens to, in their order. */
  onMessage(handler: (channel: string, message: string) => void): void;
  /** Called when the bus comes back after being down: what was sent meanwhile is lost. */
  onReconnect(handler: () => void): void;
  /** What was dropped because the bus was down (metrics). */
  readonly dropped: number;
  close(): Promise<void>;
}

/** One process alone: nothing to send to, nothing to receive. */
export class LocalBus implements Bus {
  readonly state = 'local' as const;
  readonly dropped = 0;
  constructor(readonly nodeId = 'local') {}
  publish(): void {}
  listen(): void {}
  unlisten(): void {}
  onMessage(): void {}
  onReconnect(): void {}
  close(): Promise<void> {
    return Promise.resolve();
  }
}

/** Counts listeners per channel; answers whether the channel's first came or its last went. */
export class ChannelCounts {
  private readonly counts = new Map<string, number>();

  add(channel: string): boolean {
    const n = (this.counts.get(channel) ?? 0) + 1;
    this.counts.set(channel, n);
    return n === 1;
  }

  remove(channel: string): boolean {
    const n = (this.counts.get(channel) ?? 0) - 1;
    if (n > 0) this.counts.set(channel, n);
    else this.counts.delete(channel);
    return n === 0;
  }

  get size(): number {
    return this.counts.size;
  }
}
