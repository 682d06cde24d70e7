// The room's header: back to the list, the room name (tap to rename: O confirms, X cancels; at
// most 50 characters, blank is not submitted) and the sidebar toggle.
import { useState, type FormEvent, type KeyboardEvent, type ReactNode } from 'react';
import { LIMITS, isValidRoomName } from '@common/rules';
import { paths } from '../../kernel/paths';
import { BackButton } from '../../components/BackButton';
import { ko } from '../../i18n/ko';
import { MenuIcon } from '../../components/icons';

export interface RoomHeaderProps {
  roomName: string;
  memberCount: number;
  onRename(name: string): void;
  onOpenSidebar(): void;
  /** More header buttons before the sidebar's (message search). */
  extraActions?: ReactNode;
}

export function RoomHeader({ roomName, memberCount, onRename, onOpenSidebar, extraActions }: RoomHeaderProps) {
  const [draft, setDraft] = useState<string | null>(null);

  const confirm = (event?: FormEvent) => {
    event?.preventDefault();
    if (draft === null || !isValidRoomName(draft)) return;
    onRename(draft.trim());
    setDraft(null);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Escape') setDraft(null);
  };

  return (
    <header className="screen__header">
      <BackButton to={paths.chatList} label={ko.room.back} />
      {draft === null ? (
        <div className="room-title">
          <h1 className="room-title__heading">
            <button type="button" className="room-title__button" onClick={() => setDraft(roomName)} title={ko.room.renameHint} data-testid="room-name">
              {roomName}
            </button>
          </h1>
          {memberCount > 0 && <span className="room-title__meta">{ko.room.participants(memberCount)}</span>}
        </div>
      ) : (
        <form className="rename-form" onSubmit={confirm}>
          <input
            className="field__input"
            aria-label={ko.room.renameLabel}
            maxLength={LIMITS.roomName}
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
            onKeyDown={onKeyDown}
            autoFocus
          />
          <button type="submit" className="rename-form__btn rename-form__btn--ok" aria-label={ko.room.renameConfirmLabel}>
            {ko.room.renameConfirm}
          </button>
          <button type="button" className="rename-form__btn rename-form__btn--cancel" aria-label={ko.room.renameCancelLabel} onClick={() => setDraft(null)}>
            {ko.room.renameCancel}
          </button>
        </form>
      )}
      {extraActions}
      <button type="button" className="icon-btn" onClick={onOpenSidebar} aria-label={ko.room.openSidebar} title={ko.room.openSidebar}>
        <MenuIcon />
      </button>
    </header>
  );
}
