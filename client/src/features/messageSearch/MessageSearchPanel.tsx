// The message search box and its results: in a room it searches that room, on the
// chat list every room of the user. Results show the room (all rooms), the sender, the time and
// the text with the keyword highlighted, rendered as text only. Opening one shows the room
// around it (/chat-room?cri=N&seq=S), or, in the room, scrolls to it when it is already held.
import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useLocation } from 'wouter';
import { LIMITS } from '@common/rules';
import { useAppDispatch, useAppSelector } from '../../kernel/hooks';
import { cx } from '../../components/classNames';
import { ko } from '../../i18n/ko';
import { relativeTime } from '../../components/relativeTime';
import { chatRoomPathAt } from '../../kernel/roomPaths';
import { excerptAround, highlightParts } from './highlight';
import './messageSearch.css';
import { moreRequested, searchCleared, searchRequested, selectSearch, type SearchScope } from './messageSearchSlice';

export interface MessageSearchPanelProps {
  scope: SearchScope;
  /** The room searched (scope 'room'). */
  chatRoomId?: number;
  /** Closing the panel (the room's; the chat list's box only clears). */
  onClose?(): void;
  /** In the room: scroll to a result already on screen; false when it is not held. */
  onOpenHeld?(messageId: number): boolean;
}

export function MessageSearchPanel({ scope, chatRoomId, onClose, onOpenHeld }: MessageSearchPanelProps) {
  const dispatch = useAppDispatch();
  const [, navigate] = useLocation();
  const state = useAppSelector(selectSearch(scope));
  const [text, setText] = useState('');
  const inputRef = useRef<HTMLInputElement>(null);
  const resultsId = useId();
  const now = Date.now();

  useEffect(() => {
    if (scope === 'room') inputRef.current?.focus();
    return () => {
      dispatch(searchCleared(scope));
    };
  }, [dispatch, scope]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    dispatch(searchRequested({ scope, keyword: text, ...(chatRoomId !== undefined ? { chatRoomId } : {}) }));
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    event.stopPropagation();
    if (onClose) onClose();
    else {
      setText('');
      dispatch(searchCleared(scope));
    }
  };
  const open = (chatRoomIdOf: number, messageId: number, seq: number) => {
    if (onOpenHeld?.(messageId)) {
      onClose?.();
      return;
    }
    navigate(chatRoomPathAt(chatRoomIdOf, seq));
    onClose?.();
  };

  const shown = state.status !== 'idle';
  return (
    <section className={cx('msg-search', `msg-search--${scope}`)} aria-label={ko.messageSearch.open} onKeyDown={onKeyDown} data-testid={`message-search-${scope}`}>
      <form className="msg-search__form" role="search" onSubmit={submit}>
        <input
          ref={inputRef}
          // A text box, not type=search: the user search screens beside the chat list own the page's searchbox.
          type="text"
          enterKeyHint="search"
          className="field__input msg-search__input"
          aria-label={ko.messageSearch.label}
          placeholder={scope === 'room' ? ko.messageSearch.placeholderRoom : ko.messageSearch.placeholderAll}
          maxLength={LIMITS.searchInput}
          value={text}
          onChange={(e) => setText(e.target.value)}
          aria-controls={shown ? resultsId : undefined}
        />
        <button type="submit" className="chip msg-search__submit">{ko.messageSearch.submit}</button>
        {onClose && (
          <button type="button" className="chip" onClick={onClose} aria-label={ko.messageSearch.close}>
            ✕
          </button>
        )}
      </form>
      {shown && (
        <div id={resultsId} className="msg-search__results" aria-label={ko.messageSearch.results} role="region" aria-live="polite" aria-busy={state.status === 'loading'}>
          {state.status === 'loading' && <p className="msg-search__state" role="status">{ko.messageSearch.searching}</p>}
          {state.status === 'failed' && <p className="msg-search__state" role="alert">{ko.messageSearch.failed}</p>}
          {state.status === 'done' && state.results.length === 0 && <p className="msg-search__state" role="status">{ko.messageSearch.noResults}</p>}
          {state.results.length > 0 && (
            <ul className="msg-search__list">
              {state.results.map((r) => (
                <li key={r.messageId}>
                  <button type="button" className="msg-search__result" onClick={() => open(r.chatRoomId, r.messageId, r.seq)} data-testid="message-search-result">
                    <span className="msg-search__meta">
                      {scope === 'all' && <span className="msg-search__room">{r.chatRoomName}</span>}
                      <span className="msg-search__sender">{r.senderName}</span>
                      <time className="msg-search__time" dateTime={r.enrolledAt}>{relativeTime(r.enrolledAt, now)}</time>
                    </span>
                    <span className="msg-search__text">
                      {highlightParts(excerptAround(r.content, state.keyword), state.keyword).map((part, i) =>
                        part.match ? <mark key={i}>{part.text}</mark> : <span key={i}>{part.text}</span>,
                      )}
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          )}
          {state.hasMore && (
            <button type="button" className="chip msg-search__more" disabled={state.loadingMore} onClick={() => dispatch(moreRequested(scope))}>
              {state.loadingMore ? ko.messageSearch.searching : ko.messageSearch.more}
            </button>
          )}
        </div>
      )}
    </section>
  );
}
