// The message input: up to 3000 characters, Enter sends (Shift+Enter breaks the line), blank
// input is not sent. Enter that finishes a Korean IME composition does not send.
import { useState, type FormEvent, type KeyboardEvent } from 'react';
import { LIMITS, isSendableMessage } from '../../../../common/rules';
import { ko } from '../../i18n/ko';
import { SendIcon } from './icons';

export function Composer({ onSend, onTyping }: { onSend(content: string): void; /** The user typed (issue 11). */ onTyping?(): void }) {
  const [text, setText] = useState('');
  const sendable = isSendableMessage(text);

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
      <textarea
        className="composer__input"
        rows={1}
        name="message"
        aria-label={ko.room.messagePlaceholder}
        placeholder={ko.room.messagePlaceholder}
        maxLength={LIMITS.message}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          if (e.target.value.trim()) onTyping?.();
        }}
        onKeyDown={onKeyDown}
      />
      <button type="submit" className="composer__send" disabled={!sendable} aria-label={ko.room.send} title={ko.room.send}>
        <SendIcon />
      </button>
    </form>
  );
}
