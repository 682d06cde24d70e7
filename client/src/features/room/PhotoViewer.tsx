// Ours (issue 27): the photo viewer over the room. It walks the ROOM's photos, oldest to newest:
// those of the messages held first, then older ones from the room's drawer (GET
// /api/chat-room/media) as the user goes back past them. Zoom by the wheel, a pinch or a double
// click/tap; pan when zoomed (drag); previous/next by the arrow keys, a swipe or the buttons
// '이전 사진' / '다음 사진'; '다운로드'; '닫기' or Escape closes. Loaded in its own chunk with
// the first photo opened.
import { useCallback, useEffect, useRef, useState, type PointerEvent as ReactPointerEvent, type WheelEvent } from 'react';
import type { Attachment } from '@common/api';
import { ko } from '../../i18n/ko';
import { useAppSelector } from '../../kernel/hooks';
import { fetchRoomMedia, photoCursor, photosOf, type RoomPhoto } from './roomMedia';
import { selectMessages, selectOpenRoomId } from './roomSlice';
import './photos.css';

export interface PhotoViewerProps {
  chatRoomId: number;
  /** The room's photos known now, oldest first. */
  photos: readonly RoomPhoto[];
  /** The one opened. */
  startAttachmentId: string;
  onClose(): void;
}

const MAX_SCALE = 5;
const DOUBLE_SCALE = 2.5;
/** A horizontal drag this long (px) at no zoom goes to the previous or next photo. */
const SWIPE_PX = 50;
const DOUBLE_TAP_MS = 300;

const strings = {
  previous: '이전 사진',
  next: '다음 사진',
  loading: '사진을 불러오는 중…',
  failed: '이전 사진을 불러오지 못했습니다.',
  sentBy: (name: string, at: string) => `${name} · ${new Date(at).toLocaleString('ko-KR')}`,
};

interface View { scale: number; x: number; y: number }
const NO_ZOOM: View = { scale: 1, x: 0, y: 0 };

const clampScale = (s: number) => Math.min(MAX_SCALE, Math.max(1, s));

