// Sending a message into a room. Every message, user or system, goes through the writer:
// committed first (taking the room's next seq), then published in seq order, so receivers see a
// room's messages in seq order and nothing is broadcast that was not stored.
import type { RefreshSignals } from './refresh-signals';
import { topics } from '@common/destinations';
import { toAttachment, type AttachmentFacts, type AttachmentPort } from '../attachments/attachments-service';
import { isDuplicateKey } from '../../db/errors';
import { InvalidError } from '../errors';
import type { ChatMessageEvent } from '@common/payloads';
import type { Publisher } from '../../stomp/api';
import type { Clock } from '../types';
import { memberAmong } from './membership';
import type { MembersCache } from './members-cache';
import type { MessageWriter } from './message-writer';
import { authorOf, type Message, type MessagesRepository, type NewMessage, type RepliedMessage, type StoredMessage } from './messages-repository';
import type { ReadMarkers } from './read-markers';
import { repliedMessage, toReplyQuote } from './reply';
import type { ChatUser } from './rooms-repository';
import type { SystemMessage } from './system-messages';

/** The wire form of a message, on the room topic and in history. */
export function toChatMessage(m: Message): ChatMessageEvent {
  const out: ChatMessageEvent = {
    messageId: m.id,
    chatRoomId: m.roomId,
    seq: m.seq,
    senderId: m.senderId,
    senderName: m.senderName,
    content: m.content,
    enrolledAt: new Date(m.createdAtMs).toISOString(),
    clientMsgId: m.clientMsgId,
  };
  if (m.leftUserId !== null) out.leftUserId = m.leftUserId;
  if (m.addedUserEmail !== null) out.addedUserEmail = m.addedUserEmail;
  if (m.systemEvent !== null) out.systemEvent = m.systemEvent;
  if (m.editedAtMs != null) out.editedAt = new Date(m.editedAtMs).toISOString();
  if (m.changeSeq != null) out.changeSeq = m.changeSeq;
  // A deleted message keeps its place and nothing else: no text, quote or reactions.
  if (m.deletedAtMs != null) {
    out.deleted = true;
    out.content = '';
  } else {
    if (m.replyTo) out.replyTo = toReplyQuote(m.replyTo);
    if (m.attachment) out.attachment = toAttachment(m.attachment);
  }
  return out;
}

function stored({ id, seq }: StoredMessage, row: NewMessage, senderName: string, replyTo: RepliedMessage | null = null, attachment: AttachmentFacts | null = null): Message {
  return {
    attachment,
    id, seq, roomId: row.roomId, senderId: row.senderId, senderName, content: row.content, createdAtMs: row.atMs,
    clientMsgId: row.clientMsgId, leftUserId: row.leftUserId, addedUserEmail: row.addedUserEmail, systemEvent: row.systemEvent, replyTo,
  };
}

export interface MessageSenderDeps {
  messages: MessagesRepository;
  writer: MessageWriter;
  members: MembersCache;
  readMarkers: ReadMarkers;
  publisher: Publisher;
  /** Each member's "reload the chat list", at most once a second. */
  refresh: Pick<RefreshSignals, 'signal'>;
  clock: Clock;
  /** Told of each user message after it is published (Web Push for members with no open connection). */
  published?(message: Message, members: readonly ChatUser[]): void;
  /** Claims an uploaded attachment for a message; absent: messages carry none. */
  attachments?: AttachmentPort;
}

export class MessageSender {
  constructor(private readonly deps: MessageSenderDeps) {}

  /**
   * Stores a member's message and publishes it. A retried clientMsgId is not stored again: the
   * stored message is re-sent to the sender's own sessions only. Throws NotAMemberError.
   */
  async sendUserMessage(
    senderId: number, roomId: number, content: string, clientMsgId: string | null, replyToId: number | null = null, attachmentId: string | null = null,
  ): Promise<void> {
    const { members, writer, messages, publisher } = this.deps;
    const roomMembers = await members.get(roomId, senderId);
    const sender = memberAmong(roomMembers, senderId);
    const replyTo = replyToId === null ? null : await repliedMessage(messages, roomId, replyToId);
    const attachment = attachmentId === null ? null : await this.claim(senderId, roomId, attachmentId, clientMsgId);
    const row: NewMessage = {
      roomId, senderId, content, clientMsgId, leftUserId: null, addedUserEmail: null, systemEvent: null, atMs: this.deps.clock(), replyToId, attachmentId: attachment?.id ?? null,
    };
    const outcome = await writer.write(row, (ids) => this.fanOut(stored(ids, row, sender.name, replyTo, attachment), roomMembers)).catch((err: unknown) => {
      // Two messages racing with one attachment: the unique attachment_id lets one through.
      if (attachmentId !== null && isDuplicateKey(err)) throw new InvalidError('the attachment was sent already');
      throw err;
    });
    if (outcome.kind === 'duplicate') {
      const original = await messages.findById(outcome.id);
      if (original) publisher.publishToUser(senderId, topics.privateChat(original.roomId), toChatMessage(original));
    }
  }

  private async claim(senderId: number, roomId: number, attachmentId: string, clientMsgId: string | null): Promise<AttachmentFacts> {
    if (!this.deps.attachments) throw new InvalidError('attachments are not available');
    return this.deps.attachments.claim(senderId, roomId, attachmentId, clientMsgId);
  }

  /** Stores and publishes a system message (rename, add, leave) in the room's order. */
  async postSystemMessage(roomId: number, system: SystemMessage): Promise<void> {
    const roomMembers = await this.deps.members.get(roomId);
    const row: NewMessage = {
      roomId, senderId: null, content: system.content, clientMsgId: null,
      leftUserId: system.leftUserId ?? null, addedUserEmail: system.addedUserEmail ?? null,
      systemEvent: system.systemEvent, atMs: this.deps.clock(),
    };
    await this.deps.writer.write(row, (ids) => {
      const message = stored(ids, row, system.roomName);
      if (message.leftUserId !== null) this.tellLeaver(message.leftUserId, message);
      this.fanOut(message, roomMembers);
    });
  }

  /** A leave from a room that was deleted because it became empty: only the leaver's tabs hear of it. */
  tellLeaverOfDeletedRoom(roomId: number, leaverId: number, system: SystemMessage): void {
    // Nothing can be stored for a deleted room, so the event has no message id or seq (0).
    this.tellLeaver(leaverId, {
      id: 0, seq: 0, roomId, senderId: null, senderName: system.roomName, content: system.content, createdAtMs: this.deps.clock(),
      clientMsgId: null, leftUserId: leaverId, addedUserEmail: null, systemEvent: system.systemEvent,
    });
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
    const { publisher, readMarkers } = this.deps;
    publisher.publish(topics.privateChat(message.roomId), toChatMessage(message));
    for (const member of roomMembers) this.deps.refresh.signal(member.id);
    readMarkers.messagePublished(message.roomId, message.seq, message.createdAtMs, authorOf(message));
    if (message.senderId !== null) this.deps.published?.(message, roomMembers);
  }
}
