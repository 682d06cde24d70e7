import { cx } from './classNames';

export type StatusTone = 'neutral' | 'success' | 'error';

/** The one-line status under a form, announced to screen readers as it changes. */
export function StatusLine({ text, tone = 'neutral', testId }: { text: string; tone?: StatusTone; testId?: string }) {
  return (
    <p className={cx('status', `status--${tone}`)} role="status" aria-live="polite" data-testid={testId}>
      {text}
    </p>
  );
}
