// The one back control of the app's screen headers: a round arrow button, a link when it goes
// somewhere, a disabled button when it may not be used now (the call screen during a call).
import { Link } from 'wouter';

function BackArrow() {
  return (
    <svg viewBox="0 0 24 24" width="22" height="22" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      <path d="M15 18l-6-6 6-6" />
    </svg>
  );
}

export function BackButton({ to, label, disabled = false }: { to: string; label: string; disabled?: boolean }) {
  if (disabled) {
    return (
      <button type="button" className="icon-btn back-btn" aria-label={label} title={label} disabled>
        <BackArrow />
      </button>
    );
  }
  return (
    <Link className="icon-btn back-btn" to={to} aria-label={label} title={label}>
      <BackArrow />
    </Link>
  );
}
