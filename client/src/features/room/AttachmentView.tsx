// A message's photo or file: an image shows its thumbnail (room for it is kept from its width
// and height, so the list does not jump when it loads) and a tap opens the full image over the
// room; any other file is a card with its name and size that downloads it.
import { useEffect, useState } from 'react';
import type { Attachment } from '@common/api';
import { ko } from '../../i18n/ko';

/** The thumbnail's box: the image's proportions within 240 px. */
function thumbBox(a: Attachment): { width: number; height: number } | undefined {
  if (!a.width || !a.height) return undefined;
  const scale = Math.min(1, 240 / Math.max(a.width, a.height));
  return { width: Math.round(a.width * scale), height: Math.round(a.height * scale) };
}

export function AttachmentView({ attachment }: { attachment: Attachment }) {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setOpen(false);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open]);

  if (!attachment.thumbnailUrl) {
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
  return (
    <>
      <button type="button" className="photo" onClick={() => setOpen(true)} aria-label={ko.attachment.open(attachment.name)}>
        <img className="photo__thumb" src={attachment.thumbnailUrl} alt={attachment.name} loading="lazy" data-testid="photo-thumbnail" {...thumbBox(attachment)} />
      </button>
      {open && (
        <div className="photo-viewer" role="dialog" aria-modal="true" aria-label={attachment.name} onClick={() => setOpen(false)}>
          <img className="photo-viewer__image" src={attachment.url} alt={attachment.name} data-testid="photo-full" />
          <div className="photo-viewer__bar">
            <a className="photo-viewer__action" href={attachment.url} download={attachment.name} onClick={(e) => e.stopPropagation()}>
              {ko.attachment.download}
            </a>
            <button type="button" className="photo-viewer__action" onClick={() => setOpen(false)}>
              {ko.attachment.close}
            </button>
          </div>
        </div>
      )}
    </>
  );
}
