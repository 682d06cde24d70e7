// Sending a message into a room. Every message, user or system, goes through the writer:
// committed first (taking the room's next seq), then published in seq order, so receivers see a
// room's messages in seq order and nothing is broadcast that was not stored.
import type { RefreshSignals } from './refresh-signals';
import { topics } from '@common/destinations';
import { LIMITS } from '@common/rules';
import { isPhoto, toAttachment, type AttachmentFacts, type AttachmentPort } from '../attachments/attachments-service';
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
import { blockedQuote, quotesBlocked, repliedMessage, toReplyQuote } from './reply';
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
  if (m.forwarded) out.forwarded = true;
  if (m.editedAtMs != null) out.editedAt = new Date(m.editedAtMs).toISOString();
  if (m.changeSeq != null) out.changeSeq = m.changeSeq;
  // A deleted message keeps its place and nothing else: no text, quote or reactions.
  if (m.deletedAtMs != null) {
    out.deleted = true;
    out.content = '';
  } else {
    if (m.replyTo) out.replyTo = toReplyQuote(m.replyTo);
    if (m.attachment) out.attachment = toAttachment(m.attachment);
    if (m.attachments && m.attachments.length > 1) out.attachments = m.attachments.map(toAttachment);
    if (m.mentions && m.mentions.length > 0) out.mentions = m.mentions;
  }
  return out;
}

function stored({ id, seq }: StoredMessage, row: NewMessage, senderName: string, replyTo: RepliedMessage | null = null, attachments: AttachmentFacts[] = []): Message {
  return {
    attachment: attachments[0] ?? null, attachments: attachments.length > 1 ? attachments : null, mentions: row.mentions ?? null,
    id, seq, roomId: row.roomId, senderId: row.senderId, senderName, content: row.content, createdAtMs: row.atMs,
    clientMsgId: row.clientMsgId, leftUserId: row.leftUserId, addedUserEmail: row.addedUserEmail, systemEvent: row.systemEvent, replyTo,
    ...(row.forwarded ? { forwarded: true } : {}),
  };
}

/**
 * What a forward carries over from the message it forwards (forward-message.ts): its text and
 * its attachment, referenced (the original's row, not a copy).
 */
export interface ForwardedParts {
  content: string;
  /** Its photo or file, or the photos of an album, in order. */
  attachments: AttachmentFacts[];
}

/** The message's rows in message_attachments (the drawer reads them; an album's grid too). */
function attachmentRowsOf(attachments: readonly AttachmentFacts[]): Pick<NewMessage, 'attachmentRows'> {
  return attachments.length > 0 ? { attachmentRows: attachments.map((a) => ({ id: a.id, kind: isPhoto(a) ? 'photo' as const : 'file' as const })) } : {};
}

/**
 * The mentions a message keeps: current members other than the sender, each once, at most
 * LIMITS.mentionsPerMessage, in the order given; not a member who blocked the sender (they do
 * not receive the message at all).
 */
