// The settings switch for system notifications and push on this device (ours, beyond the spec).
// On asks the browser if it has not been asked yet; off ends this device's push subscription.
import { useAppDispatch, useAppSelector } from '../../kernel/hooks';
import { ko } from '../../i18n/ko';
import { notificationsActions, selectNotificationsOn, selectNotificationsState } from './notificationsSlice';

export function NotificationsSwitch() {
  const dispatch = useAppDispatch();
  const { permission, asking } = useAppSelector(selectNotificationsState);
  const on = useAppSelector(selectNotificationsOn);
  if (permission === null || permission === 'unsupported') return null;
  const blocked = permission === 'denied';
  return (
    <div className="preference">
      <label className="preference__label">
        <input
          type="checkbox"
          role="switch"
          checked={on}
          disabled={asking || blocked}
          onChange={(e) => dispatch(e.target.checked ? notificationsActions.enableClicked() : notificationsActions.turnedOff())}
          data-testid="notifications-switch"
        />
        {ko.notifications.switchLabel}
      </label>
      {blocked && <p className="preference__hint">{ko.notifications.blocked}</p>}
    </div>
  );
}
