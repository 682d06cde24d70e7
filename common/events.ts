// Decoders for everything the server sends (docs/spec.md §7 subscriptions, and our additions in
// docs/protocol.md). Clients trust the shape of nothing they did not check: each decoder takes
// a MESSAGE body already parsed as JSON and answers the typed event, or null when the body is
// not one. Unknown extra fields are ignored. Used by the browser client and the harness alike.
import { api, CALL_MEDIA, CALL_OUTCOMES, type Attachment, type CallMedia, type CallOutcome, type ChatMessage, type LinkPreview, type ReactionSummary, type ReplyQuote, type MemberSystemEvent, type RoomNotice, type SystemEvent, type SystemEventType } from './api';
import type { CallSignal } from './destinations';
import { HANGUP_REASONS, type CallEvent, type ChatMessageEvent, type RoomEvent } from './payloads';
import { isReaction, LIMITS, toAttachmentId, toPositiveId } from './rules';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const optionalString = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** A STOMP body as JSON, or undefined when it is not JSON at all. */
export function parseJson(body: string): unknown {
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return undefined;
  }
}

const MEMBER_EVENT_TYPES: readonly SystemEventType[] = ['renamed', 'added', 'left'];

/** The structured form of a system message; undefined when absent or malformed. */
export function decodeSystemEvent(value: unknown): SystemEvent | undefined {
  if (!isObject(value)) return undefined;
  const type = value.type as SystemEventType;
  if (type === 'call') return decodeCallSystemEvent(value);
  if (type === 'groupCall') return decodeGroupCallSystemEvent(value);
  const actorUserId = toPositiveId(value.actorUserId);
  if (!MEMBER_EVENT_TYPES.includes(type) || actorUserId === null || typeof value.actorName !== 'string') return undefined;
  const event: MemberSystemEvent = { type, actorUserId, actorName: value.actorName };
  if (type === 'added') {
    const targetUserId = toPositiveId(value.targetUserId);
    if (targetUserId === null || typeof value.targetName !== 'string') return undefined;
    event.targetUserId = targetUserId;
    event.targetName = value.targetName;
  }
  if (type === 'renamed') {
    if (typeof value.newName !== 'string') return undefined;
    event.newName = value.newName;
  }
  return event;
}

/** A call's record in its room (ours); undefined when malformed. */
function decodeCallSystemEvent(value: Json): SystemEvent | undefined {
  const callerUserId = toPositiveId(value.callerUserId);
  const { media, outcome, durationSec } = value;
  if (callerUserId === null || !CALL_MEDIA.includes(media as CallMedia) || !CALL_OUTCOMES.includes(outcome as CallOutcome)) return undefined;
  if (typeof durationSec !== 'number' || !Number.isSafeInteger(durationSec) || durationSec < 0) return undefined;
  // The actor is the caller; a record without one still reads.
  const actorName = typeof value.actorName === 'string' ? value.actorName : '';
  return { type: 'call', actorUserId: callerUserId, actorName, media: media as CallMedia, outcome: outcome as CallOutcome, durationSec, callerUserId };
}

/** A group call's record in its room (ours); undefined when malformed. */
function decodeGroupCallSystemEvent(value: Json): SystemEvent | undefined {
  const actorUserId = toPositiveId(value.actorUserId);
  const { media, durationSec, participantCount } = value;
  if (actorUserId === null || !CALL_MEDIA.includes(media as CallMedia)) return undefined;
  if (typeof durationSec !== 'number' || !Number.isSafeInteger(durationSec) || durationSec < 0) return undefined;
  if (typeof participantCount !== 'number' || !Number.isSafeInteger(participantCount) || participantCount < 1) return undefined;
  const actorName = typeof value.actorName === 'string' ? value.actorName : '';
  return { type: 'groupCall', actorUserId, actorName, media: media as CallMedia, durationSec, participantCount };
}

/** A sender or leaver id: a number, or null/absent (system messages have no sender; 0 in older data). */
function nullableNumber(v: unknown): v is number | null | undefined {
  return v === undefined || v === null || typeof v === 'number';
}

