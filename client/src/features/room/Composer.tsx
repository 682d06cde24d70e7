// The message input: up to 3000 characters, Enter sends (Shift+Enter breaks the line), blank
// input is not sent. Enter that finishes a Korean IME composition does not send. The box grows
// with its text up to 6 lines, then scrolls; near the limit it shows how much is used.
import { lazy, Suspense, useEffect, useId, useLayoutEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { insertMention, mentionCandidates, mentionQuery, type Member } from './mentions';
import { LIMITS, isSendableMessage } from '@common/rules';
import { ko } from '../../i18n/ko';
import { SendIcon } from '../../components/icons';

const MentionPicker = lazy(() => import(/* webpackChunkName: "room-extras" */ './MentionPicker'));
/** The composer's '이모티콘' and '음성 메시지' buttons (issue 27): lazy, so the room's first paint carries none of them. */
const ComposerButtons = lazy(() => import(/* webpackChunkName: "composer-buttons" */ './ComposerButtons'));

/** From this many characters on, the count against the 3000 limit shows. */
export const COUNT_FROM = LIMITS.message - 300;

export interface ComposerProps {
  onSend(content: string): void;
  /** The user typed: the room may tell the others. */
  onTyping?(): void;
  /** Focus the box once this turns true (the room is ready), where a keyboard is at hand. */
  focusWhen?: boolean;
  /** The text to start with (the room's kept draft), read once as the composer starts. */
  initialText?: string | (() => string);
  /** The text changed (sent included, then to ''): the room keeps it as its draft. */
  onTextChange?(text: string): void;
  /** The room's members: '@' offers them (the user excluded, `myId`). */
  members?: readonly Member[];
  myId?: number;
  /** The room: given, the composer offers a voice message (the '음성 메시지' button). */
  chatRoomId?: number;
}

/** Grows the textarea to fit its text, up to its CSS max-height (6 lines). */
function fitHeight(box: HTMLTextAreaElement): void {
  box.style.height = 'auto';
  const max = Number.parseFloat(getComputedStyle(box).maxHeight) || Infinity;
  const needed = box.scrollHeight + (box.offsetHeight - box.clientHeight);
  box.style.height = `${Math.min(needed, max)}px`;
  box.style.overflowY = needed > max ? 'auto' : 'hidden';
}

export function Composer({ onSend, onTyping, focusWhen = false, initialText = '', onTextChange, members = NO_MEMBERS, myId = 0, chatRoomId }: ComposerProps) {

  const [text, setTextState] = useState(initialText);
  const setText = (next: string) => {
    setTextState(next);
    onTextChange?.(next);
  };
  const mention = useMention(text, members, myId);
  const boxRef = useRef<HTMLTextAreaElement>(null);
  const countId = useId();
  const sendable = isSendableMessage(text);
  const showCount = text.length >= COUNT_FROM;

  useLayoutEffect(() => {
    if (boxRef.current) fitHeight(boxRef.current);
  }, [text]);

  useEffect(() => {
    // On a touch screen the keyboard would cover the conversation the user came to read.
    const keyboardAtHand = typeof window.matchMedia !== 'function' || !window.matchMedia('(pointer: coarse)').matches;
    if (focusWhen && keyboardAtHand) boxRef.current?.focus();
  }, [focusWhen]);

  const send = () => {
    if (!sendable) return;
    onSend(text);
    setText('');
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    send();
  };
  const pick = (member: Member) => {
    const box = boxRef.current;
    if (!mention.query || !box) return;
    const next = insertMention(text, mention.query.start, mention.caret, member.name);
    setText(next.text);
    mention.setCaret(next.caret);
    requestAnimationFrame(() => box.setSelectionRange(next.caret, next.caret));
  };
  /** Puts the picked emoji where the caret is (or in place of the selection). */
  const insertEmoji = (emoji: string) => {
    const box = boxRef.current;
    const start = box?.selectionStart ?? text.length;
    const end = box?.selectionEnd ?? text.length;
    const next = (text.slice(0, start) + emoji + text.slice(end)).slice(0, LIMITS.message);
    setText(next);
    const caret = Math.min(next.length, start + emoji.length);
    requestAnimationFrame(() => box?.setSelectionRange(caret, caret));
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (mention.open && !event.nativeEvent.isComposing && mention.handleKey(event.key, event.shiftKey, pick)) {
      event.preventDefault();
      event.stopPropagation();
      return;
    }
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    send();
  };

  return (
    <form className="composer" onSubmit={onSubmit}>
      <div className="composer__field">
        <textarea
          ref={boxRef}
          className="composer__input"
          rows={1}
          name="message"
          aria-label={ko.room.messagePlaceholder}
          aria-describedby={showCount ? countId : undefined}
          placeholder={ko.room.messagePlaceholder}
          maxLength={LIMITS.message}
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            mention.setCaret(e.target.selectionStart);
            if (e.target.value.trim()) onTyping?.();
          }}
          onSelect={(e) => mention.setCaret(e.currentTarget.selectionStart)}
          onKeyDown={onKeyDown}
          aria-autocomplete={members.length > 0 ? 'list' : undefined}
          aria-controls={mention.open ? mention.listId : undefined}
          aria-activedescendant={mention.open ? `${mention.listId}-${mention.active}` : undefined}
        />
        {mention.open && (
          <Suspense fallback={null}>
            <MentionPicker id={mention.listId} candidates={mention.candidates} active={mention.active} onPick={pick} />
          </Suspense>
        )}
        {showCount && (
          <span id={countId} className="composer__count" data-testid="composer-count" data-full={text.length >= LIMITS.message || undefined}>
            {ko.room.charCount(text.length, LIMITS.message)}
          </span>
        )}
      </div>
      {chatRoomId !== undefined && (
        <Suspense fallback={null}>
          <ComposerButtons chatRoomId={chatRoomId} onEmoji={insertEmoji} onEmojiClosed={() => boxRef.current?.focus()} />
        </Suspense>
      )}
      <button type="submit" className="composer__send" disabled={!sendable} aria-label={ko.room.send} title={ko.room.send}>
        <SendIcon />
      </button>
    </form>
  );
}

const NO_MEMBERS: Member[] = [];

/** The '@' mention being typed: whom it offers, which is active, and its keys. */
function useMention(text: string, members: readonly Member[], myId: number) {
  const listId = useId();
  const [caret, setCaretState] = useState(text.length);
  const [active, setActive] = useState(0);
  const [dismissedAt, setDismissedAt] = useState<number | null>(null);
  const query = members.length > 0 ? mentionQuery(text, caret) : null;
  const candidates = query ? mentionCandidates(members, myId, query.query) : NO_MEMBERS;
  const open = query !== null && candidates.length > 0 && dismissedAt !== query.start;
  const current = Math.min(active, Math.max(candidates.length - 1, 0));
  const setCaret = (at: number | null) => {
    setCaretState(at ?? text.length);
    setActive(0);
  };
  /** True when the key was the picker's. */
  const handleKey = (key: string, shift: boolean, pick: (member: Member) => void): boolean => {
    if (key === 'ArrowDown' || key === 'ArrowUp') {
      const step = key === 'ArrowDown' ? 1 : -1;
      setActive((current + step + candidates.length) % candidates.length);
      return true;
    }
    if ((key === 'Enter' && !shift) || key === 'Tab') {
      pick(candidates[current]);
      return true;
    }
    if (key === 'Escape' && query) {
      setDismissedAt(query.start);
      return true;
    }
    return false;
  };
  return { listId, query, caret, candidates, open, active: current, setCaret, handleKey };
}
