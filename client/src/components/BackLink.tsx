import { Link } from 'wouter';

export function BackLink({ to, label }: { to: string; label: string }) {
  return (
    <Link className="back-link" to={to}>
      <span aria-hidden="true">←</span> {label}
    </Link>
  );
}
