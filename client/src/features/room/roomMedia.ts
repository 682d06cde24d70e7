// Ours (issue 27): the room's photos as the viewer walks them, and the room's drawer
// (GET /api/chat-room/media) read a page at a time. Loaded only with the viewer or the drawer.
import { api, MEDIA_KINDS, type Attachment, type ChatMessage, type MediaItem, type MediaKind, type MediaPage } from '@common/api';
import { decodeAttachment, decodeLinkPreview } from '@common/events';
import { createHttpClient } from '../../services/http';

/** One photo of the room: where it is (its message and place in it) and the cursor of the drawer before it. */
export interface RoomPhoto {
  attachment: Attachment;
  messageId: number;
  position: number;
  senderName: string;
  sentAt: string;
}

export const photoCursor = (p: Pick<RoomPhoto, 'messageId' | 'position'>) => `${p.messageId}.${p.position}`;

/** The photos of the messages held, oldest first (a message's photos in their order). */
export function photosOf(messages: readonly ChatMessage[]): RoomPhoto[] {
  return messages.flatMap((m) => {
    if (m.deleted) return [];
    const all = m.attachments && m.attachments.length > 1 ? m.attachments : m.attachment ? [m.attachment] : [];
    return all.flatMap((attachment, position) =>
      attachment.thumbnailUrl ? [{ attachment, messageId: m.messageId, position, senderName: m.senderName, sentAt: m.enrolledAt }] : []);
  });
}

/** Drawer items of photos as the viewer's photos, oldest first (the drawer answers newest first). */
export function photosOfItems(items: readonly MediaItem[]): RoomPhoto[] {
  return items.flatMap((i) => {
    const position = Number(i.cursor.split('.')[1] ?? 0);
    return i.attachment ? [{ attachment: i.attachment, messageId: i.messageId, position, senderName: i.senderName, sentAt: i.sentAt }] : [];
  }).reverse();
}

const http = createHttpClient();

/** A page of the room's drawer, newest first; malformed items are left out. */
export async function fetchRoomMedia(chatRoomId: number, kind: MediaKind, before?: string): Promise<MediaPage> {
  if (!MEDIA_KINDS.includes(kind)) throw new Error(`no such kind: ${kind}`);
  const page = await http.get<{ items?: unknown; hasMore?: unknown }>(api.roomMedia, { chatRoomId, kind, before });
  const raw = Array.isArray(page.items) ? (page.items as Array<Record<string, unknown>>) : [];
  const items = raw.flatMap((r): MediaItem[] => {
    if (typeof r.cursor !== 'string' || typeof r.messageId !== 'number' || typeof r.sentAt !== 'string') return [];
    const item: MediaItem = {
      cursor: r.cursor, messageId: r.messageId, seq: Number(r.seq) || 0, senderId: typeof r.senderId === 'number' ? r.senderId : null,
      senderName: typeof r.senderName === 'string' ? r.senderName : '', sentAt: r.sentAt,
    };
    const attachment = decodeAttachment(r.attachment);
    if (attachment) item.attachment = attachment;
    if (typeof r.url === 'string' && /^https?:\/\//i.test(r.url)) item.url = r.url;
    const preview = decodeLinkPreview(r.linkPreview);
    if (preview) item.linkPreview = preview;
    if (kind !== 'link' && !item.attachment) return [];
    if (kind === 'link' && !item.url) return [];
    return [item];
  });
  return { items, hasMore: page.hasMore === true };
}
