// A message's photo or file: an image shows its thumbnail (room for it is kept from its width
// and height, so the list does not jump when it loads) and a tap opens the viewer over the room
// (PhotoViewer.tsx, its own chunk: zoom, pan, the room's previous and next photos); any other
// file is a card with its name and size that downloads it. Ours (issue 27): several photos sent
// at once show as a grid (2, 3, 4, 5 and 6 tiles, "+N" on the last past six); a voice message
// plays inline (voice/VoicePlayer.tsx, its own chunk).
import { lazy, Suspense, useState } from 'react';
import type { Attachment } from '@common/api';
import { ko } from '../../i18n/ko';
import './photos.css';

const VoicePlayer = lazy(() => import(/* webpackChunkName: "voice" */ './voice/VoicePlayer'));
const RoomPhotoViewer = lazy(() => import(/* webpackChunkName: "photo-viewer" */ './PhotoViewer').then((m) => ({ default: m.RoomPhotoViewer })));

/** The thumbnail's box: the image's proportions within 240 px. */
function thumbBox(a: Attachment): { width: number; height: number } | undefined {
  if (!a.width || !a.height) return undefined;
  const scale = Math.min(1, 240 / Math.max(a.width, a.height));
  return { width: Math.round(a.width * scale), height: Math.round(a.height * scale) };
}

/** Tiles a grid shows at most; the last of them shows "+N" for the rest. */
export const GRID_TILES = 6;

/** How a grid of n photos lays out: the tiles shown and how many are left for "+N". */
export function gridLayout(n: number): { shown: number; more: number; layout: string } {
  if (n <= 1) return { shown: n, more: 0, layout: 'one' };
  if (n <= 5) return { shown: n, more: 0, layout: ['', '', 'two', 'three', 'four', 'five'][n] };
  return { shown: GRID_TILES, more: n - GRID_TILES, layout: 'six' };
}

const gridStrings = {
  album: (n: number) => `사진 ${n}장`,
  more: (n: number) => `사진 ${n}장 더 보기`,
};

export function AttachmentView({ attachment, attachments }: { attachment: Attachment; attachments?: readonly Attachment[] }) {
  if (attachment.kind === 'voice') {
    return (
      <Suspense fallback={null}>
        <VoicePlayer attachment={attachment} />
      </Suspense>
    );
  }
  return <FileOrPhotos attachment={attachment} attachments={attachments} />;
}

function FileOrPhotos({ attachment, attachments }: { attachment: Attachment; attachments?: readonly Attachment[] }) {
  const [openAt, setOpenAt] = useState<string | null>(null);
  const album = attachments && attachments.length > 1 ? attachments : null;

  if (!attachment.thumbnailUrl && !album) {
    return (
      <a className="file-card" href={attachment.url} download={attachment.name} data-testid="file-card">
        <span className="file-card__icon" aria-hidden="true">📄</span>
        <span className="file-card__text">
          <span className="file-card__name">{attachment.name}</span>
          <span className="file-card__size">{ko.attachment.size(attachment.size)}</span>
        </span>
      </a>
    );
  }
  const viewer = openAt !== null && (
    <Suspense fallback={null}>
      <RoomPhotoViewer startAttachmentId={openAt} ownPhotos={album ?? [attachment]} onClose={() => setOpenAt(null)} />
    </Suspense>
  );
  if (album) {
    const { shown, more, layout } = gridLayout(album.length);
    return (
      <>
        <div className={`photo-grid photo-grid--${layout}`} role="group" aria-label={gridStrings.album(album.length)} data-testid="photo-grid">
          {album.slice(0, shown).map((a, i) => {
            const last = i === shown - 1 && more > 0;
            return (
              <button
                key={a.attachmentId}
                type="button"
                className="photo-grid__tile"
                onClick={() => setOpenAt(a.attachmentId)}
                aria-label={last ? gridStrings.more(more + 1) : ko.attachment.open(a.name)}
                data-testid="photo-tile"
              >
                <img className="photo-grid__thumb" src={a.thumbnailUrl} alt="" loading="lazy" />
                {last && <span className="photo-grid__more" aria-hidden="true">+{more + 1}</span>}
              </button>
            );
          })}
        </div>
        {viewer}
      </>
    );
  }
  return (
    <>
      <button type="button" className="photo" onClick={() => setOpenAt(attachment.attachmentId)} aria-label={ko.attachment.open(attachment.name)}>
        <img className="photo__thumb" src={attachment.thumbnailUrl} alt={attachment.name} loading="lazy" data-testid="photo-thumbnail" {...thumbBox(attachment)} />
      </button>
      {viewer}
    </>
  );
}
