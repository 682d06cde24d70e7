// The room's side panel: participants with their count, (You) and e-mails; invite, e-mail
// notification (confirm; idle, sending, done), the member's mute and pin switches, and leave
// (confirm); the renaming tip. Another member's photo and name open their profile card.
import { useEffect, useRef, type ReactNode } from 'react';
import { Link } from 'wouter';
import type { UserSummary } from '@common/api';
import { useDialog } from '../../components/dialogs';
import { ko } from '../../i18n/ko';
import { koRooms } from '../../i18n/koRooms';
import { Avatar } from '../../components/Avatar';
import { WithPresence } from '../../components/PresenceDot';
import { AddPersonIcon, CloseIcon, LeaveIcon, MailIcon } from '../../components/icons';
import { BellOffIcon, PinIcon } from '../../components/roomIcons';
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
  /** The member's own settings of the room (null until read: the switches wait). */
  settings?: { muted: boolean; pinned: boolean } | null;
  onChangeSettings?(change: { muted?: boolean; pinned?: boolean }): void;
  /** Opens another member's profile card (kernel/profileCard.ts); without it the rows open nothing. */
  onOpenProfile?(user: UserSummary): void;
  /** Ours (issue 27): opens the room's drawer (사진, 파일, 링크). */
  onOpenDrawer?(): void;
}

const notifyLabel: Record<NotificationState, string> = {
  idle: ko.room.notify,
  sending: ko.room.notifySending,
  done: ko.room.notifyDone,
};

export function RoomSidebar({ users, myId, invitePath, notification, onNotify, onLeave, onClose, memberActions, settings = null, onChangeSettings, onOpenProfile, onOpenDrawer }: RoomSidebarProps) {
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
                {onOpenProfile && user.userId !== myId ? (
                  <button type="button" className="member__who" aria-haspopup="dialog" onClick={() => onOpenProfile(user)}>
                    <MemberWho user={user} me={false} />
                  </button>
                ) : (
                  <MemberWho user={user} me={user.userId === myId} />
                )}
                {user.userId !== myId && memberActions?.(user)}
              </li>
            ))}
          </ul>
        </div>
        <div className="sidebar__actions">
          {onOpenDrawer && (
            <button type="button" className="sidebar-action" onClick={onOpenDrawer} data-testid="drawer-open">
              <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
                <rect x="3.5" y="4.5" width="17" height="15" rx="2" fill="none" stroke="currentColor" strokeWidth="2" />
                <path d="M3.5 12h17M10 15.5h4" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
              </svg>
              채팅방 서랍
            </button>
          )}
          <Link className="sidebar-action sidebar-action--accent" to={invitePath}>
            <AddPersonIcon />
            {ko.room.invite}
          </Link>
          <button type="button" className="sidebar-action" onClick={notify} disabled={notification !== 'idle'} aria-busy={notification === 'sending' || undefined}>
            <MailIcon />
            {notifyLabel[notification]}
          </button>
          {onChangeSettings && (
            <>
              <button type="button" className="sidebar-action" disabled={settings === null} onClick={() => onChangeSettings({ muted: !settings?.muted })}>
                <BellOffIcon size={20} />
                {settings?.muted ? koRooms.roomSettings.unmute : koRooms.roomSettings.mute}
              </button>
              <button type="button" className="sidebar-action" disabled={settings === null} onClick={() => onChangeSettings({ pinned: !settings?.pinned })}>
                <PinIcon size={20} />
                {settings?.pinned ? koRooms.roomSettings.unpin : koRooms.roomSettings.pin}
              </button>
            </>
          )}
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

/** A member's photo (with presence), name, (You) and e-mail. */
function MemberWho({ user, me }: { user: UserSummary; me: boolean }) {
  return (
    <>
      <WithPresence online={user.online}>
        <Avatar name={user.name} size={36} photo={{ userId: user.userId, photoVersion: user.photoVersion }} />
      </WithPresence>
      <span className="member__text">
        <span>
          <span className="member__name">{user.name}</span>
          {me && <span className="member__you">{ko.room.you}</span>}
        </span>
        <span className="member__email">{user.email}</span>
      </span>
    </>
  );
}
