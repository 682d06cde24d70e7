// How a room's messages are laid out (pure, so it is tested without a browser): day dividers,
// centred system messages, and runs of one sender's messages that share a name and a time; and
// the open room's list laid out (selectMessageItems). Kept here, not in roomSlice.ts, so the
// layout ships with the room screen rather than with every signed-in screen that reads the slice.
import { createSelector } from '@reduxjs/toolkit';
import type { Attachment, ChatMessage, LinkPreview, ReactionSummary, ReplyQuote, RoomUser, CallSystemEvent } from '@common/api';
import { isSystemMessage, systemMessageText, type PendingMessage } from './messages';
import { selectMessages, selectPending, selectRoomUserId, selectRoomUsers } from './roomSlice';

export type MessageItem =
  | { kind: 'day'; key: string; label: string }
  | { kind: 'system'; key: string; content: string; messageId: number | null; callRecord?: CallSystemEvent }
  | {
      kind: 'message';
      key: string;
      content: string;
      senderName: string;
      mine: boolean;
      pending: boolean;
      /** A pending send that timed out: resend or delete. */
      failed: boolean;
      /** The send's id, for a pending message. */
      clientMsgId: string | null;
      /** First of a run: show the sender's name and avatar. */
      showSender: boolean;
      /** Last of a run: show the time. */
      showTime: boolean;
      time: string;
      /** The message's seq (for its read count); none while pending. */
      seq?: number;
      /** The stored message's id; null while pending. */
      messageId: number | null;
      enrolledAt: string;
      replyTo?: ReplyQuote;
      reactions?: ReactionSummary[];
      edited: boolean;
      deleted: boolean;
      /** The photo or file it carries. */
      attachment?: Attachment;
      /** The photos it sent at once (issue 27): a grid. */
      attachments?: Attachment[];
      /** The preview of its first link (issue 27). */
      linkPreview?: LinkPreview;
      /** The names of the members it mentions, to highlight (issue 26). */
      mentionNames?: string[];
      /** Forwarded from another message (issue 27): marked 전달됨. */
      forwarded?: true;
      /** The sender's photo while they are a member with one (issue 26). */
      senderPhoto?: { userId: number; photoVersion: string };
    };

const dayFormat = new Intl.DateTimeFormat('ko-KR', { year: 'numeric', month: 'long', day: 'numeric', weekday: 'long' });
const timeFormat = new Intl.DateTimeFormat('ko-KR', { hour: 'numeric', minute: '2-digit' });

export function dayLabel(date: Date): string {
  return dayFormat.format(date);
}

export function timeLabel(date: Date): string {
  return timeFormat.format(date);
}

interface Entry {
  key: string;
  system: boolean;
  callRecord?: CallSystemEvent;
  senderId: number | null;
  senderName: string;
  content: string;
  at: Date;
  pending: boolean;
  seq?: number;
  failed: boolean;
  clientMsgId: string | null;
  messageId: number | null;
  enrolledAt: string;
  replyTo?: ReplyQuote;
  reactions?: ReactionSummary[];
  edited: boolean;
  deleted: boolean;
  attachment?: Attachment;
  attachments?: Attachment[];
  linkPreview?: LinkPreview;
  mentions?: number[];
  forwarded?: true;
}

