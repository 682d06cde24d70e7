// What a room's members learn about each other beside the messages, on the room-events topic
// (docs/protocol.md, /topic/chat-room-events/{id}): read positions, typing, presence, and
// the changes of messages (edited, deleted, reactions). The one
// place these events are published, so a cluster bus can carry them from here. Read events
// are coalesced per member: at most one a second, the newest position winning.
import type { RoomNotice } from '@common/api';
import { topics } from '@common/destinations';
import type { RoomEvent } from '@common/payloads';
import { LIMITS, type Reaction } from '@common/rules';
import type { Publisher } from '../../stomp/api';
import type { ChatUser } from './rooms-repository';

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

  /** A member is typing (already throttled by the caller); `members`: the room's, to leave out whoever blocked them. */
  typing(chatRoomId: number, userId: number, name: string, members?: readonly ChatUser[]): void {
    this.publishFrom(chatRoomId, [userId], { type: 'typing', chatRoomId, userId, name }, members);
  }

  /** A member came online or went offline: told in a room; `members`: the room's, to leave out whoever blocked them. */
  presence(chatRoomId: number, userId: number, online: boolean, members?: readonly ChatUser[]): void {
    this.publishFrom(chatRoomId, [userId], { type: 'presence', userId, online }, members);
  }

  /** A message's text was edited. */
  messageEdited(chatRoomId: number, messageId: number, content: string, editedAtMs: number, changeSeq: number, author?: { userId: number; members: readonly ChatUser[] }): void {
    this.publishFrom(chatRoomId, [author?.userId ?? null], { type: 'edited', chatRoomId, messageId, content, editedAt: new Date(editedAtMs).toISOString(), changeSeq }, author?.members);
  }

  /** A message was deleted for everyone (by its author: kept, like the message, from whoever blocked them). */
  messageDeleted(chatRoomId: number, messageId: number, changeSeq: number, author?: { userId: number; members: readonly ChatUser[] }): void {
    this.publishFrom(chatRoomId, [author?.userId ?? null], { type: 'deleted', chatRoomId, messageId, changeSeq }, author?.members);
  }

  /** A member set (on) or cleared a reaction on a message of `authorId` (kept from whoever blocked either). */
  reaction(chatRoomId: number, messageId: number, userId: number, emoji: Reaction, on: boolean, changeSeq: number, members?: readonly ChatUser[], authorId: number | null = null): void {
    this.publishFrom(chatRoomId, [userId, authorId], { type: 'reaction', chatRoomId, messageId, userId, emoji, on, changeSeq }, members);
  }

  /**
   * The room's notice was set, or removed (null). `of`: the message's sender and the room's
   * members; a member who blocked the sender hears it as removed (member by member, as publishFrom).
   */
  notice(chatRoomId: number, notice: RoomNotice | null, of?: { senderId: number; members: readonly ChatUser[] }): void {
    const hidden = (m: ChatUser) => of !== undefined && m.blocks?.includes(of.senderId) === true;
    if (!of?.members.some(hidden)) {
      this.publish(chatRoomId, { type: 'notice', chatRoomId, notice });
      return;
    }
    for (const m of of.members) this.publisher.publishToUser(m.id, topics.chatRoomEvents(chatRoomId), { type: 'notice', chatRoomId, notice: hidden(m) ? null : notice });
  }

  /** Ours: the user hid a message for themselves (delete for me): their own subscriptions (every tab, every node) alone hear it. */
  hidden(chatRoomId: number, userId: number, messageId: number): void {
    this.publisher.publishToUser(userId, topics.chatRoomEvents(chatRoomId), { type: 'hidden', chatRoomId, messageId });
  }

  /** A member's read position moved. */
  read(chatRoomId: number, userId: number, lastReadSeq: number): void {
    this.reads.push(`${chatRoomId}:${userId}`, { type: 'read', chatRoomId, userId, lastReadSeq });
  }

  stop(): void {
    this.reads.clear();
  }

  /**
   * What a member did (or did to someone's message), kept from members who blocked any of
   * `actors` (docs/protocol.md, blocks): in a room where one did, sent to each other member's
   * own subscriptions (as send-message.ts does with messages); elsewhere, or without the
   * members, to the topic.
   */
  private publishFrom(chatRoomId: number, actors: ReadonlyArray<number | null>, event: RoomEvent, members: readonly ChatUser[] = []): void {
    const blocking = (m: ChatUser) => actors.some((id) => id !== null && m.blocks?.includes(id) === true);
    if (!members.some(blocking)) {
      this.publish(chatRoomId, event);
      return;
    }
    for (const m of members) if (!blocking(m)) this.publisher.publishToUser(m.id, topics.chatRoomEvents(chatRoomId), event);
  }

  private publish(chatRoomId: number, event: RoomEvent): void {
    this.publisher.publish(topics.chatRoomEvents(chatRoomId), event);
  }
}
