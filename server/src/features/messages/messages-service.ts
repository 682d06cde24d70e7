// Sending and reading messages. Every message of a room, user or system, goes through the
// room's queue: committed first, then published, before the next one of that room starts, so
// receivers see a room's messages in id order and nothing is broadcast that was not stored.
import type { ChatHistoryResponse, ChatMessage } from '../../../../common/api';
import { topics } from '../../../../common/destinations';
import { LIMITS } from '../../../../common/rules';
import type { Publisher } from '../../stomp/api';
import { forbidden } from '../../transport/errors';
import type { Clock } from '../index';
import { NotAMemberError, type PresenceService } from '../presence/presence-service';
import type { ChatUser, RoomsRepository } from '../rooms/rooms-repository';
import { KeyedQueue } from './keyed-queue';
import type { MembersCache } from './members-cache';
import type { HistoryPage, Message, MessagesRepository } from './messages-repository';

/** The wire form of a message, on the room topic and in history. */
export function toChatMessage(m: Message): ChatMessage & { chatRoomId: number } {
  const out: ChatMessage & { chatRoomId: number } = {
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

export interface SystemMessage {
  roomName: string;
  content: string;
  leftUserId?: number;
  addedUserEmail?: string;
}

export interface MessagesServiceDeps {
  messages: MessagesRepository;
  rooms: RoomsRepository;
  members: MembersCache;
  presence: PresenceService;
  publisher: Publisher;
  clock: Clock;
}

export class MessagesService {
  private readonly queue = new KeyedQueue<number>();

  constructor(private readonly deps: MessagesServiceDeps) {}

  /**
   * Stores a user's message and publishes it. A retried clientMsgId is not stored again: the
   * stored message is re-sent to the sender's own sessions only. Throws NotAMemberError.
   */
  sendUserMessage(senderId: number, roomId: number, content: string, clientMsgId: string | null): Promise<Message> {
    return this.queue.run(roomId, async () => {
      const { messages, members, publisher } = this.deps;
      const atMs = this.deps.clock();
      const result = await messages.insertUserMessage({ roomId, senderId, content, clientMsgId, atMs });
      if (result.kind === 'notMember') throw new NotAMemberError();
      if (result.kind === 'duplicate') {
        const stored = await messages.findById(result.id);
        if (!stored) throw new Error(`message ${result.id} vanished`);
        publisher.publishToUser(senderId, topics.privateChat(stored.roomId), toChatMessage(stored));
        return stored;
      }
      const roomMembers = await members.get(roomId, senderId);
      const sender = roomMembers.find((u) => u.id === senderId);
      const message: Message = {
        id: result.id, roomId, senderId, senderName: sender?.name ?? '', content, createdAtMs: atMs,
        clientMsgId, leftUserId: null, addedUserEmail: null,
      };
      this.fanOut(message, roomMembers);
      return message;
    });
  }

  /** Stores and publishes a system message (rename, add, leave) in the room's order. */
  postSystemMessage(roomId: number, system: SystemMessage): Promise<Message> {
    return this.queue.run(roomId, async () => {
      const atMs = this.deps.clock();
      const id = await this.deps.messages.insertSystemMessage({
        roomId, content: system.content, leftUserId: system.leftUserId, addedUserEmail: system.addedUserEmail, atMs,
      });
      const message: Message = {
        id, roomId, senderId: null, senderName: system.roomName, content: system.content, createdAtMs: atMs,
        clientMsgId: null, leftUserId: system.leftUserId ?? null, addedUserEmail: system.addedUserEmail ?? null,
      };
      this.fanOut(message, await this.deps.members.get(roomId));
      return message;
    });
  }

  /** A page of history for a member (403 otherwise); loading it marks the room read. */
  async history(userId: number, roomId: number, which: HistoryPage): Promise<ChatHistoryResponse> {
    const { rooms, messages } = this.deps;
    const users = await rooms.members(roomId);
    if (!users.some((u) => u.id === userId)) throw forbidden('not a member of this chat room');
    const roomName = (await rooms.roomName(roomId)) ?? '';
    const page = await messages.page(roomId, which, LIMITS.historyPageSize);
    const total = await messages.count(roomId);
    await rooms.markAllRead(roomId, userId, this.deps.clock());
    return {
      totalPages: Math.ceil(total / LIMITS.historyPageSize),
      chatRoomName: roomName,
      users: users.map((u) => ({ userId: u.id, name: u.name, email: u.email })),
      messages: page.map(toChatMessage),
    };
  }

  private fanOut(message: Message, roomMembers: ChatUser[]): void {
    const { publisher, presence } = this.deps;
    publisher.publish(topics.privateChat(message.roomId), toChatMessage(message));
    for (const member of roomMembers) publisher.publish(topics.toggleRefresh(member.id), 'true');
    presence.messagePublished(message.roomId, message.id, message.createdAtMs);
  }
}
