// The room header's search button: in the room's first chunk, while the panel it opens loads
// with its first use (features/room/ChatRoomPage.tsx).
import { cx } from '../../components/classNames';
import { ko } from '../../i18n/ko';

/** The header button that shows and hides the room's search. */
export function MessageSearchToggle({ open, onToggle }: { open: boolean; onToggle(): void }) {
  return (
    <button type="button" className={cx('icon-btn', open && 'icon-btn--active')} onClick={onToggle} aria-label={ko.messageSearch.open} aria-expanded={open} title={ko.messageSearch.open} data-testid="message-search-toggle">
      <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false">
        <circle cx="11" cy="11" r="6.5" fill="none" stroke="currentColor" strokeWidth="2" />
        <path d="M16 16l4.5 4.5" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
      </svg>
    </button>
  );
}