/**
 * A message on /topic/private-chat/{chatRoomId} (or in history), or null when it is not a
 * message of that room.
 */
export function decodeChatMessage(value: unknown, chatRoomId: number): ChatMessageEvent | null {
  if (!isObject(value)) return null;
  const m = value;
  if (typeof m.messageId !== 'number' || typeof m.content !== 'string' || typeof m.enrolledAt !== 'string') return null;
  if (m.chatRoomId !== undefined && m.chatRoomId !== chatRoomId) return null;
  if (!nullableNumber(m.senderId) || !nullableNumber(m.leftUserId)) return null;
  const message: ChatMessage & { chatRoomId: number } = {
    messageId: m.messageId,
    chatRoomId,
    senderId: m.senderId ?? null,
    senderName: optionalString(m.senderName) ?? '',
    content: m.content,
    enrolledAt: m.enrolledAt,
    clientMsgId: optionalString(m.clientMsgId) ?? null,
  };
  if (typeof m.seq === 'number' && Number.isSafeInteger(m.seq) && m.seq >= 0) message.seq = m.seq;
  if (typeof m.leftUserId === 'number') message.leftUserId = m.leftUserId;
  if (typeof m.addedUserEmail === 'string') message.addedUserEmail = m.addedUserEmail;
  const systemEvent = decodeSystemEvent(m.systemEvent);
  if (systemEvent) message.systemEvent = systemEvent;
  if (typeof m.editedAt === 'string') message.editedAt = m.editedAt;
  if (m.deleted === true) message.deleted = true;
  const replyTo = decodeReplyQuote(m.replyTo);
  if (replyTo) message.replyTo = replyTo;
  const reactions = decodeReactions(m.reactions);
  if (reactions) message.reactions = reactions;
  const changeSeq = toSeq(m.changeSeq);
  if (changeSeq !== null) message.changeSeq = changeSeq;
  const attachment = decodeAttachment(m.attachment);
  if (attachment && message.deleted !== true) message.attachment = attachment;
  // Ours: several photos sent at once; malformed ones are left out, and a list of one is none.
  if (Array.isArray(m.attachments) && message.deleted !== true) {
    const album = (m.attachments as unknown[]).slice(0, LIMITS.photosPerMessage).map(decodeAttachment).filter((x): x is Attachment => x !== undefined);
    if (album.length > 1) message.attachments = album;
  }
  const mentions = decodeMentions(m.mentions);
  if (mentions) message.mentions = mentions;
  const linkPreview = decodeLinkPreview(m.linkPreview);
  if (linkPreview && message.deleted !== true) message.linkPreview = linkPreview;
  if (m.forwarded === true) message.forwarded = true;
  return message;
}

const PREVIEW_IMAGE = /^\/api\/link-previews\/[A-Za-z0-9_-]{22}\/image$/;

/**
 * A link preview (ours); a malformed one is left out. The link must be http(s), and the image
 * our own path: a preview never makes the client load anything from elsewhere.
 */
export function decodeLinkPreview(value: unknown): LinkPreview | undefined {
  if (!isObject(value) || typeof value.url !== 'string' || !/^https?:\/\//i.test(value.url)) return undefined;
  const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);
  const imageUrl = typeof value.imageUrl === 'string' && PREVIEW_IMAGE.test(value.imageUrl) ? value.imageUrl : null;
  return { url: value.url, title: text(value.title), description: text(value.description), siteName: text(value.siteName), imageUrl };
}

/** A message's mentioned members (ours); absent when none or malformed. */
function decodeMentions(value: unknown): number[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const ids = value.map(toPositiveId).filter((id): id is number => id !== null);
  return ids.length > 0 ? ids : undefined;
}

/** A room's notice (ours: history's `notice`, the notice event); null when none or malformed. */
export function decodeRoomNotice(value: unknown): RoomNotice | null {
  if (!isObject(value)) return null;
  const messageId = toPositiveId(value.messageId);
  if (messageId === null || typeof value.content !== 'string' || typeof value.setByName !== 'string' || typeof value.setAt !== 'string') return null;
  return { messageId, content: value.content, setByName: value.setByName, setAt: value.setAt };
}

