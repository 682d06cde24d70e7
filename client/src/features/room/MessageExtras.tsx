// The parts of a message around its text: the quote of the message it replies
// to (a button: it scrolls to the original), '(수정됨)', the deleted placeholder, the reaction
// chips under the bubble (tap one to give or take back one's own), and the message menu. All
// text is rendered as text, never as HTML.
import { lazy, Suspense, useCallback, useEffect, useId, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { ReactionSummary, ReplyQuote } from '@common/api';
import { REACTIONS, type Reaction } from '@common/rules';
import { cx } from '../../components/classNames';
import { ko } from '../../i18n/ko';
import { koRoomMarks } from '../../i18n/koRoomMarks';
import { quoteOf } from './messageChanges';
import type { PassOnHandlers } from './passOnSlice';

// Issue 27's items (복사, 전달, 선택, 나에게서 삭제) come with the lazy pass-on chunk.
const PassOnItems = lazy(() => import(/* webpackChunkName: "pass-on" */ './PassOn').then((m) => ({ default: m.PassOnItems })));

const EmojiPicker = lazy(() => import(/* webpackChunkName: "emoji" */ './emoji/EmojiPicker'));
/** The reaction bar's button that opens the picker of any emoji (issue 27). */
export const MORE_EMOJI = '더보기';

/** What a message's menu and chips can ask for; the room page dispatches them. */
export interface MessageActionHandlers {
  onReply(quote: ReplyQuote): void;
  onEdit(messageId: number, content: string): void;
  onDelete(messageId: number): void;
  onReact(messageId: number, emoji: Reaction): void;
  onJump(messageId: number): void;
  /** '공지로 등록': make the message the room's notice (issue 26). */
  onMakeNotice?(messageId: number): void;
  /** Ours (issue 27): 복사 (the text to the clipboard), 전달, 나에게서 삭제 and 선택 (several at once). */
  passOn?: PassOnHandlers;
}

export function QuoteBlock({ quote, onJump }: { quote: ReplyQuote; onJump?(messageId: number): void }) {
  return (
    <button
      type="button"
      // A quote of someone the reader blocked reads like a deleted one and goes nowhere: the reader's history leaves that message out.
      className={cx('quote', (quote.deleted || quote.blocked) && 'quote--deleted')}
      onClick={() => quote.blocked || onJump?.(quote.messageId)}
      // The visible sender and text name the button (axe: the name holds what is seen); the title says where it goes.
      title={ko.messageActions.goToOriginal(quote.senderName)}
      data-testid="reply-quote"
    >
      <span className="quote__sender">{quote.senderName}</span>
      <span className="quote__text">{quote.content}</span>
    </button>
  );
}

export function ReactionChips({ messageId, reactions, myId, onReact }: { messageId: number; reactions: ReactionSummary[]; myId: number; onReact(messageId: number, emoji: Reaction): void }) {
  return (
    <span className="reactions" data-testid="reactions">
      {reactions.map((r) => {
        const mine = r.userIds.includes(myId);
        return (
          <button
            key={r.emoji}
            type="button"
            className={cx('reaction-chip', mine && 'reaction-chip--mine')}
            aria-pressed={mine}
            title={ko.messageActions.reactionChip(r.emoji, r.userIds.length, mine)}
            onClick={() => onReact(messageId, r.emoji)}
            data-testid="reaction-chip"
          >
            <span>{r.emoji}</span>
            <span className="reaction-chip__count">{r.userIds.length}</span>
          </button>
        );
      })}
    </span>
  );
}

export interface MessageMenuProps {
  messageId: number;
  content: string;
  senderName: string;
  mine: boolean;
  /** Own message still within the 24 h of delete-for-everyone. */
  canDelete: boolean;
  handlers: MessageActionHandlers;
}

/**
 * The '⋯' button beside a message and its menu: the six reactions, reply, and for one's own
 * message edit and delete. Reachable by keyboard (Tab to the button, Enter; Escape closes and
 * gives the focus back), by hover on a desktop and by a long press (the context menu) on a phone.
 */
export function MessageMenu({ messageId, content, senderName, mine, canDelete, handlers }: MessageMenuProps) {
  const [open, setOpen] = useState(false);
  const [picking, setPicking] = useState(false);
  const menuId = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);

  // The menu opens above its message, or below it when the message list has more room there
  // than above (a message near the top: the longer menu of issue 27 would pass under the header).
  const place = useCallback(() => {
    const panel = panelRef.current;
    const list = panel?.closest('.messages');
    if (!panel || !list || !buttonRef.current) return;
    const button = buttonRef.current.getBoundingClientRect();
    const frame = list.getBoundingClientRect();
    const above = button.top - frame.top;
    panel.classList.toggle('msg-menu__panel--below', above < panel.offsetHeight + 4 && frame.bottom - button.bottom > above);
  }, []);
  useLayoutEffect(() => {
    if (open) place();
  }, [open, place]);

  useEffect(() => {
    if (!open) return;
    panelRef.current?.querySelector<HTMLButtonElement>('button')?.focus();
    const onPointerDown = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!panelRef.current?.contains(target) && !buttonRef.current?.contains(target)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open]);

  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) buttonRef.current?.focus();
  };
  const act = (run: () => void) => () => {
    close(false);
    run();
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      close(true);
    }
  };

  return (
    <span className="msg-menu" onKeyDown={onKeyDown}>
      <button
        ref={buttonRef}
        type="button"
        // Not a tab stop of its own: the message list is one (Enter on a message opens this menu).
        tabIndex={-1}
        className="msg-menu__button"
        aria-label={ko.messageActions.menuFor(content)}
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        title={ko.messageActions.menu}
        onClick={() => setOpen((o) => !o)}
        data-testid="message-menu-button"
      >
        ⋯
      </button>
      {open && (
        <div ref={panelRef} id={menuId} className="msg-menu__panel" role="group" aria-label={ko.messageActions.menu} data-testid="message-menu">
          <span className="msg-menu__reactions" role="group" aria-label={ko.messageActions.reactionPicker}>
            {REACTIONS.map((emoji) => (
              <button key={emoji} type="button" className="msg-menu__emoji" aria-label={`${ko.messageActions.react} ${emoji}`} onClick={act(() => handlers.onReact(messageId, emoji))}>
                {emoji}
              </button>
            ))}
            <button
              type="button"
              className="msg-menu__emoji msg-menu__more"
              aria-label={MORE_EMOJI}
              title={MORE_EMOJI}
              aria-haspopup="dialog"
              onClick={() => {
                close(false);
                setPicking(true);
              }}
            >
              ＋
            </button>
          </span>
          <button type="button" className="msg-menu__item" onClick={act(() => handlers.onReply({ messageId, senderName, content: quoteOf(content) }))}>
            {ko.messageActions.reply}
          </button>
          {handlers.onMakeNotice && (
            <button type="button" className="msg-menu__item" onClick={act(() => handlers.onMakeNotice?.(messageId))}>
              {koRoomMarks.messageActions.makeNotice}
            </button>
          )}
          {handlers.passOn && (
            <Suspense fallback={null}>
              <PassOnItems messageId={messageId} content={content} passOn={handlers.passOn} act={act} onShown={place} />
            </Suspense>
          )}
          {mine && (
            <button type="button" className="msg-menu__item" onClick={act(() => handlers.onEdit(messageId, content))}>
              {ko.messageActions.edit}
            </button>
          )}
          {canDelete && (
            <button type="button" className="msg-menu__item msg-menu__item--danger" onClick={act(() => handlers.onDelete(messageId))}>
              {ko.messageActions.delete}
            </button>
          )}
        </div>
      )}
      {picking && (
        <Suspense fallback={null}>
          <EmojiPicker
            onPick={(emoji) => handlers.onReact(messageId, emoji)}
            onClose={() => {
              setPicking(false);
              buttonRef.current?.focus();
            }}
          />
        </Suspense>
      )}
    </span>
  );
}

/** Opens the message's menu from a long press (or a right click): the menu button is clicked. */
export function openMenuOf(element: HTMLElement): boolean {
  const button = element.querySelector<HTMLButtonElement>('.msg-menu__button');
  if (!button) return false;
  if (button.getAttribute('aria-expanded') !== 'true') button.click();
  return true;
}