export function keptMentions(asked: readonly number[], roomMembers: readonly ChatUser[], senderId: number): number[] {
  const eligible = new Set(roomMembers.filter((m) => m.id !== senderId && m.blocks?.includes(senderId) !== true).map((m) => m.id));
  return [...new Set(asked)].filter((id) => eligible.has(id)).slice(0, LIMITS.mentionsPerMessage);
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
    mentions: readonly number[] = [], attachmentIds: readonly string[] | null = null,
  ): Promise<void> {
    const { members, messages } = this.deps;
    const roomMembers = await members.get(roomId, senderId);
    const sender = memberAmong(roomMembers, senderId);
    const mentioned = keptMentions(mentions, roomMembers, senderId);
    const replyTo = replyToId === null ? null : await repliedMessage(messages, roomId, replyToId, sender.visibleFromSeq ?? 0);
    const attachments = await this.claim(senderId, roomId, attachmentId, attachmentIds, clientMsgId);
    const row: NewMessage = {
      roomId, senderId, content, clientMsgId, leftUserId: null, addedUserEmail: null, systemEvent: null, atMs: this.deps.clock(), replyToId, attachmentId: attachments[0]?.id ?? null,
      ...attachmentRowsOf(attachments),
      ...(mentioned.length > 0 ? { mentions: mentioned } : {}),
    };
    await this.write(row, sender.name, roomMembers, replyTo, attachments);
  }

  /**
   * Stores a forward into a room and publishes it as any message of the sender is (the same
   * writer and fan-out: blocks, refresh, push and link previews alike). Its attachments are the
   * original's, referenced. Throws NotAMemberError. A retried clientMsgId is the usual duplicate.
   */
  async sendForward(senderId: number, roomId: number, parts: ForwardedParts, clientMsgId: string | null): Promise<void> {
    const roomMembers = await this.deps.members.get(roomId, senderId);
    const sender = memberAmong(roomMembers, senderId);
    const row: NewMessage = {
      roomId, senderId, content: parts.content, clientMsgId, leftUserId: null, addedUserEmail: null, systemEvent: null, atMs: this.deps.clock(),
      forwarded: true, forwardedAttachmentId: parts.attachments[0]?.id ?? null, ...attachmentRowsOf(parts.attachments),
    };
    await this.write(row, sender.name, roomMembers, null, parts.attachments);
  }

  private async write(row: NewMessage, senderName: string, roomMembers: ChatUser[], replyTo: RepliedMessage | null, attachments: AttachmentFacts[]): Promise<void> {
    const { writer, messages, publisher } = this.deps;
    const senderId = row.senderId!;
    const outcome = await writer.write(row, (ids) => this.fanOut(stored(ids, row, senderName, replyTo, attachments), roomMembers)).catch((err: unknown) => {
      // Two messages racing with one attachment: the unique attachment_id lets one through.
      if (row.attachmentId != null && isDuplicateKey(err)) throw new InvalidError('the attachment was sent already');
      throw err;
    });
    if (outcome.kind === 'duplicate') {
      const original = await messages.findById(outcome.id);
      if (original) publisher.publishToUser(senderId, topics.privateChat(original.roomId), toChatMessage(original));
    }
  }

  /** The attachment, or (ours) the photos sent at once, claimed for the message; none when neither is given. */
  private async claim(senderId: number, roomId: number, attachmentId: string | null, attachmentIds: readonly string[] | null, clientMsgId: string | null): Promise<AttachmentFacts[]> {
    if (attachmentId === null && attachmentIds === null) return [];
    if (!this.deps.attachments) throw new InvalidError('attachments are not available');
    if (attachmentIds !== null) {
      if (attachmentId !== null) throw new InvalidError('give attachmentId or attachmentIds, not both');
      return this.deps.attachments.claimPhotos(senderId, roomId, attachmentIds, clientMsgId);
    }
    return [await this.deps.attachments.claim(senderId, roomId, attachmentId!, clientMsgId)];
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

  /**
   * Publishes the message to the room's topic. A person's message in a room where someone
   * blocked them goes to each of the other members' own subscriptions instead (on every node,
   * through their user channels), so the one who blocked them never receives it; so does a
   * reply quoting someone a member blocked, that member's copy quoting nothing of theirs.
   */
  private fanOut(message: Message, roomMembers: ChatUser[]): void {
    const { publisher, readMarkers } = this.deps;
    const { senderId } = message;
    const blocking = (m: ChatUser) => senderId !== null && m.blocks?.includes(senderId) === true;
    const hidesQuote = (m: ChatUser) => quotesBlocked(message.replyTo, m.blocks);
    const hearing = roomMembers.some((m) => blocking(m) || hidesQuote(m)) ? roomMembers.filter((m) => !blocking(m)) : null;
    const topic = topics.privateChat(message.roomId);
    const event = toChatMessage(message);
    if (hearing === null) publisher.publish(topic, event);
    else for (const member of hearing) publisher.publishToUser(member.id, topic, hidesQuote(member) && event.replyTo ? { ...event, replyTo: blockedQuote(event.replyTo) } : event);
    for (const member of hearing ?? roomMembers) this.deps.refresh.signal(member.id);
    readMarkers.messagePublished(message.roomId, message.seq, message.createdAtMs, authorOf(message));
    if (message.senderId !== null) this.deps.published?.(message, roomMembers);
  }
}