export function PhotoViewer({ chatRoomId, photos: initial, startAttachmentId, onClose }: PhotoViewerProps) {
  const [photos, setPhotos] = useState<RoomPhoto[]>(() => [...initial]);
  const [index, setIndex] = useState(() => Math.max(0, initial.findIndex((p) => p.attachment.attachmentId === startAttachmentId)));
  /** Whether the drawer may hold older photos: unknown (true) until it answers. */
  const [hasOlder, setHasOlder] = useState(true);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [view, setView] = useState<View>(NO_ZOOM);
  const closeButton = useRef<HTMLButtonElement>(null);
  const pointers = useRef(new Map<number, { x: number; y: number }>());
  const gesture = useRef<{ startX: number; startY: number; view: View; dist: number; moved: boolean } | null>(null);
  const lastTap = useRef(0);
  /** The last pointer's kind: a double tap is ours to see (below), and Chromium also makes it a dblclick. */
  const lastPointerType = useRef('mouse');
  const loadingRef = useRef(false);

  const photo = photos[index];

  /** Older photos from the drawer, before the oldest known; answers how many came. */
  const loadOlder = useCallback(async (): Promise<number> => {
    if (loadingRef.current || !hasOlder || photos.length === 0) return 0;
    loadingRef.current = true;
    setLoading(true);
    setError(null);
    try {
      const page = await fetchRoomMedia(chatRoomId, 'photo', photoCursor(photos[0]));
      const known = new Set(photos.map((p) => p.attachment.attachmentId));
      const older = page.items
        .filter((i) => i.attachment && !known.has(i.attachment.attachmentId))
        .map((i): RoomPhoto => ({ attachment: i.attachment!, messageId: i.messageId, position: Number(i.cursor.split('.')[1] ?? 0), senderName: i.senderName, sentAt: i.sentAt }))
        .reverse();
      setHasOlder(page.hasMore && older.length > 0);
      if (older.length > 0) {
        setPhotos((now) => [...older, ...now]);
        setIndex((i) => i + older.length);
      }
      return older.length;
    } catch {
      setError(strings.failed);
      return 0;
    } finally {
      loadingRef.current = false;
      setLoading(false);
    }
  }, [chatRoomId, hasOlder, photos]);

  const go = useCallback(async (step: -1 | 1) => {
    setView(NO_ZOOM);
    if (step === 1) {
      setIndex((i) => Math.min(i + 1, photos.length - 1));
      return;
    }
    if (index > 0) {
      setIndex(index - 1);
      return;
    }
    // At the oldest known: the drawer's page before it, then the one just older.
    const added = await loadOlder();
    if (added > 0) setIndex((i) => i - 1);
  }, [index, loadOlder, photos.length]);

  // Near the oldest known photo, the older ones are fetched ahead.
  useEffect(() => {
    if (index <= 1 && hasOlder && !loadingRef.current) void loadOlder();
  }, [index]);

  useEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    closeButton.current?.focus();
    return () => before?.focus?.();
  }, []);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onClose();
      else if (e.key === 'ArrowLeft') void go(-1);
      else if (e.key === 'ArrowRight') void go(1);
      else if (e.key === '+' || e.key === '=') setView((v) => ({ ...v, scale: clampScale(v.scale * 1.25) }));
      else if (e.key === '-') setView((v) => (clampScale(v.scale / 1.25) === 1 ? NO_ZOOM : { ...v, scale: clampScale(v.scale / 1.25) }));
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [go, onClose]);

  const toggleZoom = () => setView((v) => (v.scale > 1 ? NO_ZOOM : { scale: DOUBLE_SCALE, x: 0, y: 0 }));

  const onWheel = (e: WheelEvent) => {
    const factor = Math.exp(-e.deltaY * 0.002);
    setView((v) => {
      const scale = clampScale(v.scale * factor);
      return scale === 1 ? NO_ZOOM : { ...v, scale };
    });
  };

  const distance = () => {
    const [a, b] = [...pointers.current.values()];
    return a && b ? Math.hypot(a.x - b.x, a.y - b.y) : 0;
  };
  const onPointerDown = (e: ReactPointerEvent) => {
    lastPointerType.current = e.pointerType;
    if (e.button !== 0 && e.pointerType === 'mouse') return;
    (e.currentTarget as HTMLElement).setPointerCapture?.(e.pointerId);
    pointers.current.set(e.pointerId, { x: e.clientX, y: e.clientY });
    gesture.current = { startX: e.clientX, startY: e.clientY, view, dist: distance(), moved: false };
  };
  const onPointerMove = (e: ReactPointerEvent) => {
    if (!pointers.current.has(e.pointerId) || !gesture.current) return;
    pointers.current.set(e.pointerId, { x: e.clientX, y: e.clientY });
    const g = gesture.current;
    if (pointers.current.size >= 2 && g.dist > 0) {
      g.moved = true;
      const scale = clampScale(g.view.scale * (distance() / g.dist));
      setView(scale === 1 ? NO_ZOOM : { ...g.view, scale });
      return;
    }
    const dx = e.clientX - g.startX;
    const dy = e.clientY - g.startY;
    if (Math.abs(dx) > 4 || Math.abs(dy) > 4) g.moved = true;
    if (g.view.scale > 1) setView({ scale: g.view.scale, x: g.view.x + dx, y: g.view.y + dy });
  };
  const onPointerUp = (e: ReactPointerEvent) => {
    const g = gesture.current;
    const pinching = pointers.current.size >= 2;
    pointers.current.delete(e.pointerId);
    if (!g || pinching) {
      // A pinch ends: the remaining finger starts afresh.
      if (pointers.current.size === 1) {
        const [p] = [...pointers.current.values()];
        gesture.current = { startX: p.x, startY: p.y, view, dist: 0, moved: true };
      }
      return;
    }
    gesture.current = null;
    const dx = e.clientX - g.startX;
    if (g.view.scale === 1 && Math.abs(dx) >= SWIPE_PX && Math.abs(dx) > Math.abs(e.clientY - g.startY)) {
      void go(dx > 0 ? -1 : 1);
      return;
    }
    if (!g.moved && e.pointerType !== 'mouse') {
      // A double tap (a mouse's double click has its own event).
      const now = e.timeStamp;
      if (now - lastTap.current < DOUBLE_TAP_MS) {
        lastTap.current = 0;
        toggleZoom();
      } else lastTap.current = now;
    }
  };

  if (!photo) return null;
  const atOldest = index === 0 && !hasOlder;
  const { attachment } = photo;
  return (
    <div className="viewer" role="dialog" aria-modal="true" aria-label={attachment.name} data-testid="photo-viewer">
      <div className="viewer__top">
        <p className="viewer__caption">{strings.sentBy(photo.senderName, photo.sentAt)}</p>
        <a className="viewer__action" href={attachment.url} download={attachment.name}>
          {ko.attachment.download}
        </a>
        <button ref={closeButton} type="button" className="viewer__action" onClick={onClose}>
          {ko.attachment.close}
        </button>
      </div>
      <div
        className="viewer__stage"
        onWheel={onWheel}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={onPointerUp}
        onDoubleClick={() => lastPointerType.current === 'mouse' && toggleZoom()}
        data-zoomed={view.scale > 1 || undefined}
      >
        <img
          key={attachment.attachmentId}
          className="viewer__image"
          src={attachment.url}
          alt={attachment.name}
          draggable={false}
          data-testid="photo-full"
          data-scale={view.scale.toFixed(2)}
          style={{ transform: `translate(${view.x}px, ${view.y}px) scale(${view.scale})` }}
        />
      </div>
      <button type="button" className="viewer__nav viewer__nav--prev" aria-label={strings.previous} title={strings.previous} disabled={atOldest || loading} onClick={() => void go(-1)}>
        ‹
      </button>
      <button type="button" className="viewer__nav viewer__nav--next" aria-label={strings.next} title={strings.next} disabled={index >= photos.length - 1} onClick={() => void go(1)}>
        ›
      </button>
      {(loading || error) && <p className="viewer__status" role={error ? 'alert' : 'status'}>{error ?? strings.loading}</p>}
    </div>
  );
}


/**
 * The viewer over the open room, from a photo of its message list: the room's photos are those
 * of the messages held (read once, as it opens). A photo not among them (a message still being
 * sent) is walked with its own message's photos.
 */
export function RoomPhotoViewer({ startAttachmentId, ownPhotos, onClose }: { startAttachmentId: string; ownPhotos: readonly Attachment[]; onClose(): void }) {
  const chatRoomId = useAppSelector(selectOpenRoomId) ?? 0;
  const messages = useAppSelector(selectMessages);
  const [photos] = useState(() => {
    const held = photosOf(messages);
    return held.some((p) => p.attachment.attachmentId === startAttachmentId)
      ? held
      : ownPhotos.map((attachment, position): RoomPhoto => ({ attachment, messageId: 0, position, senderName: '', sentAt: new Date().toISOString() }));
  });
  return <PhotoViewer chatRoomId={chatRoomId} photos={photos} startAttachmentId={startAttachmentId} onClose={onClose} />;
}
