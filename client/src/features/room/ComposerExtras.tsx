// What the composer shows around the message: the quote of the message being replied to (with its
// cancel) above the input, and the composer in edit mode for one's own message (Enter saves,
// Shift+Enter breaks the line, Escape or '수정 취소' leaves it unchanged).
import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import type { ReplyQuote } from '@common/api';
import { LIMITS, isSendableMessage } from '@common/rules';
import { ko } from '../../i18n/ko';
import { SendIcon } from '../../components/icons';

export function ReplyPreview({ quote, onCancel }: { quote: ReplyQuote; onCancel(): void }) {
  useEffect(() => {
    // The user chose to reply: the box they will type in gets the focus.
    document.querySelector<HTMLTextAreaElement>('.composer__input')?.focus();
  }, [quote.messageId]);
  return (
    <div className="composer-context" data-testid="reply-preview">
      <div className="composer-context__text">
        <span className="composer-context__title">{ko.messageActions.replyingTo(quote.senderName)}</span>
        <span className="composer-context__quote">{quote.content}</span>
      </div>
      <button type="button" className="composer-context__cancel" aria-label={ko.messageActions.cancelReply} title={ko.messageActions.cancelReply} onClick={onCancel}>
        ✕
      </button>
    </div>
  );
}

export interface EditComposerProps {
  messageId: number;
  initial: string;
  onSave(messageId: number, content: string): void;
  onCancel(): void;
}

export function EditComposer({ messageId, initial, onSave, onCancel }: EditComposerProps) {
  const [text, setText] = useState(initial);
  const boxRef = useRef<HTMLTextAreaElement>(null);
  const sendable = isSendableMessage(text);

  useEffect(() => {
    const box = boxRef.current;
    if (!box) return;
    box.focus();
    box.setSelectionRange(box.value.length, box.value.length);
  }, [messageId]);

  const save = (event?: FormEvent) => {
    event?.preventDefault();
    if (sendable) onSave(messageId, text);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      onCancel();
      return;
    }
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    save(event);
  };

  return (
    <div className="composer-edit">
      <div className="composer-context" data-testid="edit-banner">
        <span className="composer-context__title">{ko.messageActions.editing}</span>
        <button type="button" className="composer-context__cancel" aria-label={ko.messageActions.cancelEdit} title={ko.messageActions.cancelEdit} onClick={onCancel}>
          ✕
        </button>
      </div>
      <form className="composer" onSubmit={save}>
        <div className="composer__field">
          <textarea
            ref={boxRef}
            className="composer__input composer__input--edit"
            rows={2}
            name="edit"
            aria-label={ko.messageActions.editing}
            maxLength={LIMITS.message}
            value={text}
            onChange={(e) => setText(e.target.value)}
            onKeyDown={onKeyDown}
            data-testid="edit-input"
          />
        </div>
        <button type="submit" className="composer__send" disabled={!sendable} aria-label={ko.messageActions.saveEdit} title={ko.messageActions.saveEdit}>
          <SendIcon />
        </button>
      </form>
    </div>
  );
}
