// Issue 27's on-demand parts of the room, in the lazy pass-on chunk: the forward picker (the
// user's rooms and their friends with no 1:1 yet; up to 10 at once) and the multi-select bar
// (forward or delete for me the messages ticked).
import { useEffect, useId, useLayoutEffect, useState } from 'react';
import { LIMITS } from '@common/rules';
import { Button } from '../../components/Button';
import { Dialog } from '../../components/Dialog';
import { useAppDispatch, useAppSelector } from '../../kernel/hooks';
import { koMemoRoom } from '../../i18n/koMemoRoom';
import { koPassOnExtras as t } from '../../i18n/koPassOnExtras';
import { forwardRequested, forwardTargetsRequested, selectPassOn, type PassOnHandlers } from './passOnSlice';
import './passOn.css';

/** The picker for forwarding `messageIds`: closes itself once the forward went out. */
export function ForwardPicker({ messageIds, onClose }: { messageIds: readonly number[]; onClose(done: boolean): void }) {
  const dispatch = useAppDispatch();
  const { targets, status, result } = useAppSelector(selectPassOn);
  const [rooms, setRooms] = useState<ReadonlySet<number>>(new Set());
  const [friends, setFriends] = useState<ReadonlySet<number>>(new Set());
  const [sent, setSent] = useState(false);
  const titleId = useId();
  const chosen = rooms.size + friends.size;

  useEffect(() => {
    dispatch(forwardTargetsRequested());
  }, [dispatch]);
  useEffect(() => {
    if (sent && status === 'idle' && result?.ok) onClose(true);
  }, [sent, status, result, onClose]);

  const toggle = (set: ReadonlySet<number>, id: number, update: (next: ReadonlySet<number>) => void) => {
    const next = new Set(set);
    if (next.has(id)) next.delete(id);
    else if (chosen < LIMITS.forwardRooms) next.add(id);
    update(next);
  };
  const submit = () => {
    if (chosen === 0 || status === 'forwarding') return;
    setSent(true);
    dispatch(forwardRequested({ messageIds: [...messageIds], chatRoomIds: [...rooms], userIds: [...friends] }));
  };
  const full = chosen >= LIMITS.forwardRooms;

  return (
    <Dialog labelledBy={titleId} onCancel={() => onClose(false)} className="forward-picker">
      <h2 className="forward-picker__title" id={titleId}>{t.pickerTitle}</h2>
      {status === 'loading' && !targets && <p role="status">{t.loading}</p>}
      {status === 'failed' && <p className="forward-picker__error" role="alert">{t.loadFailed}</p>}
      {targets && targets.rooms.length === 0 && targets.friends.length === 0 && <p>{t.noTargets}</p>}
      {targets && (
        <div className="forward-picker__lists">
          {targets.rooms.length > 0 && (
            <fieldset className="forward-picker__group">
              <legend>{t.rooms}</legend>
              {targets.rooms.map((room) => (
                <label key={room.chatRoomId} className="forward-picker__option">
                  <input
                    type="checkbox"
                    checked={rooms.has(room.chatRoomId)}
                    disabled={full && !rooms.has(room.chatRoomId)}
                    onChange={() => toggle(rooms, room.chatRoomId, setRooms)}
                  />
                  <span>{room.self ? koMemoRoom.name : room.name}</span>
                  {room.memberCount > 2 && <span className="forward-picker__count">{room.memberCount}</span>}
                </label>
              ))}
            </fieldset>
          )}
          {targets.friends.length > 0 && (
            <fieldset className="forward-picker__group">
              <legend>{t.friends}</legend>
              {targets.friends.map((friend) => (
                <label key={friend.userId} className="forward-picker__option">
                  <input type="checkbox" checked={friends.has(friend.userId)} disabled={full && !friends.has(friend.userId)} onChange={() => toggle(friends, friend.userId, setFriends)} />
                  <span>{friend.name}</span>
                </label>
              ))}
            </fieldset>
          )}
        </div>
      )}
      {full && <p className="forward-picker__note" role="status">{t.tooMany(LIMITS.forwardRooms)}</p>}
      {sent && status === 'idle' && result && !result.ok && <p className="forward-picker__error" role="alert">{t.failed}</p>}
      <div className="dialog__actions">
        <Button variant="ghost" onClick={() => onClose(false)}>{t.cancel}</Button>
        <Button onClick={submit} disabled={chosen === 0 || status === 'forwarding'} busy={status === 'forwarding'}>
          {status === 'forwarding' ? t.sending : t.send(chosen)}
        </Button>
      </div>
    </Dialog>
  );
}

/** The multi-select mode's bar: how many are ticked, 전달, 나에게서 삭제, and 선택 취소. */
export function SelectionBar({ count, onForward, onHide, onCancel }: { count: number; onForward(): void; onHide(): void; onCancel(): void }) {
  return (
    <div className="selection-bar" role="toolbar" aria-label={t.selectionBar} data-testid="selection-bar">
      <span className="selection-bar__count" role="status">{t.selected(count)}</span>
      <Button variant="ghost" onClick={onCancel}>{t.endSelection}</Button>
      <Button variant="danger" onClick={onHide} disabled={count === 0}>{t.hideSelected}</Button>
      <Button onClick={onForward} disabled={count === 0}>{t.forwardSelected}</Button>
    </div>
  );
}

/** The message menu's 복사, 전달, 선택 and 나에게서 삭제; `onShown`: the menu places itself again, now taller. */
export function PassOnItems({ messageId, content, passOn, act, onShown }: { messageId: number; content: string; passOn: PassOnHandlers; act(run: () => void): () => void; onShown(): void }) {
  useLayoutEffect(() => onShown(), [onShown]);
  return (
    <>
      {content !== '' && (
        <button type="button" className="msg-menu__item" onClick={act(() => passOn.onCopy(content))}>
          {t.copy}
        </button>
      )}
      <button type="button" className="msg-menu__item" onClick={act(() => passOn.onForward(messageId))}>
        {t.forward}
      </button>
      <button type="button" className="msg-menu__item" onClick={act(() => passOn.onSelect(messageId))}>
        {t.select}
      </button>
      <button type="button" className="msg-menu__item msg-menu__item--danger" onClick={act(() => passOn.onHide(messageId))}>
        {t.hide}
      </button>
    </>
  );
}

/** A message's tick in the multi-select mode, named by its text. */
export function SelectTick({ messageId, label, selected, onToggle }: { messageId: number; label: string; selected: boolean; onToggle(messageId: number): void }) {
  return (
    <input type="checkbox" className="msg__tick" aria-label={t.selectMessage(label)} checked={selected} onChange={() => onToggle(messageId)} data-testid="message-tick" />
  );
}

/** The delete-for-me question, for one message or several. */
export function hideQuestion(count: number): string {
  return count === 1 ? t.hideConfirmOne : t.hideConfirm(count);
}
