// Mounted once in AppShell: runs the notifications saga while a signed-in screen is open, and on
// the chat list offers the in-app prompt that asks for the browser's permission, only when the
// user presses it (never on page load).
import { useEffect } from 'react';
import { useLocation } from 'wouter';
import { useAppDispatch, useAppSelector } from '../../kernel/hooks';
import { paths } from '../../kernel/paths';
import { useSignedInUser } from '../../kernel/useSignedInUser';
import { ko } from '../../i18n/ko';
import { notificationsActions, selectNotificationsAsking, selectShowNotificationPrompt } from './notificationsSlice';

const t = ko.notifications;

export function NotificationsHost() {
  const uid = useSignedInUser();
  const [pathname] = useLocation();
  const dispatch = useAppDispatch();
  const showPrompt = useAppSelector(selectShowNotificationPrompt);
  const asking = useAppSelector(selectNotificationsAsking);

  useEffect(() => {
    if (uid === null) return undefined;
    dispatch(notificationsActions.started());
    return () => {
      dispatch(notificationsActions.stopped());
    };
  }, [dispatch, uid]);

  if (uid === null || !showPrompt || pathname !== paths.chatList) return null;
  return (
    <div className="notification-prompt" role="region" aria-label={t.promptLabel} data-testid="notification-prompt">
      <p className="notification-prompt__text">{t.prompt}</p>
      <div className="notification-prompt__actions">
        <button type="button" className="btn btn--primary" disabled={asking} onClick={() => dispatch(notificationsActions.enableClicked())}>
          {t.enable}
        </button>
        <button type="button" className="btn" onClick={() => dispatch(notificationsActions.promptDismissed())}>
          {t.later}
        </button>
      </div>
    </div>
  );
}
