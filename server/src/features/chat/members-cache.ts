// Who is in a room, with names, for the fan-out of each message (sender name, toggle-refresh
// of every member). Sending a message must not cost a second query, so the list is cached for
// a short time; the node that changes a room's members drops its entry at once and tells the
// other nodes (`tellOthers`, through the cluster signals) to drop theirs; the time limit bounds how
// stale a change can be that they did not hear of (the bus was down, a renamed user).
//
// An entry past its time limit but within twice it is still answered, and reloaded behind the
// caller: a send never waits for the reload of a room it just used. Under a reconnect storm the
// main pool's queue is thousands of queries long, and a send that waited for its room's reload
// waited behind all of them (docs/architecture.md §9). A dropped entry (invalidate) and one twice
// as old as the limit are always waited for.
import type { Clock } from '../types';
import type { ChatUser } from './rooms-repository';

const MAX_ROOMS = 10_000;

export class MembersCache {
  private readonly entries = new Map<number, { members: ChatUser[]; expiresAtMs: number }>();
  /**
   * The one load running per room, which every caller for that room shares: under load a room
   * whose entry expired gets a frame every few milliseconds, and each must not cost its own
   * query. A load that overlapped an invalidate() may have read the old members (a leaver among
   * them): it is marked stale, its result goes to the callers that already waited on it but is
   * neither kept nor shared with later callers, which start a new load.
   */
  private readonly loading = new Map<number, { members: Promise<ChatUser[]>; stale: boolean }>();

  constructor(
    private readonly load: (roomId: number) => Promise<ChatUser[]>,
    private readonly clock: Clock,
    private readonly ttlMs = 3000,
    /** Tells the other nodes that the room's members changed (they call invalidateHere). */
    private readonly tellOthers: (roomId: number) => void = () => {},
  ) {}

  /** The room's members; reloaded when stale or when `expected` is missing from the cached list. */
  async get(roomId: number, expected?: number): Promise<ChatUser[]> {
    const has = (members: ChatUser[]) => expected === undefined || members.some((m) => m.id === expected);
    const entry = this.entries.get(roomId);
    const now = this.clock();
    if (entry && has(entry.members)) {
      if (entry.expiresAtMs > now) return entry.members;
      if (entry.expiresAtMs + this.ttlMs > now) {
        if (!this.loading.has(roomId)) this.startLoad(roomId).catch(() => undefined);
        return entry.members;
      }
    }
    const running = this.loading.get(roomId);
    if (running && !running.stale) {
      const members = await running.members;
      if (has(members)) return members;
    }
    return this.startLoad(roomId);
  }

  private async startLoad(roomId: number): Promise<ChatUser[]> {
    const load = { members: this.load(roomId), stale: false };
    this.loading.set(roomId, load);
    let members: ChatUser[];
    try {
      members = await load.members;
    } finally {
      if (this.loading.get(roomId) === load) this.loading.delete(roomId);
    }
    if (load.stale) return members;
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
    const running = this.loading.get(roomId);
    if (running) running.stale = true;
  }
}
