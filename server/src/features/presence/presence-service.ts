// Read markers driven by presence: opening (activating) a room marks it read; while a user is
// active in a room, their marker follows each new message; inactive freezes it.
import type { Clock } from '../index';
import type { Logger } from '../../log';
import type { RoomsRepository } from '../rooms/rooms-repository';
import type { PresenceTracker } from './presence-tracker';

export class NotAMemberError extends Error {
  constructor() {
    super('not a member of this chat room');
  }
}

interface PendingMarker { messageId: number; atMs: number; userIds: number[] }

export class PresenceService {
  /** Per room: the newest marker waiting to be written while a write is in flight. */
  private readonly markers = new Map<number, { pending: PendingMarker | null }>();

  constructor(
    private readonly tracker: PresenceTracker,
    private readonly rooms: RoomsRepository,
    private readonly clock: Clock,
    private readonly log: Logger,
  ) {}

  async activate(connectionId: string, userId: number, roomId: number): Promise<void> {
    if (!(await this.rooms.isMember(roomId, userId))) throw new NotAMemberError();
    this.tracker.activate(connectionId, userId, roomId);
    await this.rooms.markAllRead(roomId, userId, this.clock());
  }

  deactivate(connectionId: string, roomId: number): void {
    this.tracker.deactivate(connectionId, roomId);
  }

  disconnected(connectionId: string): void {
    this.tracker.drop(connectionId);
  }

  left(userId: number, roomId: number): void {
    this.tracker.removeUser(userId, roomId);
  }

  /**
   * A message was published: the markers of the room's active users move to it. Under a burst
   * the writes coalesce: at most one per room is in flight, and the newest message wins.
   */
  messagePublished(roomId: number, messageId: number, atMs: number): void {
    const userIds = this.tracker.activeUsers(roomId);
    if (userIds.length === 0) return;
    const state = this.markers.get(roomId);
    if (state) {
      state.pending = { messageId, atMs, userIds };
      return;
    }
    const fresh = { pending: { messageId, atMs, userIds } as PendingMarker | null };
    this.markers.set(roomId, fresh);
    void this.flush(roomId, fresh);
  }

  private async flush(roomId: number, state: { pending: PendingMarker | null }): Promise<void> {
    while (state.pending) {
      const { messageId, atMs, userIds } = state.pending;
      state.pending = null;
      try {
        await this.rooms.markRead(roomId, userIds, messageId, atMs);
      } catch (err) {
        this.log.warn({ err, roomId }, 'read marker update failed');
      }
    }
    this.markers.delete(roomId);
  }
}
