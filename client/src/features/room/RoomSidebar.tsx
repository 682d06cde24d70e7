// The room's side panel: participants with their count, (You) and e-mails; invite, e-mail
// notification (confirm; idle, sending, done) and leave (confirm); the renaming tip.
import { useEffect, useRef, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { UserSummary } from '@common/api';
import { useDialog } from '../../components/dialogs';
import { ko } from '../../i18n/ko';
import { Avatar } from '../../components/Avatar';
import { WithPresence } from '../../components/PresenceDot';
import { AddPersonIcon, CloseIcon, LeaveIcon, MailIcon } from '../../components/icons';
import type { NotificationState } from './roomSlice';

export interface RoomSidebarProps {
  users: UserSummary[];
  myId: number;
  /** What can be done with another member (the 음성통화/영상통화 buttons). */
  memberActions?(user: UserSummary): ReactNode;
  invitePath: string;
  notification: NotificationState;
  onNotify(): void;
  onLeave(): void;
  onClose(): void;
}

const notifyLabel: Record<NotificationState, string> = {
  idle: ko.room.notify,
  sending: ko.room.notifySending,
  done: ko.room.notifyDone,
};

export function RoomSidebar({ users, myId, invitePath, notification, onNotify, onLeave, onClose, memberActions }: RoomSidebarProps) {
  const panelRef = useRef<HTMLElement>(null);
  // Opening moves focus into the panel (keyboard and screen-reader users land in it); closing
  // gives focus back to what opened it (the menu button).
  useEffect(() => {
    const returnTo = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    panelRef.current?.focus();
    return () => {
      if (returnTo?.isConnected) returnTo.focus();
    };
  }, []);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);

  const dialog = useDialog();
  const notify = async () => {
    if (await dialog.confirm(ko.room.notifyConfirm)) onNotify();
  };
  const leave = async () => {
    if (await dialog.confirm(ko.room.leaveConfirm, { destructive: true })) onLeave();
  };

  return (
    <>
      <div className="sidebar-backdrop" onClick={onClose} />
      <aside ref={panelRef} tabIndex={-1} className="sidebar" aria-label={ko.room.participants(users.length)}>
        <div className="sidebar__header">
          <h2 className="sidebar__title" data-testid="participant-count">{ko.room.participants(users.length)}</h2>
          <button type="button" className="icon-btn" onClick={onClose} aria-label={ko.room.closeSidebar} title={ko.room.closeSidebar}>
            <CloseIcon />
          </button>
        </div>
        <div className="sidebar__body">
          <ul className="user-rows">
            {users.map((user) => (
              <li key={user.userId} className="member" data-testid="participant">
                <WithPresence online={user.online}>
                  <Avatar name={user.name} size={36} />
                </WithPresence>
                <span className="member__text">
                  <span>
                    <span className="member__name">{user.name}</span>
                    {user.userId === myId && <span className="member__you">{ko.room.you}</span>}
                  </span>
                  <span className="member__email">{user.email}</span>
                </span>
                {user.userId !== myId && memberActions?.(user)}
              </li>
            ))}
          </ul>
        </div>
        <div className="sidebar__actions">
          <Link className="sidebar-action sidebar-action--accent" to={invitePath}>
            <AddPersonIcon />
            {ko.room.invite}
          </Link>
          <button type="button" className="sidebar-action" onClick={notify} disabled={notification !== 'idle'} aria-busy={notification === 'sending' || undefined}>
            <MailIcon />
            {notifyLabel[notification]}
          </button>
          <button type="button" className="sidebar-action sidebar-action--danger" onClick={leave}>
            <LeaveIcon />
            {ko.room.leave}
          </button>
        </div>
        <p className="sidebar__tip">{ko.room.renameTip}</p>
      </aside>
    </>
  );
}
