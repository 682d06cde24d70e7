// The settings switch for showing others that the user is typing (on by default).
import { useEffect } from 'react';
import { useAppDispatch, useAppSelector } from '../../kernel/hooks';
import { ko } from '../../i18n/ko';
import { preferencesActions, selectPreferences } from './preferencesSlice';

export function TypingSwitch() {
  const dispatch = useAppDispatch();
  const { sendTyping, busy, failed } = useAppSelector(selectPreferences);

  useEffect(() => {
    dispatch(preferencesActions.opened());
  }, [dispatch]);

  return (
    <div className="preference">
      <label className="preference__label">
        <input
          type="checkbox"
          role="switch"
          checked={sendTyping ?? true}
          disabled={busy || sendTyping === null}
          onChange={(e) => dispatch(preferencesActions.sendTypingToggled(e.target.checked))}
          data-testid="typing-switch"
        />
        {ko.settings.sendTyping}
      </label>
      {failed && <p className="preference__error" role="alert">{ko.settings.preferencesFailed}</p>}
    </div>
  );
}
