// Who is in a room, with names, for the fan-out of each message (sender name, toggle-refresh
// of every member). Sending a message must not cost a second query, so the list is cached for
// a short time; the node that changes a room's members drops its entry at once and tells the
// other nodes (`tellOthers`, through the cluster signals) to drop theirs; the time limit bounds how
// stale a change can be that they did not hear of (the bus was down, a renamed user).
import type { Clock } from '../types';
import type { ChatUser } from './rooms-repository';

const MAX_ROOMS = 10_000;

export class MembersCache {
  private readonly entries = new Map<number, { members: ChatUser[]; expiresAtMs: number }>();
  /**
   * Rooms with loads running: how many, and how many invalidations came meanwhile. A load that
   * overlapped an invalidate() may have read the old members (a leaver among them), so its
   * result goes to its caller but is not kept. Only rooms being loaded have an entry.
   */
  private readonly loading = new Map<number, { running: number; invalidations: number }>();

  constructor(
    private readonly load: (roomId: number) => Promise<ChatUser[]>,
    private readonly clock: Clock,
    private readonly ttlMs = 3000,
    /** Tells the other nodes that the room's members changed (they call invalidateHere). */
    private readonly tellOthers: (roomId: number) => void = () => {},
  ) {}

  /** The room's members; reloaded when stale or when `expected` is missing from the cached list. */
  async get(roomId: number, expected?: number): Promise<ChatUser[]> {
    const entry = this.entries.get(roomId);
    const fresh = entry && entry.expiresAtMs > this.clock();
    if (entry && fresh && (expected === undefined || entry.members.some((m) => m.id === expected))) return entry.members;
    let loading = this.loading.get(roomId);
    if (!loading) this.loading.set(roomId, (loading = { running: 0, invalidations: 0 }));
    loading.running += 1;
    const invalidationsBefore = loading.invalidations;
    let members: ChatUser[];
    try {
      members = await this.load(roomId);
    } finally {
      if (--loading.running === 0) this.loading.delete(roomId);
    }
    if (loading.invalidations !== invalidationsBefore) return members;
    this.entries.delete(roomId);
    if (this.entries.size >= MAX_ROOMS) this.entries.delete(this.entries.keys().next().value as number);
    this.entries.set(roomId, { members, expiresAtMs: this.clock() + this.ttlMs });
    return members;
  }

  /** The room's members changed: drop its entry here and on every other node. */
  invalidate(roomId: number): void {
    this.invalidateHere(roomId);
    this.tellOthers(roomId);
  }

  invalidateHere(roomId: number): void {
    this.entries.delete(roomId);
    const loading = this.loading.get(roomId);
    if (loading) loading.invalidations += 1;
  }
}
