// Ours (issue 27): the room's drawer, a panel from the room's header with three tabs (사진,
// 파일, 링크): the room's photos, files and links newest first, from GET /api/chat-room/media a
// page at a time, the next page fetched as the end of the list comes into view (or by '더 보기'
// where IntersectionObserver is missing). A photo opens the viewer, walking the drawer's photos
// (and older ones past them). Its own chunk, loaded when the drawer is first opened.
import { useCallback, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { MediaItem, MediaKind } from '@common/api';
import { ko } from '../../i18n/ko';
import { PhotoViewer } from './PhotoViewer';
import { fetchRoomMedia, photosOfItems } from './roomMedia';
import './photos.css';

export const drawerStrings = {
  title: '채팅방 서랍',
  tabs: { photo: '사진', file: '파일', link: '링크' } as Record<MediaKind, string>,
  empty: { photo: '주고받은 사진이 없습니다.', file: '주고받은 파일이 없습니다.', link: '주고받은 링크가 없습니다.' } as Record<MediaKind, string>,
  loading: '불러오는 중…',
  failed: '불러오지 못했습니다.',
  retry: '다시 시도',
  more: '더 보기',
  close: '닫기',
  meta: (name: string, at: string) => `${name} · ${new Date(at).toLocaleDateString('ko-KR')}`,
};

const KINDS: MediaKind[] = ['photo', 'file', 'link'];

interface Tab { items: MediaItem[]; hasMore: boolean; loading: boolean; error: boolean }
const EMPTY: Tab = { items: [], hasMore: true, loading: false, error: false };

export function RoomDrawer({ chatRoomId, onClose }: { chatRoomId: number; onClose(): void }) {
  const [kind, setKind] = useState<MediaKind>('photo');
  const [tabs, setTabs] = useState<Record<MediaKind, Tab>>({ photo: EMPTY, file: EMPTY, link: EMPTY });
  const [viewing, setViewing] = useState<string | null>(null);
  const inFlight = useRef(new Set<MediaKind>());
  const end = useRef<HTMLDivElement>(null);
  const panel = useRef<HTMLElement>(null);
  const tab = tabs[kind];

  const loadMore = useCallback(async (k: MediaKind) => {
    if (inFlight.current.has(k)) return;
    inFlight.current.add(k);
    setTabs((t) => ({ ...t, [k]: { ...t[k], loading: true, error: false } }));
    try {
      const before = tabs[k].items.at(-1)?.cursor;
      const page = await fetchRoomMedia(chatRoomId, k, before);
      setTabs((t) => ({ ...t, [k]: { items: [...t[k].items, ...page.items], hasMore: page.hasMore, loading: false, error: false } }));
    } catch {
      setTabs((t) => ({ ...t, [k]: { ...t[k], loading: false, error: true } }));
    } finally {
      inFlight.current.delete(k);
    }
  }, [chatRoomId, tabs]);

  // A tab's first page when it is first shown.
  useEffect(() => {
    if (tab.items.length === 0 && tab.hasMore && !tab.loading && !tab.error) void loadMore(kind);
  }, [kind, tab, loadMore]);

  // The next page as the end of the list comes into view.
  useEffect(() => {
    const target = end.current;
    if (!target || typeof IntersectionObserver === 'undefined' || !tab.hasMore || tab.loading || tab.error || tab.items.length === 0) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) void loadMore(kind);
    }, { root: target.parentElement, rootMargin: '200px' });
    observer.observe(target);
    return () => observer.disconnect();
  }, [kind, tab, loadMore]);

  useEffect(() => {
    panel.current?.querySelector<HTMLElement>('[aria-selected="true"]')?.focus();
  }, []);

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Escape' && viewing === null) {
      e.stopPropagation();
      onClose();
    }
  };
  const onTabKey = (e: KeyboardEvent) => {
    if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
    e.preventDefault();
    const next = KINDS[(KINDS.indexOf(kind) + (e.key === 'ArrowRight' ? 1 : KINDS.length - 1)) % KINDS.length];
    setKind(next);
    panel.current?.querySelector<HTMLElement>(`#drawer-tab-${next}`)?.focus();
  };

  return (
    <aside ref={panel} className="drawer" role="dialog" aria-label={drawerStrings.title} onKeyDown={onKeyDown} data-testid="room-drawer">
      <div className="drawer__head">
        <h2 className="drawer__title">{drawerStrings.title}</h2>
        <button type="button" className="viewer__action drawer__close" style={{ color: 'inherit', borderColor: 'currentColor' }} onClick={onClose}>
          {drawerStrings.close}
        </button>
      </div>
      <div className="drawer__tabs" role="tablist" aria-label={drawerStrings.title} onKeyDown={onTabKey}>
        {KINDS.map((k) => (
          <button
            key={k}
            id={`drawer-tab-${k}`}
            type="button"
            role="tab"
            className="drawer__tab"
            aria-selected={k === kind}
            aria-controls="drawer-panel"
            tabIndex={k === kind ? 0 : -1}
            onClick={() => setKind(k)}
          >
            {drawerStrings.tabs[k]}
          </button>
        ))}
      </div>
      <div className="drawer__body" id="drawer-panel" role="tabpanel" aria-labelledby={`drawer-tab-${kind}`} aria-busy={tab.loading}>
        {kind === 'photo' && tab.items.length > 0 && (
          <div className="drawer__photos">
            {tab.items.map((item) => item.attachment && (
              <button key={item.cursor} type="button" className="drawer__photo" onClick={() => setViewing(item.attachment!.attachmentId)} aria-label={ko.attachment.open(item.attachment.name)}>
                <img src={item.attachment.thumbnailUrl ?? item.attachment.url} alt="" loading="lazy" />
              </button>
            ))}
          </div>
        )}
        {kind === 'file' && tab.items.length > 0 && (
          <ul className="drawer__list">
            {tab.items.map((item) => item.attachment && (
              <li key={item.cursor}>
                <a className="drawer__row" href={item.attachment.url} download={item.attachment.name}>
                  <span className="drawer__row-title">{item.attachment.name}</span>
                  <span className="drawer__row-meta">{`${ko.attachment.size(item.attachment.size)} · ${drawerStrings.meta(item.senderName, item.sentAt)}`}</span>
                </a>
              </li>
            ))}
          </ul>
        )}
        {kind === 'link' && tab.items.length > 0 && (
          <ul className="drawer__list">
            {tab.items.map((item) => item.url && (
              <li key={item.cursor}>
                <a className="drawer__row" href={item.url} target="_blank" rel="noopener noreferrer nofollow">
                  <span className="drawer__row-title">{item.linkPreview?.title ?? item.url}</span>
                  <span className="drawer__row-meta">{item.linkPreview?.title ? item.url : drawerStrings.meta(item.senderName, item.sentAt)}</span>
                </a>
              </li>
            ))}
          </ul>
        )}
        {!tab.loading && !tab.error && !tab.hasMore && tab.items.length === 0 && <p className="drawer__empty">{drawerStrings.empty[kind]}</p>}
        {tab.loading && <p className="drawer__status" role="status">{drawerStrings.loading}</p>}
        {tab.error && (
          <p className="drawer__status" role="alert">
            {drawerStrings.failed}{' '}
            <button type="button" className="btn btn--secondary" onClick={() => void loadMore(kind)}>{drawerStrings.retry}</button>
          </p>
        )}
        {tab.hasMore && !tab.loading && !tab.error && tab.items.length > 0 && (
          <button type="button" className="btn btn--secondary drawer__more" onClick={() => void loadMore(kind)}>{drawerStrings.more}</button>
        )}
        <div ref={end} aria-hidden="true" />
      </div>
      {viewing !== null && (
        <PhotoViewer chatRoomId={chatRoomId} photos={photosOfItems(tabs.photo.items)} startAttachmentId={viewing} onClose={() => setViewing(null)} />
      )}
    </aside>
  );
}
