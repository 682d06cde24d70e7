import { cx } from './classNames';

export type StatusTone = 'neutral' | 'success' | 'error';

/** The one-line status under a form, announced to screen readers as it changes. */
export function StatusLine({ id, text, tone = 'neutral', testId }: { id?: string; text: string; tone?: StatusTone; testId?: string }) {
  return (
    <p id={id} className={cx('status', `status--${tone}`)} role="status" aria-live="polite" data-testid={testId}>
      {text}
    </p>
  );
}