/** A message's attachment; a malformed one is left out. Its addresses must be our own paths. */
export function decodeAttachment(value: unknown): Attachment | undefined {
  if (!isObject(value)) return undefined;
  const attachmentId = toAttachmentId(value.attachmentId);
  if (attachmentId === null || typeof value.name !== 'string' || typeof value.contentType !== 'string') return undefined;
  if (typeof value.size !== 'number' || !Number.isSafeInteger(value.size) || value.size < 0) return undefined;
  if (value.url !== api.attachment(attachmentId)) return undefined;
  const out: Attachment = { attachmentId, name: value.name, size: value.size, contentType: value.contentType, url: value.url };
  if (value.thumbnailUrl === api.attachmentThumbnail(attachmentId)) out.thumbnailUrl = value.thumbnailUrl;
  const pixels = (v: unknown) => typeof v === 'number' && Number.isSafeInteger(v) && v > 0;
  if (pixels(value.width) && pixels(value.height)) {
    out.width = value.width as number;
    out.height = value.height as number;
  }
  // A voice message: its length and 64 levels 0..255; either malformed, it is a plain file.
  const levels = value.waveform;
  if (value.kind === 'voice' && typeof value.durationMs === 'number' && Number.isSafeInteger(value.durationMs) && value.durationMs > 0
    && Array.isArray(levels) && levels.length === 64 && levels.every((l) => typeof l === 'number' && Number.isInteger(l) && l >= 0 && l <= 255)) {
    out.kind = 'voice';
    out.durationMs = value.durationMs;
    out.waveform = levels as number[];
  }
  return out;
}

/** A reply's quote; a malformed one is left out. */
export function decodeReplyQuote(value: unknown): ReplyQuote | undefined {
  if (!isObject(value)) return undefined;
  const messageId = toPositiveId(value.messageId);
  if (messageId === null || typeof value.senderName !== 'string' || typeof value.content !== 'string') return undefined;
  const quote: ReplyQuote = { messageId, senderName: value.senderName, content: value.content };
  if (value.deleted === true) quote.deleted = true;
  if (value.blocked === true) quote.blocked = true;
  return quote;
}

/** The known reactions with their user ids; anything malformed is left out. */
function decodeReactions(value: unknown): ReactionSummary[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const out: ReactionSummary[] = [];
  for (const r of value) {
    if (!isObject(r) || !isReaction(r.emoji) || !Array.isArray(r.userIds)) continue;
    const userIds = r.userIds.map(toPositiveId).filter((id): id is number => id !== null);
    if (userIds.length > 0) out.push({ emoji: r.emoji, userIds });
  }
  return out;
}

/** A seq or read position: a non-negative integer. */
const toSeq = (v: unknown): number | null => (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : null);

/**
 * A message on /topic/chat-room-events/{chatRoomId}, or null when it is not one of that room's
 * events (an unknown type included: newer servers may add some).
 */
