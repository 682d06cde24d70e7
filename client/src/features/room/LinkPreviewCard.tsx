// The preview card of a message's first link (issue 27; docs/protocol.md, link previews): the
// page's image (ours, served by the server, never the page's own address), title, description
// and site. The whole card is one link to the page, opened in a new tab, reachable by Tab;
// its accessible name is what it shows. The image's alt is the title. Its styles come with it
// (linkPreview.css, in the lazy room-extras chunk), not with every room's first paint.
import type { LinkPreview } from '@common/api';
import './linkPreview.css';

/** What names the site when the page gave no name: its host. */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

export function LinkPreviewCard({ preview }: { preview: LinkPreview }) {
  const title = preview.title ?? hostOf(preview.url);
  // Without a title the host is the title already: not said twice.
  const site = preview.siteName ?? (preview.title === null ? null : hostOf(preview.url));
  return (
    <a className="link-card" href={preview.url} target="_blank" rel="noopener noreferrer" data-testid="link-preview">
      {preview.imageUrl && <img className="link-card__image" src={preview.imageUrl} alt={title} loading="lazy" />}
      <span className="link-card__text">
        <span className="link-card__title">{title}</span>
        {preview.description && <span className="link-card__description">{preview.description}</span>}
        {site && <span className="link-card__site">{site}</span>}
      </span>
    </a>
  );
}
