// The message area: bubbles (own on the right, others' with the sender's name), centred system
// messages, day dividers and times. Scrolling to the top asks for older messages and keeps the
// reader's place when they arrive; messages arriving while the reader is scrolled up raise the
// '새 메시지 ↓' pill. Pending sends read '전송 중', failed ones offer 재전송 and 삭제. Content is
// rendered as text (with its links), never as HTML. It renders the list as laid out
// (messageLayout.ts; the room's selectMessageItems), so it lays out nothing itself. Left (or the
// page reloaded) and opened again in the tab, a room comes back to where the reader was
// (readingPlaces.ts), loading older pages until that message is there.
import { lazy, Suspense, useEffect, useLayoutEffect, useRef, useState, type FocusEvent, type KeyboardEvent } from 'react';
import { cx } from '../../components/classNames';
import { ko } from '../../i18n/ko';
import { Avatar } from '../../components/Avatar';
import type { MessageItem } from './messageLayout';
import type { CallPeer } from '../call';
import { MessageMenu, QuoteBlock, ReactionChips, openMenuOf, type MessageActionHandlers } from './MessageExtras';
import { canDeleteForEveryone } from './messageChanges';
import { MessageText } from './MessageText';
import { ReadCount } from './ReadCount';
import { keepReadingPlace, offsetIn, placeIn, readingPlace, type ReadingPlace } from './readingPlaces';
import { koPassOn } from '../../i18n/koPassOn';

// Issue 27: the multi-select mode's tick beside each message, with the lazy pass-on chunk.
const SelectTick = lazy(() => import(/* webpackChunkName: "pass-on" */ './PassOn').then((m) => ({ default: m.SelectTick })));

// A photo or file loads its view with the first message that carries one (a room of text alone never does).
// Likewise a call's record, with the first one in the room.
const CallRecordBubble = lazy(() => import(/* webpackChunkName: "room-extras" */ '../call').then((m) => ({ default: m.CallRecordBubble })));
const AttachmentView = lazy(() => import(/* webpackChunkName: "room-extras" */ './AttachmentView').then((m) => ({ default: m.AttachmentView })));
const LinkPreviewCard = lazy(() => import(/* webpackChunkName: "room-extras" */ './LinkPreviewCard').then((m) => ({ default: m.LinkPreviewCard })));

/** Within this many pixels of the top, older messages load; of the bottom, new ones scroll into view. */
const EDGE_PX = 80;

export interface MessageListProps {
  /** The stored messages, then the pending sends, laid out. */
  items: readonly MessageItem[];
  myId: number;
  hasOlder: boolean;
  loadingOlder: boolean;
  onNeedOlder(): void;
  /** How many members have not read the message with this seq; no numbers without it. */
  unreadByOf?(seq: number): number;
  onResend?(clientMsgId: string): void;
  onDelete?(clientMsgId: string): void;
  /** Reply, edit, delete, react and jump to a quote; no message menu without them. */
  actions?: MessageActionHandlers;
  /** The message to scroll to and highlight; a new token scrolls again. */
  focus?: { messageId: number; token: number } | null;
  /** The other person of a two-person room: call records offer to call them back. */
  callPeer?: CallPeer | null;
  /** The room whose reading place is kept on leaving and, with `restore`, taken back on opening. */
  place?: { chatRoomId: number; restore: boolean };
  /** Ours (issue 27): the multi-select mode: each stored message gets a tick, and no menu. */
  selection?: { selected: ReadonlySet<number>; onToggle(messageId: number): void } | null;
}

/** How long a message scrolled to stays highlighted. */
const HIGHLIGHT_MS = 2000;

