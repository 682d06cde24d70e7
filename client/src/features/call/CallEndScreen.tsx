// The end of a call (docs/spec.md §4 Call): for about 3 s the peer's name and why or how long
// ('통화 종료 · 00:38', '상대방이 응답하지 않습니다.'), then the user is back where they were.
// A status line above the screen, not a dialog: it takes no focus, and a tap closes it early.
import type { CallEndSummary } from './callRules';

export function CallEndScreen({ summary, onDismiss }: { summary: CallEndSummary; onDismiss(): void }) {
  return (
    <div className="call-end" role="status" data-testid="call-ended" onClick={onDismiss}>
      <div className="call-avatar" aria-hidden="true">
        {summary.peerName.slice(0, 1)}
      </div>
      <p className="call-end__name">{summary.peerName}</p>
      <p className="call-end__text" data-testid="call-end-text">
        {summary.text}
      </p>
    </div>
  );
}
