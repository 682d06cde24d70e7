// The unread marker (SPEC.md §4: the chat list's dot): each member's read position in a room.
// Opening a room (user-active, or history page 0) marks it read; while a user has the room
// open and in focus their marker follows each new message; user-inactive freezes it. Who has
// which room open is kept per connection by the PresenceTracker.
import type { Logger } from '../../log';
import { NotAMemberError } from '../errors';
import type { Clock } from '../types';
import type { PresenceTracker } from './presence-tracker';
import type { RoomsRepository } from './rooms-repository';

interface PendingMarker { messageId: number; atMs: number; userIds: number[] }

export class ReadMarkers {
  /** Per room: the newest marker waiting to be written while a write is in flight. */
  private readonly markers = new Map<number, { pending: PendingMarker | null }>();

  constructor(
    private readonly tracker: PresenceTracker,
    private readonly rooms: RoomsRepository,
    private readonly clock: Clock,
    private readonly log: Logger,
  ) {}

  /** The user opened the room on this connection (user-active): everything in it is read. */
  async roomOpened(connectionId: string, userId: number, roomId: number): Promise<void> {
    if (!(await this.rooms.isMember(roomId, userId))) throw new NotAMemberError();
    this.tracker.activate(connectionId, userId, roomId);
    await this.rooms.markAllRead(roomId, userId, this.clock());
  }

  /** The room lost focus on this connection (user-inactive): the marker stops following. */
  roomClosed(connectionId: string, roomId: number): void {
    this.tracker.deactivate(connectionId, roomId);
  }

  connectionClosed(connectionId: string): void {
    this.tracker.drop(connectionId);
  }

  memberLeft(userId: number, roomId: number): void {
    this.tracker.removeUser(userId, roomId);
  }

  /** History page 0 was loaded: the reader has seen the newest messages. */
  markAllRead(roomId: number, userId: number): Promise<void> {
    return this.rooms.markAllRead(roomId, userId, this.clock());
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
