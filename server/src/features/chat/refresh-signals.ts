// /topic/toggle-refresh/{userId} ("reload the chat list", docs/spec.md §7) for new messages (and,
// ours, a room's group call starting, ending or changing size: group-call-rooms.ts), at most
// once a second per user: the first at once, then one more at the end of the second for whatever
// came during it. The signal carries nothing but "something changed", so the last one is all a
// client needs; one per message would make each member of a busy room reload their whole list
// for every message. Per node: with several nodes a user may get one from each.
import type { Publisher } from '../../stomp/api';
import { topics } from '@common/destinations';

export const REFRESH_INTERVAL_MS = 1000;

export class RefreshSignals {
  /** Users signalled within the last interval: whether another signal waits for its end. */
  private readonly recent = new Map<number, { again: boolean; timer: NodeJS.Timeout }>();

  constructor(
    private readonly publisher: Pick<Publisher, 'publish'>,
    private readonly intervalMs = REFRESH_INTERVAL_MS,
  ) {}

  signal(userId: number): void {
    const recent = this.recent.get(userId);
    if (recent) {
      recent.again = true;
      return;
    }
    this.send(userId);
  }

  /** The server stops: signals still waiting are dropped (clients reload their lists on reconnecting). */
  stop(): void {
    for (const entry of this.recent.values()) clearTimeout(entry.timer);
    this.recent.clear();
  }

  private send(userId: number): void {
    this.publisher.publish(topics.toggleRefresh(userId), 'true');
    const entry = {
      again: false,
      timer: setTimeout(() => {
        this.recent.delete(userId);
        if (entry.again) this.send(userId);
      }, this.intervalMs),
    };
    entry.timer.unref();
    this.recent.set(userId, entry);
  }
}
