// '부재중 전화: {name}' for the callee of a call that rang out, until the user dismisses it.
import { koCall } from '../../i18n/koCall';

const t = koCall;

export function MissedCallLine({ callerName, onDismiss }: { callerName: string; onDismiss(): void }) {
  return (
    <div className="missed-call" role="status" data-testid="missed-call">
      <span className="missed-call__text">{t.missedCall(callerName)}</span>
      <button type="button" className="missed-call__dismiss" onClick={onDismiss} aria-label={t.dismissMissedCall} title={t.dismissMissedCall}>
        <span aria-hidden="true">×</span>
      </button>
    </div>
  );
}
