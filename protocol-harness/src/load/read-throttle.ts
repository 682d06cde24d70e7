// The /app/read frames of a load run, sent as the browser client sends them (roomReadsSaga's
// sendReads): a session's first read at once, then at most one every interval, the newest seq.
// Interval 0 sends one per message, the most a client could send.

export interface ReadFrame { destination: string; body: string; seq: number }

export class ReadThrottle {
  private readonly lastSentMs = new Map<number, number>();
  private readonly lastSentSeq = new Map<number, number>();
  private readonly pending = new Map<number, ReadFrame>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly intervalMs: number,
    private readonly send: (client: number, read: ReadFrame) => void,
    private readonly now: () => number = () => performance.now(),
  ) {}

  offer(client: number, read: ReadFrame): void {
    if (read.seq <= (this.lastSentSeq.get(client) ?? 0)) return;
    const last = this.lastSentMs.get(client);
    if (last === undefined || this.now() - last >= this.intervalMs) {
      this.pending.delete(client);
      this.sendNow(client, read);
      return;
    }
    const waiting = this.pending.get(client);
    if (!waiting || read.seq > waiting.seq) this.pending.set(client, read);
    // A tenth of the interval: the newest read goes out at most that late after its window opens.
    this.timer ??= setInterval(() => this.flushDue(), Math.max(10, this.intervalMs / 10));
  }

  /** Stops the timer; reads still waiting are dropped (the run is over). */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.pending.clear();
  }

  /** Sends every waiting read whose session's interval has passed. */
  flushDue(): void {
    const now = this.now();
    for (const [client, read] of this.pending) {
      if (now - (this.lastSentMs.get(client) ?? -Infinity) >= this.intervalMs) {
        this.pending.delete(client);
        this.sendNow(client, read);
      }
    }
    if (this.pending.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  private sendNow(client: number, read: ReadFrame): void {
    this.lastSentMs.set(client, this.now());
    this.lastSentSeq.set(client, read.seq);
    this.send(client, read);
  }
}
