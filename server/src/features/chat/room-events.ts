// What a room's members learn about each other beside the messages, on the room-events topic
// (docs/protocol.md, /topic/chat-room-events/{id}): read positions, typing, presence, and
// the changes of messages (edited, deleted, reactions). The one
// place these events are published, so a cluster bus can carry them from here. Read events
// are coalesced per member: at most one a second, the newest position winning.
import { topics } from '@common/destinations';
import type { RoomEvent } from '@common/payloads';
import { LIMITS, type Reaction } from '@common/rules';
import type { Publisher } from '../../stomp/api';

/**
 * Per key, at most one emit per interval: the first value goes out at once, later ones within
 * the interval are merged and go out when it ends. An entry lives only while its interval runs,
 * so memory follows the keys active in the last interval.
 */
export class Coalescer<V> {
  private readonly entries = new Map<string, { pending: V | undefined; timer: NodeJS.Timeout }>();

  constructor(
    private readonly intervalMs: number,
    private readonly emit: (value: V) => void,
    private readonly merge: (older: V, newer: V) => V = (_older, newer) => newer,
  ) {}

  push(key: string, value: V): void {
    const entry = this.entries.get(key);
    if (entry) {
      entry.pending = entry.pending === undefined ? value : this.merge(entry.pending, value);
      return;
    }
    this.emit(value);
    this.entries.set(key, { pending: undefined, timer: this.arm(key) });
  }

  /** Drops every pending value (shutdown). */
  clear(): void {
    for (const entry of this.entries.values()) clearTimeout(entry.timer);
    this.entries.clear();
  }

  private arm(key: string): NodeJS.Timeout {
    const timer = setTimeout(() => {
      const entry = this.entries.get(key);
      if (!entry) return;
      if (entry.pending === undefined) {
        this.entries.delete(key);
        return;
      }
      const value = entry.pending;
      entry.pending = undefined;
      entry.timer = this.arm(key);
      this.emit(value);
    }, this.intervalMs);
    timer.unref();
    return timer;
  }
}

type ReadEvent = Extract<RoomEvent, { type: 'read' }>;

export class RoomEvents {
  private readonly reads: Coalescer<ReadEvent>;

  constructor(private readonly publisher: Publisher) {
    this.reads = new Coalescer<ReadEvent>(
      LIMITS.readEventIntervalMs,
      (event) => this.publish(event.chatRoomId, event),
      (older, newer) => (newer.lastReadSeq >= older.lastReadSeq ? newer : older),
    );
  }

  /** A member is typing (already throttled by the caller). */
  typing(chatRoomId: number, userId: number, name: string): void {
    this.publish(chatRoomId, { type: 'typing', chatRoomId, userId, name });
  }

  /** A member came online or went offline: told in each of their rooms. */
  presence(chatRoomIds: readonly number[], userId: number, online: boolean): void {
    for (const chatRoomId of chatRoomIds) this.publish(chatRoomId, { type: 'presence', userId, online });
  }

  /** A message's text was edited. */
  messageEdited(chatRoomId: number, messageId: number, content: string, editedAtMs: number, changeSeq: number): void {
    this.publish(chatRoomId, { type: 'edited', chatRoomId, messageId, content, editedAt: new Date(editedAtMs).toISOString(), changeSeq });
  }

  /** A message was deleted for everyone. */
  messageDeleted(chatRoomId: number, messageId: number, changeSeq: number): void {
    this.publish(chatRoomId, { type: 'deleted', chatRoomId, messageId, changeSeq });
  }

  /** A member set (on) or cleared a reaction. */
  reaction(chatRoomId: number, messageId: number, userId: number, emoji: Reaction, on: boolean, changeSeq: number): void {
    this.publish(chatRoomId, { type: 'reaction', chatRoomId, messageId, userId, emoji, on, changeSeq });
  }

  /** A member's read position moved. */
  read(chatRoomId: number, userId: number, lastReadSeq: number): void {
    this.reads.push(`${chatRoomId}:${userId}`, { type: 'read', chatRoomId, userId, lastReadSeq });
  }

  stop(): void {
    this.reads.clear();
  }

  private publish(chatRoomId: number, event: RoomEvent): void {
    this.publisher.publish(topics.chatRoomEvents(chatRoomId), event);
  }
}