export function decodeRoomEvent(value: unknown, chatRoomId: number): RoomEvent | null {
  if (!isObject(value)) return null;
  if (value.type === 'edited' || value.type === 'deleted' || value.type === 'reaction') {
    return value.chatRoomId === chatRoomId ? decodeMessageChange(value, chatRoomId) : null;
  }
  if (value.type === 'linkPreview') {
    const messageId = toPositiveId(value.messageId);
    const linkPreview = decodeLinkPreview(value.linkPreview);
    return value.chatRoomId === chatRoomId && messageId !== null && linkPreview ? { type: 'linkPreview', chatRoomId, messageId, linkPreview } : null;
  }
  if (value.type === 'hidden') {
    const messageId = toPositiveId(value.messageId);
    return value.chatRoomId === chatRoomId && messageId !== null ? { type: 'hidden', chatRoomId, messageId } : null;
  }
  if (value.type === 'resync') return value.chatRoomId === chatRoomId ? { type: 'resync', chatRoomId } : null;
  if (value.type === 'notice') {
    if (value.chatRoomId !== chatRoomId) return null;
    const notice = decodeRoomNotice(value.notice);
    // null removes the notice; anything else malformed is not an event.
    return notice !== null || value.notice === null ? { type: 'notice', chatRoomId, notice } : null;
  }
  const userId = toPositiveId(value.userId);
  if (userId === null) return null;
  if (value.type === 'presence') return typeof value.online === 'boolean' ? { type: 'presence', userId, online: value.online } : null;
  if (value.chatRoomId !== chatRoomId) return null;
  if (value.type === 'read') {
    const lastReadSeq = toSeq(value.lastReadSeq);
    return lastReadSeq === null ? null : { type: 'read', chatRoomId, userId, lastReadSeq };
  }
  if (value.type === 'typing') return typeof value.name === 'string' ? { type: 'typing', chatRoomId, userId, name: value.name } : null;
  return null;
}

/** The events about a message (edited, deleted, reaction): they name the message, not always a user. */
function decodeMessageChange(value: Json, chatRoomId: number): RoomEvent | null {
  const messageId = toPositiveId(value.messageId);
  const changeSeq = toSeq(value.changeSeq);
  if (messageId === null || changeSeq === null) return null;
  if (value.type === 'edited') {
    if (typeof value.content !== 'string' || typeof value.editedAt !== 'string') return null;
    return { type: 'edited', chatRoomId, messageId, content: value.content, editedAt: value.editedAt, changeSeq };
  }
  if (value.type === 'deleted') return { type: 'deleted', chatRoomId, messageId, changeSeq };
  if (value.type === 'reaction') {
    const userId = toPositiveId(value.userId);
    if (userId === null || !isReaction(value.emoji) || typeof value.on !== 'boolean') return null;
    return { type: 'reaction', chatRoomId, messageId, userId, emoji: value.emoji, on: value.on, changeSeq };
  }
  return null;
}

/** /topic/toggle-refresh/{uid} carries `true` when the chat list changed. */
export function isRefreshSignal(value: unknown): boolean {
  return value === true;
}

/**
 * A message on /queue/call/{signal}/{uid}, or null when it names no valid sender. Ids may be
 * numeric strings (the original server's Java longs sometimes were); sdp and candidate are
 * passed on as given, for the RTC layer to judge.
 */
export function decodeCallEvent(signal: CallSignal, value: unknown): CallEvent | null {
  if (!isObject(value)) return null;
  const userId = toPositiveId(value.userId);
  if (userId === null) return null;
  const event: CallEvent = { userId };
  const name = optionalString(value.name);
  if (name !== undefined) event.name = name;
  const targetUserId = toPositiveId(value.targetUserId);
  if (targetUserId !== null) event.targetUserId = targetUserId;
  if (signal === 'offer' || signal === 'answer') {
    if (value.sdp === undefined || value.sdp === null) return null;
    event.sdp = value.sdp;
  }
  if (signal === 'ice-candidate') {
    if (value.candidate === undefined || value.candidate === null) return null;
    event.candidate = value.candidate;
  }
  const reason = value.reason as CallEvent['reason'];
  if (reason !== undefined && HANGUP_REASONS.includes(reason)) event.reason = reason;
  if (CALL_MEDIA.includes(value.media as CallMedia)) event.media = value.media as CallMedia;
  if (typeof value.callId === 'string' && value.callId !== '') event.callId = value.callId;
  if (value.role === 'caller' || value.role === 'callee') event.role = value.role;
  if (signal === 'resume' && (event.callId === undefined || event.role === undefined)) return null;
  if (signal === 'media-state') {
    if (typeof value.muted !== 'boolean' || typeof value.camera !== 'boolean' || typeof value.screen !== 'boolean') return null;
    event.muted = value.muted;
    event.camera = value.camera;
    event.screen = value.screen;
  }
  return event;
}
