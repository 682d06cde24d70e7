// Ours: GET /api/chat-room/media, a room's drawer (docs/protocol.md, the drawer): its photos,
// files or links, newest first, MEDIA_PAGE_SIZE (50) a page, members only. `before` is the
// cursor of the last item of the page before (its `cursor`): "messageId" or "messageId.position".
import { MEDIA_KINDS, type LinkPreview, type MediaItem, type MediaKind, type MediaPage } from '@common/api';
import { toAttachment } from '../attachments/attachments-service';
import { InvalidError } from '../errors';
import type { BlockLookup, LinkPreviewLookup } from './chat-deps';
import type { MediaCursor, MediaRepository } from './media-repository';
import type { MembersCache } from './members-cache';
import { memberAmong } from './membership';

/** Items a page of the drawer answers (the server's to choose: a client pages by `hasMore`). */
export const MEDIA_PAGE_SIZE = 50;

export interface RoomMediaDeps {
  members: Pick<MembersCache, 'get'>;
  media: Pick<MediaRepository, 'page'>;
  blocks: Pick<BlockLookup, 'blockedBy'>;
  linkPreviews?: LinkPreviewLookup;
}

export function mediaKind(raw: string | null): MediaKind {
  if (!MEDIA_KINDS.includes(raw as MediaKind)) throw new InvalidError(`kind must be one of ${MEDIA_KINDS.join(', ')}`);
  return raw as MediaKind;
}

export function mediaCursor(raw: string | null): MediaCursor | null {
  if (raw === null || raw === '') return null;
  const m = /^([1-9][0-9]{0,14})(?:\.([0-9]{1,3}))?$/.exec(raw);
  if (!m) throw new InvalidError('before must be the cursor of an item ("messageId" or "messageId.position")');
  return m[2] === undefined ? { messageId: Number(m[1]) } : { messageId: Number(m[1]), position: Number(m[2]) };
}

export async function roomMedia(deps: RoomMediaDeps, userId: number, roomId: number, kind: MediaKind, before: MediaCursor | null): Promise<MediaPage> {
  const blocking = deps.blocks.blockedBy(userId);
  blocking.catch(() => {});
  const me = memberAmong(await deps.members.get(roomId, userId), userId);
  const blocked = await blocking;
  // One more than a page tells whether more follow.
  const rows = await deps.media.page(roomId, kind, { userId, visibleFromSeq: me.visibleFromSeq ?? 0, blocked: [...blocked] }, before, MEDIA_PAGE_SIZE + 1);
  const hasMore = rows.length > MEDIA_PAGE_SIZE;
  if (hasMore) rows.length = MEDIA_PAGE_SIZE;
  const previews = kind === 'link' && deps.linkPreviews && rows.length > 0 ? await deps.linkPreviews(rows.map((r) => r.messageId)) : new Map<number, LinkPreview>();
  const items = rows.map((r): MediaItem => {
    const item: MediaItem = {
      cursor: kind === 'link' ? String(r.messageId) : `${r.messageId}.${r.position}`,
      messageId: r.messageId, seq: r.seq, senderId: r.senderId, senderName: r.senderName, sentAt: new Date(r.createdAtMs).toISOString(),
    };
    if (r.attachment) item.attachment = toAttachment(r.attachment);
    if (r.url !== null) item.url = r.url;
    const preview = previews.get(r.messageId);
    if (preview) item.linkPreview = preview;
    return item;
  });
  return { items, hasMore };
}
