// Read positions (docs/protocol.md, lastReadSeq; SPEC.md §4's unread dot is their time): each
// member has read their room up to a seq, and it only moves forward. It moves when the user
// opens the room (user-active, history page 0), leaves it (user-inactive: the original client
// sends it as it leaves a room), sends /app/read, or while they have the room open and in focus
// and a new message arrives. Who has which room open is kept per connection by the
// PresenceTracker.
//
// Writes are batched like messages: positions wait while one statement is in flight, then go
// together (the newest per member), so a room of readers costs a statement per round trip, not
// one per reader. Each position that was written is told to the room (RoomEvents, coalesced).
import type { Logger } from '../../log';
import { NotAMemberError } from '../errors';
import type { Clock } from '../types';
import type { MembersCache } from './members-cache';
import { memberAmong } from './membership';
import type { PresenceTracker } from './presence-tracker';
import type { RoomEvents } from './room-events';
import type { ReadPosition, RoomsRepository } from './rooms-repository';

interface Waiting { position: ReadPosition; done: Array<{ resolve: () => void; reject: (err: unknown) => void }> }

export class ReadMarkers {
  private pending = new Map<string, Waiting>();
  private running = false;
  private drained: Promise<void> = Promise.resolve();

  constructor(
    private readonly tracker: PresenceTracker,
    private readonly rooms: Pick<RoomsRepository, 'isMember' | 'room' | 'markRead' | 'readPositions'>,
    private readonly members: Pick<MembersCache, 'get'>,
    private readonly events: Pick<RoomEvents, 'read'>,
    private readonly clock: Clock,
    private readonly log: Logger,
    // 300 rows of 4 bindings per CASE stay far below both engines' limits on bound parameters.
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
  }

  /** /app/read: the member read the room up to seq. Refuses a non-member. */
  async read(userId: number, roomId: number, seq: number): Promise<void> {
    memberAmong(await this.members.get(roomId, userId), userId);
    await this.markRead(roomId, userId, seq);
  }

  /** Everything in the room is read by the user (history page 0, user-active). A non-member's changes nothing. */
  async markAllRead(roomId: number, userId: number): Promise<void> {
    const room = await this.rooms.room(roomId);
    if (room) await this.markRead(roomId, userId, room.lastSeq);
  }

  /** The user read the room up to seq (/app/read, history): a position beyond the newest message is not stored. */
  markRead(roomId: number, userId: number, seq: number): Promise<void> {
    return new Promise((resolve, reject) => this.enqueue({ roomId, userId, seq, atMs: this.clock() }, { resolve, reject }));
  }

  /**
   * A message was published: the room's members who have it open and in focus have read it
   * (its author already has, in the commit that stored it).
   */
  messagePublished(roomId: number, seq: number, atMs: number, authorId: number | null): void {
    for (const userId of this.tracker.activeUsers(roomId)) {
      if (userId === authorId) continue;
      this.enqueue({ roomId, userId, seq, atMs }, {
        resolve: () => {},
        reject: (err) => this.log.warn({ err, roomId }, 'read position update failed'),
      });
    }
  }

  private enqueue(position: ReadPosition, done: Waiting['done'][number]): void {
    const key = `${position.roomId}:${position.userId}`;
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
      const batch = [...this.pending.values()].slice(0, this.maxBatch);
      for (const w of batch) this.pending.delete(`${w.position.roomId}:${w.position.userId}`);
      try {
        const positions = batch.map((w) => w.position);
        const moved = await this.rooms.markRead(positions);
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
    if (moved === 0) return;
    const changed = moved === positions.length
      ? positions
      : (await this.rooms.readPositions(positions)).filter((stored) =>
          positions.some((p) => p.roomId === stored.roomId && p.userId === stored.userId && p.seq === stored.seq));
    // Reading an empty room only stamps the time: there is no message to tell of.
    for (const p of changed) if (p.seq > 0) this.events.read(p.roomId, p.userId, p.seq);
  }
}
