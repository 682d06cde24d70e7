// Sending and reading messages. Every message, user or system, goes through the writer:
// committed first, then published in id order, so receivers see a room's messages in
// messageId order and nothing is broadcast that was not stored.
import type { ChatHistoryResponse } from '../../../../common/api';
import { topics } from '../../../../common/destinations';
import type { ChatMessageEvent } from '../../../../common/payloads';
import { LIMITS } from '../../../../common/rules';
import type { Publisher } from '../../stomp/api';
import { forbidden } from '../../transport/errors';
import type { Clock } from '../index';
import { NotAMemberError, type PresenceService } from '../presence/presence-service';
import type { ChatUser, RoomsRepository } from '../rooms/rooms-repository';
import type { MembersCache } from './members-cache';
import type { MessageWriter } from './message-writer';
import type { HistoryPage, Message, MessagesRepository, NewMessage } from './messages-repository';

/** The wire form of a message, on the room topic and in history. */
export function toChatMessage(m: Message): ChatMessageEvent {
  const out: ChatMessageEvent = {
    messageId: m.id,
    chatRoomId: m.roomId,
    senderId: m.senderId,
    senderName: m.senderName,
    content: m.content,
    enrolledAt: new Date(m.createdAtMs).toISOString(),
    clientMsgId: m.clientMsgId,
  };
  if (m.leftUserId !== null) out.leftUserId = m.leftUserId;
  if (m.addedUserEmail !== null) out.addedUserEmail = m.addedUserEmail;
  return out;
}

function toMessage(id: number, row: NewMessage, senderName: string): Message {
  return {
    id, roomId: row.roomId, senderId: row.senderId, senderName, content: row.content, createdAtMs: row.atMs,
    clientMsgId: row.clientMsgId, leftUserId: row.leftUserId, addedUserEmail: row.addedUserEmail,
  };
}

export interface SystemMessage {
  roomName: string;
  content: string;
  leftUserId?: number;
  addedUserEmail?: string;
}

export interface MessagesServiceDeps {
  messages: MessagesRepository;
  writer: MessageWriter;
  rooms: RoomsRepository;
  members: MembersCache;
  presence: PresenceService;
  publisher: Publisher;
  clock: Clock;
}

export class MessagesService {
  constructor(private readonly deps: MessagesServiceDeps) {}

  /**
   * Stores a user's message and publishes it. A retried clientMsgId is not stored again: the
   * stored message is re-sent to the sender's own sessions only. Throws NotAMemberError.
   */
  async sendUserMessage(senderId: number, roomId: number, content: string, clientMsgId: string | null): Promise<void> {
    const { members, writer, messages, publisher } = this.deps;
    const roomMembers = await members.get(roomId, senderId);
    const sender = roomMembers.find((u) => u.id === senderId);
    if (!sender) throw new NotAMemberError();
    const row: NewMessage = { roomId, senderId, content, clientMsgId, leftUserId: null, addedUserEmail: null, atMs: this.deps.clock() };
    const outcome = await writer.write(row, (id) => this.fanOut(toMessage(id, row, sender.name), roomMembers));
    if (outcome.kind === 'duplicate') {
      const stored = await messages.findById(outcome.id);
      if (stored) publisher.publishToUser(senderId, topics.privateChat(stored.roomId), toChatMessage(stored));
    }
  }

  /** Stores and publishes a system message (rename, add, leave) in the room's order. */
  async postSystemMessage(roomId: number, system: SystemMessage): Promise<void> {
    const roomMembers = await this.deps.members.get(roomId);
    const row: NewMessage = {
      roomId, senderId: null, content: system.content, clientMsgId: null,
      leftUserId: system.leftUserId ?? null, addedUserEmail: system.addedUserEmail ?? null, atMs: this.deps.clock(),
    };
    await this.deps.writer.write(row, (id) => {
      const message = toMessage(id, row, system.roomName);
      if (message.leftUserId !== null) this.tellLeaver(message.leftUserId, message);
      this.fanOut(message, roomMembers);
    });
  }

  /** A leave from a room that was deleted because it became empty: only the leaver's tabs hear of it. */
  tellLeaverOfDeletedRoom(roomId: number, leaverId: number, system: SystemMessage): void {
    // Nothing can be stored for a deleted room, so the event has no message id (0).
    this.tellLeaver(leaverId, {
      id: 0, roomId, senderId: null, senderName: system.roomName, content: system.content, createdAtMs: this.deps.clock(),
      clientMsgId: null, leftUserId: leaverId, addedUserEmail: null,
    });
  }

  /** A page of history for a member (403 otherwise); loading it marks the room read. */
  async history(userId: number, roomId: number, which: HistoryPage): Promise<ChatHistoryResponse> {
    const { rooms, messages } = this.deps;
    // The statements are independent, so they run at once: opening a room costs one round
    // trip's latency, not five. The read marker is keyed by (room, user), so for a non-member
    // it changes nothing before the 403 below.
    const [users, roomName, page, total] = await Promise.all([
      rooms.members(roomId),
      rooms.roomName(roomId),
      messages.page(roomId, which, LIMITS.historyPageSize),
      messages.count(roomId),
      rooms.markAllRead(roomId, userId, this.deps.clock()),
    ]);
    if (!users.some((u) => u.id === userId)) throw forbidden('not a member of this chat room');
    return {
      totalPages: Math.ceil(total / LIMITS.historyPageSize),
      chatRoomName: roomName ?? '',
      users: users.map((u) => ({ userId: u.id, name: u.name, email: u.email })),
      messages: page.map(toChatMessage),
    };
  }

  /**
   * The leaver's own subscriptions get their leave message directly (their other tabs close the
   * room on its leftUserId), then end, so the room-wide publish after it does not reach them:
   * they see it exactly once, however the transport batches topic messages.
   */
  private tellLeaver(leaverId: number, message: Message): void {
    const topic = topics.privateChat(message.roomId);
    this.deps.publisher.publishToUser(leaverId, topic, toChatMessage(message));
    this.deps.publisher.unsubscribeUser(leaverId, topic);
  }

  private fanOut(message: Message, roomMembers: ChatUser[]): void {
    const { publisher, presence } = this.deps;
    publisher.publish(topics.privateChat(message.roomId), toChatMessage(message));
    for (const member of roomMembers) publisher.publish(topics.toggleRefresh(member.id), 'true');
    presence.messagePublished(message.roomId, message.id, message.createdAtMs);
  }
}
