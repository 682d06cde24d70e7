// The room's notice (공지, issue 26) folded at the top of the room: one line of its text, '펼치기'
// shows all of it and who set it; '공지 숨기기' puts it away on this device, '공지 내리기'
// removes it for every member (after a confirmation). Its own chunk: most rooms have no notice.
import { useState } from 'react';
import type { RoomNotice } from '@common/api';
import { useDialog } from '../../components/dialogs';
import { koRooms } from '../../i18n/koRooms';
import { hideNotice, isNoticeHidden } from './noticeHiding';

export interface NoticeBannerProps {
  notice: RoomNotice;
  userId: number;
  chatRoomId: number;
  onRemove(): void;
  /** Scroll to the notice's message. */
  onOpen(messageId: number): void;
}

export default function NoticeBanner({ notice, userId, chatRoomId, onRemove, onOpen }: NoticeBannerProps) {
  const [expanded, setExpanded] = useState(false);
  const [hiddenMark, setHiddenMark] = useState<string | null>(null);
  const dialogs = useDialog();
  const mark = `${notice.messageId}@${notice.setAt}`;
  if (hiddenMark === mark || isNoticeHidden(window.localStorage, userId, chatRoomId, notice)) return null;

  const remove = async () => {
    if (await dialogs.confirm(koRooms.notice.removeConfirm, { confirmLabel: koRooms.notice.remove, destructive: true })) onRemove();
  };
  const hide = () => {
    hideNotice(window.localStorage, userId, chatRoomId, notice);
    setHiddenMark(mark);
  };

  return (
    <section className={expanded ? 'notice notice--expanded' : 'notice'} aria-label={koRooms.notice.region} data-testid="notice">
      <span className="notice__label" aria-hidden="true">{koRooms.notice.region}</span>
      <button type="button" className="notice__text" onClick={() => onOpen(notice.messageId)} data-testid="notice-text">
        {notice.content}
      </button>
      <button type="button" className="notice__toggle" aria-expanded={expanded} onClick={() => setExpanded((e) => !e)}>
        {expanded ? koRooms.notice.collapse : koRooms.notice.expand}
      </button>
      {expanded && (
        <div className="notice__more">
          <span className="notice__by">{koRooms.notice.setBy(notice.setByName)}</span>
          <button type="button" className="notice__action" onClick={hide}>
            {koRooms.notice.hide}
          </button>
          <button type="button" className="notice__action notice__action--danger" onClick={() => void remove()}>
            {koRooms.notice.remove}
          </button>
        </div>
      )}
    </section>
  );
}
