// The message input: up to 3000 characters, Enter sends (Shift+Enter breaks the line), blank
// input is not sent. Enter that finishes a Korean IME composition does not send. The box grows
// with its text up to 6 lines, then scrolls; near the limit it shows how much is used.
import { useEffect, useId, useLayoutEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { LIMITS, isSendableMessage } from '@common/rules';
import { ko } from '../../i18n/ko';
import { SendIcon } from '../../components/icons';

/** From this many characters on, the count against the 3000 limit shows. */
export const COUNT_FROM = LIMITS.message - 300;

export interface ComposerProps {
  onSend(content: string): void;
  /** The user typed: the room may tell the others. */
  onTyping?(): void;
  /** Focus the box once this turns true (the room is ready), where a keyboard is at hand. */
  focusWhen?: boolean;
}

/** Grows the textarea to fit its text, up to its CSS max-height (6 lines). */
function fitHeight(box: HTMLTextAreaElement): void {
  box.style.height = 'auto';
  const max = Number.parseFloat(getComputedStyle(box).maxHeight) || Infinity;
  const needed = box.scrollHeight + (box.offsetHeight - box.clientHeight);
  box.style.height = `${Math.min(needed, max)}px`;
  box.style.overflowY = needed > max ? 'auto' : 'hidden';
}

export function Composer({ onSend, onTyping, focusWhen = false }: ComposerProps) {
  const [text, setText] = useState('');
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
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
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
            if (e.target.value.trim()) onTyping?.();
          }}
          onKeyDown={onKeyDown}
        />
        {showCount && (
          <span id={countId} className="composer__count" data-testid="composer-count" data-full={text.length >= LIMITS.message || undefined}>
            {ko.room.charCount(text.length, LIMITS.message)}
          </span>
        )}
      </div>
      <button type="submit" className="composer__send" disabled={!sendable} aria-label={ko.room.send} title={ko.room.send}>
        <SendIcon />
      </button>
    </form>
  );
}
