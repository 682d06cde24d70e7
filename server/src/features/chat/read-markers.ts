// Read positions (docs/protocol.md, lastReadSeq; docs/spec.md §4's unread dot is their time): each
// member has read their room up to a seq, and it only moves forward. It moves when the user
// opens the room (user-active, history page 0), leaves it (user-inactive: the original client
// sends it as it leaves a room), sends /app/read, or while they have the room open and in focus
// and a new message arrives. Who has which room open is kept per connection by the
// PresenceTracker.
//
// Writes are batched like messages: positions wait while one statement is in flight, then go
// together (the newest per member), so a room of readers costs a statement per round trip, not
// one per reader. Each position that was written is told to the room (RoomEvents, coalesced).
// A position this node already knows is stored (or passed) is dropped before the database: a
// member looking at a room is marked read as each message is published, and the /app/read their
// client sends for the same message a moment later would only cost a statement that moves nothing.
// A position beyond the room's newest message is never stored. That is checked here, against
// what this node knows of each room's newest seq (looked up when a position goes beyond it), not
// in the UPDATE: a subquery on rooms there would take shared locks on rooms rows (InnoDB, in
// REPEATABLE READ), and so wait for every message transaction of those rooms to commit.
import type { Logger } from '../../log';
import { NotAMemberError } from '../errors';
import type { Clock } from '../types';
import type { MembersCache } from './members-cache';
import { memberAmong } from './membership';
import type { PresenceTracker } from './presence-tracker';
import type { RoomEvents } from './room-events';
import type { ReadPosition, RoomsRepository } from './rooms-repository';

/** Members whose stored position this node remembers; beyond it the oldest are forgotten. */
const MAX_KNOWN = 100_000;
/** Rooms whose newest seq this node remembers. */
const MAX_ROOMS = 10_000;

interface Waiting { position: ReadPosition; done: Array<{ resolve: () => void; reject: (err: unknown) => void }> }

export class ReadMarkers {
  private readonly pending = new Map<string, Waiting>();
  private running = false;
  private drained: Promise<void> = Promise.resolve();
  /**
   * Per member (`room:user`), a seq their stored position is known to have reached with its time
   * stamped: a lower bound, since another node may move it further, and positions only move
   * forward. A position at or below it would move nothing.
   */
  private readonly known = new Map<string, number>();
  /** Per room, a seq its newest message is known to have reached (a lower bound: seqs only grow). */
  private readonly newest = new Map<number, number>();

  constructor(
    private readonly tracker: PresenceTracker,
    private readonly rooms: Pick<RoomsRepository, 'isMember' | 'room' | 'lastSeqs' | 'markRead' | 'readPositions'>,
    private readonly members: Pick<MembersCache, 'get'>,
    private readonly events: Pick<RoomEvents, 'read'>,
    private readonly clock: Clock,
    private readonly log: Logger,
    // 300 positions of 10 bindings each stay far below both engines' limits on bound parameters.
    private readonly maxBatch = 300,
  ) {}

  /** The user opened the room on this connection (user-active): everything in it is read. */
  async roomOpened(connectionId: string, userId: number, roomId: number): Promise<void> {
    if (!(await this.rooms.isMember(roomId, userId))) throw new NotAMemberError();
    this.tracker.activate(connectionId, userId, roomId);
    await this.markAllRead(roomId, userId);
  }

  /**
   * The room lost focus on this connection (user-inactive): the position stops following, and
   * what the user saw until now is read.
   */
  async roomClosed(connectionId: string, userId: number, roomId: number): Promise<void> {
    this.tracker.deactivate(connectionId, roomId);
    await this.markAllRead(roomId, userId);
  }

  connectionClosed(connectionId: string): void {
    this.tracker.drop(connectionId);
  }

  memberLeft(userId: number, roomId: number): void {
    this.tracker.removeUser(userId, roomId);
    // A member who joins again starts from a new row.
    this.known.delete(`${roomId}:${userId}`);
  }

  /**
   * /app/read: the member read the room up to seq. Refuses a non-member (from the members
   * cache), then returns without waiting for the write: a session handles its frames one at a
   * time, and a reader sending a read for every message must not hold up its own sends.
   */
  async read(userId: number, roomId: number, seq: number): Promise<void> {
    memberAmong(await this.members.get(roomId, userId), userId);
    this.enqueue({ roomId, userId, seq, atMs: this.clock() }, this.logFailure(roomId));
  }

  /** Everything in the room is read by the user (history page 0, user-active). A non-member's changes nothing. */
  async markAllRead(roomId: number, userId: number): Promise<void> {
    const room = await this.rooms.room(roomId);
    if (room) await this.markRead(roomId, userId, room.lastSeq);
  }

  /** The user read the room up to seq, a seq the caller read from the database (history, markAllRead). */
  markRead(roomId: number, userId: number, seq: number): Promise<void> {
    remember(this.newest, roomId, seq, MAX_ROOMS);
    return new Promise((resolve, reject) => this.enqueue({ roomId, userId, seq, atMs: this.clock() }, { resolve, reject }));
  }