export function layoutMessages(
  messages: readonly ChatMessage[],
  pending: readonly PendingMessage[],
  myId: number | null,
  members: readonly Pick<RoomUser, 'userId' | 'name' | 'photoVersion'>[] = [],
): MessageItem[] {
  const nameOf = new Map(members.map((m) => [m.userId, m.name]));
  const photoOf = new Map(members.flatMap((m) => (m.photoVersion ? [[m.userId, m.photoVersion] as const] : [])));
  const namesOf = (ids: readonly number[]) => ids.map((id) => nameOf.get(id)).filter((name): name is string => name !== undefined);
  const entries: Entry[] = [
    ...messages.map((m) => ({
      key: `m${m.messageId}`,
      system: isSystemMessage(m),
      callRecord: m.systemEvent?.type === 'call' ? m.systemEvent : undefined,
      senderId: m.senderId,
      senderName: m.senderName,
      content: isSystemMessage(m) ? systemMessageText(m) : m.content,
      at: new Date(m.enrolledAt),
      pending: false,
      seq: m.seq,
      failed: false,
      clientMsgId: null,
      messageId: m.messageId,
      enrolledAt: m.enrolledAt,
      replyTo: m.replyTo,
      reactions: m.reactions,
      edited: m.editedAt !== undefined,
      deleted: m.deleted === true,
      attachment: m.attachment,
      attachments: m.attachments,
      linkPreview: m.linkPreview,
      mentions: m.mentions,
      forwarded: m.forwarded,
    })),
    // Pending sends always come last: the server will order them after everything we hold.
    ...pending.map((p) => ({
      key: `p${p.clientMsgId}`,
      system: false,
      senderId: myId,
      senderName: '',
      content: p.content,
      at: new Date(p.createdAt),
      pending: true,
      failed: p.failed === true,
      clientMsgId: p.clientMsgId,
      messageId: null,
      enrolledAt: p.createdAt,
      replyTo: p.replyTo,
      edited: false,
      deleted: false,
      attachment: p.attachment,
      attachments: p.attachments,
    })),
  ];
  const items: MessageItem[] = [];
  let lastDay = '';
  entries.forEach((entry, i) => {
    const day = dayLabel(entry.at);
    if (day !== lastDay) {
      items.push({ kind: 'day', key: `d${entry.key}`, label: day });
      lastDay = day;
    }
    if (entry.system) {
      items.push({ kind: 'system', key: entry.key, content: entry.content, messageId: entry.messageId, ...(entry.callRecord ? { callRecord: entry.callRecord } : {}) });
      return;
    }
    const prev = entries[i - 1];
    const next = entries[i + 1];
    const time = timeLabel(entry.at);
    const photoVersion = entry.senderId === null ? undefined : photoOf.get(entry.senderId);
    const sameRun = (other: Entry | undefined) =>
      other !== undefined && !other.system && other.senderId === entry.senderId && other.pending === entry.pending &&
      timeLabel(other.at) === time && dayLabel(other.at) === day;
    items.push({
      kind: 'message',
      key: entry.key,
      content: entry.content,
      senderName: entry.senderName,
      mine: myId !== null && entry.senderId === myId,
      pending: entry.pending,
      failed: entry.failed,
      clientMsgId: entry.clientMsgId,
      showSender: !sameRun(prev),
      showTime: !sameRun(next),
      time,
      ...(entry.seq ? { seq: entry.seq } : {}),
      messageId: entry.messageId,
      enrolledAt: entry.enrolledAt,
      ...(entry.replyTo ? { replyTo: entry.replyTo } : {}),
      ...(entry.reactions ? { reactions: entry.reactions } : {}),
      edited: entry.edited,
      deleted: entry.deleted,
      ...(entry.attachment ? { attachment: entry.attachment } : {}),
      ...(entry.attachments && entry.attachments.length > 1 ? { attachments: entry.attachments } : {}),
      ...(entry.linkPreview ? { linkPreview: entry.linkPreview } : {}),
      ...(entry.mentions?.length ? { mentionNames: namesOf(entry.mentions) } : {}),
      ...(entry.forwarded ? { forwarded: true as const } : {}),
      ...(photoVersion && entry.senderId !== null ? { senderPhoto: { userId: entry.senderId, photoVersion } } : {}),
    });
  });
  return items;
}

/**
 * The open room's message list as laid out on screen, the pending sends last. Laid out again
 * only when the messages, the pending sends or the user change, not on every change of the room.
 */
export const selectMessageItems = createSelector([selectMessages, selectPending, selectRoomUserId, selectRoomUsers], layoutMessages);