export function MessageList({ items, myId, hasOlder, loadingOlder, onNeedOlder, unreadByOf, onResend, onDelete, actions, focus, callPeer = null, place, selection = null }: MessageListProps) {
  const ref = useRef<HTMLDivElement>(null);
  // The place to come back to, until its message is shown (read as the list opens).
  const restoring = useRef<ReadingPlace | null>(place?.restore ? readingPlace(myId, place.chatRoomId) : null);
  const [newBelow, setNewBelow] = useState(false);
  // Roving tabindex (issue 26): the list is one tab stop, the message last focused (the newest
  // at first); arrows move between messages, Enter or the context-menu key opens one's menu.
  const [current, setCurrent] = useState<number | null>(null);
  const newest = items.findLast((item) => item.kind === 'message' && item.messageId !== null);
  const newestId = newest?.kind === 'message' ? newest.messageId : null;
  const tabStop = current !== null && items.some((item) => item.kind === 'message' && item.messageId === current) ? current : newestId;
  const seen = useRef({ firstId: null as number | null, lastKey: null as string | null, height: 0, nearBottom: true });

  // The oldest stored message's id (null when only pending sends are shown), and whether the
  // last line is the user's own (a pending send always is). A day divider is never last.
  const firstId = items.find((item) => item.kind !== 'day')?.messageId ?? null;
  const last = items.at(-1);
  const lastKey = last?.key ?? null;
  const lastIsMine = last?.kind === 'message' && last.mine;

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const before = seen.current;
    const wanted = restoring.current;
    if (wanted && lastKey !== null) {
      const target = el.querySelector(`[data-message-id="${wanted.messageId}"]`);
      const older = firstId !== null && wanted.messageId < firstId && hasOlder;
      if (target || older) {
        // Back where the reader was; or, their message being older than what is loaded, the
        // next older page (the list stays put meanwhile: it is not at its bottom).
        if (target) {
          el.scrollTop += offsetIn(el, target) - wanted.offset;
          restoring.current = null;
        } else if (!loadingOlder) onNeedOlder();
        seen.current = { firstId, lastKey, height: el.scrollHeight, nearBottom: false };
        return;
      }
      // Their message is gone (deleted, or past what history gives): the room opens at the bottom.
      restoring.current = null;
    }
    if (before.firstId !== null && firstId !== null && firstId < before.firstId) {
      // Older messages went in above: keep the same message under the reader's eyes.
      el.scrollTop += el.scrollHeight - before.height;
    } else if (lastKey !== before.lastKey && (before.nearBottom || lastIsMine)) {
      el.scrollTop = el.scrollHeight;
      setNewBelow(false);
    } else if (lastKey !== before.lastKey && before.lastKey !== null) {
      // Something new arrived below while the reader is further up: offer the way down.
      setNewBelow(true);
    }
    seen.current = { firstId, lastKey, height: el.scrollHeight, nearBottom: before.nearBottom };
    // A first page too short to scroll could never reach "the top": ask for more right away.
    if (hasOlder && !loadingOlder && el.scrollHeight <= el.clientHeight) onNeedOlder();
  }, [firstId, lastKey, lastIsMine, hasOlder, loadingOlder, onNeedOlder]);

  // On leaving the room, where the reader was (nothing when at the bottom); a place not yet
  // reached stays the place.
  const placeRoom = place?.chatRoomId;
  useLayoutEffect(() => {
    const el = ref.current;
    if (placeRoom === undefined || !el) return;
    const keep = () => keepReadingPlace(myId, placeRoom, restoring.current ?? (seen.current.nearBottom ? null : placeIn(el)));
    // A reload or a closed tab unmounts nothing: the page going away keeps the place too.
    window.addEventListener('pagehide', keep);
    return () => {
      window.removeEventListener('pagehide', keep);
      keep();
    };
  }, [myId, placeRoom]);

  useEffect(() => {
    if (!focus) return;
    const target = ref.current?.querySelector<HTMLElement>(`[data-message-id="${focus.messageId}"]`);
    if (!target) return;
    target.scrollIntoView({ block: 'center' });
    target.focus({ preventScroll: true });
    target.classList.add('msg--focused');
    const timer = setTimeout(() => target.classList.remove('msg--focused'), HIGHLIGHT_MS);
    return () => clearTimeout(timer);
  }, [focus]);

  const onScroll = () => {
    const el = ref.current;
    if (!el) return;
    seen.current.nearBottom = el.scrollHeight - el.scrollTop - el.clientHeight < EDGE_PX;
    seen.current.height = el.scrollHeight;
    if (seen.current.nearBottom) setNewBelow(false);
    if (el.scrollTop < EDGE_PX && hasOlder && !loadingOlder) onNeedOlder();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const target = event.target as HTMLElement;
    if (!target.matches('.msg[data-message-id]') || !ref.current) return;
    if (event.key === 'Enter' || event.key === 'ContextMenu' || (event.key === 'F10' && event.shiftKey)) {
      if (actions && openMenuOf(target)) event.preventDefault();
      return;
    }
    const all = [...ref.current.querySelectorAll<HTMLElement>('.msg[data-message-id]')];
    const at = all.indexOf(target);
    const next = { ArrowUp: all[at - 1], ArrowDown: all[at + 1], Home: all[0], End: all.at(-1) }[event.key];
    if (!next) return;
    event.preventDefault();
    next.focus();
  };
  const onFocus = (event: FocusEvent<HTMLDivElement>) => {
    const id = (event.target as HTMLElement).matches('.msg[data-message-id]') ? Number((event.target as HTMLElement).dataset.messageId) : NaN;
    if (Number.isSafeInteger(id)) setCurrent(id);
  };

  const toBottom = () => {
    const el = ref.current;
    if (el) el.scrollTop = el.scrollHeight;
    seen.current.nearBottom = true;
    setNewBelow(false);
  };

  return (
    <div className="messages-frame">
      {/* Floats over the list so that showing it does not move what the reader is looking at. */}
      {loadingOlder && <p className="messages__loading" role="status">{ko.room.loadingOlder}</p>}
      <div className="messages" ref={ref} onScroll={onScroll} onKeyDown={onKeyDown} onFocus={onFocus} data-testid="messages" role="log">
        {items.length === 0 && <p className="messages__empty">{ko.room.noMessages}</p>}
        {items.map((item) => {
          if (item.kind === 'day') return <div key={item.key} className="day-divider">{item.label}</div>;
          if (item.kind === 'system' && item.callRecord)
            return (
              <Suspense key={item.key} fallback={null}>
                <CallRecordBubble event={item.callRecord} me={myId} peer={callPeer} />
              </Suspense>
            );
          if (item.kind === 'system') return <p key={item.key} className="system-msg" data-testid="system-message">{item.content}</p>;
          const bubble = (
            <p className="bubble">
              {item.replyTo && <QuoteBlock quote={item.replyTo} onJump={actions?.onJump} />}
              {item.deleted ? <span className="msg__deleted">{ko.messageActions.deleted}</span> : <MessageText content={item.content} mentionNames={item.mentionNames} />}
              {item.edited && !item.deleted && <span className="msg__edited">{ko.messageActions.edited}</span>}
            </p>
          );
          return (
            <div
              key={item.key}
              className={cx('msg', item.mine && 'msg--mine', item.pending && !item.failed && 'msg--pending', item.failed && 'msg--failed', !item.showSender && 'msg--grouped')}
              data-testid={item.mine ? 'my-message' : 'their-message'}
              data-message-id={item.messageId ?? undefined}
              tabIndex={item.messageId === null ? undefined : item.messageId === tabStop ? 0 : -1}
              onContextMenu={(event) => {
                // A long press on a phone (or a right click): the message's menu, not the browser's.
                if (actions && openMenuOf(event.currentTarget)) event.preventDefault();
              }}
            >
              {selection && item.messageId !== null && !item.deleted && (
                <Suspense fallback={null}>
                  <SelectTick messageId={item.messageId} label={item.content || item.attachment?.name || ''} selected={selection.selected.has(item.messageId)} onToggle={selection.onToggle} />
                </Suspense>
              )}
              {!item.mine && <span className="msg__avatar-slot">{item.showSender && <Avatar name={item.senderName} size={36} photo={item.senderPhoto} />}</span>}
              <div className="msg__column">
                {!item.mine && item.showSender && <span className="msg__sender">{item.senderName}</span>}
                {item.forwarded && !item.deleted && <span className="msg__forwarded" data-testid="forwarded-mark">{koPassOn.forwarded}</span>}
                <div className="msg__line">
                  {item.attachment && !item.deleted ? (
                    <div className="msg__stack">
                      <Suspense fallback={null}>
                        <AttachmentView attachment={item.attachment} attachments={item.attachments} />
                      </Suspense>
                      {(item.content || item.replyTo) && bubble}
                      {item.linkPreview && (
                        <Suspense fallback={null}>
                          <LinkPreviewCard preview={item.linkPreview} />
                        </Suspense>
                      )}
                    </div>
                  ) : item.linkPreview && !item.deleted ? (
                    <div className="msg__stack">
                      {bubble}
                      <Suspense fallback={null}>
                        <LinkPreviewCard preview={item.linkPreview} />
                      </Suspense>
                    </div>
                  ) : bubble}
                  {actions && !selection && item.messageId !== null && !item.deleted && (
                    <MessageMenu
                      messageId={item.messageId}
                      content={item.content}
                      senderName={item.senderName}
                      mine={item.mine}
                      canDelete={canDeleteForEveryone({ senderId: item.mine ? myId : null, enrolledAt: item.enrolledAt, deleted: item.deleted ? true : undefined }, myId, Date.now())}
                      handlers={actions}
                    />
                  )}
                  {unreadByOf && item.seq !== undefined && <ReadCount count={unreadByOf(item.seq)} />}
                  {item.failed ? (
                    <span className="msg__failed">
                      <span className="msg__failed-label">{ko.room.failed}</span>
                      <button type="button" className="msg__action" aria-label={ko.room.resendLabel(item.content || item.attachment?.name || '')} onClick={() => item.clientMsgId && onResend?.(item.clientMsgId)}>
                        {ko.room.resend}
                      </button>
                      <button type="button" className="msg__action msg__action--danger" aria-label={ko.room.deleteLabel(item.content || item.attachment?.name || '')} onClick={() => item.clientMsgId && onDelete?.(item.clientMsgId)}>
                        {ko.room.deleteUnsent}
                      </button>
                    </span>
                  ) : item.pending ? (
                    <span className="msg__time">{ko.room.sending}</span>
                  ) : (
                    item.showTime && <span className="msg__time">{item.time}</span>
                  )}
                </div>
                {item.reactions && item.messageId !== null && actions && (
                  <ReactionChips messageId={item.messageId} reactions={item.reactions} myId={myId} onReact={actions.onReact} />
                )}
              </div>
            </div>
          );
        })}
      </div>
      {newBelow && (
        <button type="button" className="new-messages-pill" onClick={toBottom} data-testid="new-messages-pill">
          {ko.room.newMessages}
        </button>
      )}
    </div>
  );
}