  /**
   * A message was published: the room's members who have it open and in focus have read it
   * (its author already has, in the commit that stored it).
   */
  messagePublished(roomId: number, seq: number, atMs: number, authorId: number | null): void {
    remember(this.newest, roomId, seq, MAX_ROOMS);
    for (const userId of this.tracker.activeUsers(roomId)) {
      if (userId !== authorId) this.enqueue({ roomId, userId, seq, atMs }, this.logFailure(roomId));
    }
  }

  /** For a write nobody waits for: a failure is logged. */
  private logFailure(roomId: number): Waiting['done'][number] {
    return { resolve: () => {}, reject: (err) => this.log.warn({ err, roomId }, 'read position update failed') };
  }

  private enqueue(position: ReadPosition, done: Waiting['done'][number]): void {
    const key = `${position.roomId}:${position.userId}`;
    if (this.isKnown(position)) {
      done.resolve();
      return;
    }
    const waiting = this.pending.get(key);
    if (waiting) {
      if (position.seq >= waiting.position.seq) waiting.position = position;
      waiting.done.push(done);
    } else {
      this.pending.set(key, { position, done: [done] });
    }
    if (!this.running) {
      this.running = true;
      this.drained = new Promise((done) => setImmediate(() => void this.drain().then(done, done)));
    }
  }

  /** Resolves once every position given so far is written or failed (for shutdown). */
  idle(): Promise<void> {
    return this.drained;
  }

  private async drain(): Promise<void> {
    while (this.pending.size > 0) {
      const taken = [...this.pending.values()].slice(0, this.maxBatch);
      for (const w of taken) this.pending.delete(`${w.position.roomId}:${w.position.userId}`);
      // What the statement before this one wrote may have covered some of these.
      const batch = taken.filter((w) => {
        if (!this.isKnown(w.position)) return true;
        for (const d of w.done) d.resolve();
        return false;
      });
      if (batch.length === 0) continue;
      try {
        const positions = await this.withinRooms(batch);
        const moved = positions.length > 0 ? await this.rooms.markRead(positions) : 0;
        for (const w of batch) for (const d of w.done) d.resolve();
        await this.tellMoved(positions, moved).catch((err: unknown) => this.log.warn({ err }, 'telling read positions failed'));
      } catch (err) {
        for (const w of batch) for (const d of w.done) d.reject(err);
      }
    }
    this.running = false;
  }

  /**
   * Tells the room of each position that moved. A statement answers how many rows moved, not
   * which: when all or none did that is enough, otherwise the stored positions are read back.
   */
  private async tellMoved(positions: ReadPosition[], moved: number): Promise<void> {
    if (moved === positions.length) {
      for (const p of positions) remember(this.known, `${p.roomId}:${p.userId}`, p.seq, MAX_KNOWN);
    }
    if (moved === 0) return;
    let changed = positions;
    if (moved !== positions.length) {
      const stored = await this.rooms.readPositions(positions);
      for (const s of stored) if (s.stamped) remember(this.known, `${s.roomId}:${s.userId}`, s.seq, MAX_KNOWN);
      changed = positions.filter((p) => stored.some((s) => p.roomId === s.roomId && p.userId === s.userId && p.seq === s.seq));
    }
    // Reading an empty room only stamps the time: there is no message to tell of.
    for (const p of changed) if (p.seq > 0) this.events.read(p.roomId, p.userId, p.seq);
  }

  /**
   * The batch's positions that are not beyond their room's newest message; the others are
   * answered at once (as not stored). Rooms are looked up only for a position beyond what this
   * node knows: a read of a message this node published never is.
   */
  private async withinRooms(batch: Waiting[]): Promise<ReadPosition[]> {
    const newestOf = (roomId: number) => this.newest.get(roomId) ?? 0;
    const unsure = [...new Set(batch.filter((w) => w.position.seq > newestOf(w.position.roomId)).map((w) => w.position.roomId))];
    if (unsure.length > 0) {
      for (const r of await this.rooms.lastSeqs(unsure)) remember(this.newest, r.roomId, r.lastSeq, MAX_ROOMS);
    }
    const within: ReadPosition[] = [];
    for (const w of batch) {
      if (w.position.seq <= newestOf(w.position.roomId)) within.push(w.position);
      else for (const d of w.done) d.resolve();
    }
    return within;
  }

  private isKnown(p: ReadPosition): boolean {
    return p.seq <= (this.known.get(`${p.roomId}:${p.userId}`) ?? -1);
  }

}

/** Raises a remembered lower bound; the map keeps the most recently raised `max` keys. */
function remember<K>(map: Map<K, number>, key: K, seq: number, max: number): void {
  const before = map.get(key);
  if (before !== undefined && before >= seq) return;
  // Re-inserted so the map's order is oldest-raised first.
  map.delete(key);
  if (map.size >= max) map.delete(map.keys().next().value as K);
  map.set(key, seq);
}
