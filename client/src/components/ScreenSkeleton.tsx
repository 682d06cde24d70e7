// What a screen shows while its code loads: a header bar and a few neutral lines, the same
// frame index.html paints before any JavaScript runs.
import { ko } from '../i18n/ko';

export function ScreenSkeleton() {
  return (
    <div className="skeleton" role="status" aria-label={ko.app.loading}>
      <div className="skeleton__header" />
      <div className="skeleton__body">
        <div className="skeleton__line" />
        <div className="skeleton__line skeleton__line--short" />
        <div className="skeleton__line" />
      </div>
    </div>
  );
}
