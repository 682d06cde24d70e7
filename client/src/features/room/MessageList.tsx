// The message area: bubbles (own on the right, others' with the sender's name), centred system
// messages, day dividers and times. Scrolling to the top asks for older messages and keeps the
// reader's place when they arrive. Content is rendered as text, never as HTML.
import { useLayoutEffect, useMemo, useRef } from 'react';
import type { ChatMessage } from '../../../../common/api';
import { cx } from '../../components/classNames';
import { ko } from '../../i18n/ko';
import { Avatar } from './Avatar';
import { layoutMessages } from './messageLayout';
import { ReadCount } from './ReadCount';
import type { PendingMessage } from './messages';

/** Within this many pixels of the top, older messages load; of the bottom, new ones scroll into view. */
const EDGE_PX = 80;

export interface MessageListProps {
  messages: ChatMessage[];
  pending: PendingMessage[];
  myId: number;
  hasOlder: boolean;
  loadingOlder: boolean;
  onNeedOlder(): void;
  /** How many members have not read the message with this seq (issue 11); no numbers without it. */
  unreadByOf?(seq: number): number;
}

export function MessageList({ messages, pending, myId, hasOlder, loadingOlder, onNeedOlder, unreadByOf }: MessageListProps) {
  const items = useMemo(() => layoutMessages(messages, pending, myId), [messages, pending, myId]);
  const ref = useRef<HTMLDivElement>(null);
  const seen = useRef({ firstId: null as number | null, lastKey: null as string | null, height: 0, nearBottom: true });

  const firstId = messages[0]?.messageId ?? null;
  const lastKey = items.length ? items[items.length - 1].key : null;
  const lastIsMine = pending.length > 0 || (messages.length > 0 && messages[messages.length - 1].senderId === myId);

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const before = seen.current;
    if (before.firstId !== null && firstId !== null && firstId < before.firstId) {
      // Older messages went in above: keep the same message under the reader's eyes.
      el.scrollTop += el.scrollHeight - before.height;
    } else if (lastKey !== before.lastKey && (before.nearBottom || lastIsMine)) {
      el.scrollTop = el.scrollHeight;
    }
    seen.current = { firstId, lastKey, height: el.scrollHeight, nearBottom: before.nearBottom };
    // A first page too short to scroll could never reach "the top": ask for more right away.
    if (hasOlder && !loadingOlder && el.scrollHeight <= el.clientHeight) onNeedOlder();
  }, [firstId, lastKey, lastIsMine, hasOlder, loadingOlder, onNeedOlder]);

  const onScroll = () => {
    const el = ref.current;
    if (!el) return;
    seen.current.nearBottom = el.scrollHeight - el.scrollTop - el.clientHeight < EDGE_PX;
    seen.current.height = el.scrollHeight;
    if (el.scrollTop < EDGE_PX && hasOlder && !loadingOlder) onNeedOlder();
  };

  return (
    <div className="messages-frame">
      {/* Floats over the list so that showing it does not move what the reader is looking at. */}
      {loadingOlder && <p className="messages__loading" role="status">{ko.room.loadingOlder}</p>}
      <div className="messages" ref={ref} onScroll={onScroll} data-testid="messages" role="log">
        {items.length === 0 && <p className="messages__empty">{ko.room.noMessages}</p>}
        {items.map((item) => {
          if (item.kind === 'day') return <div key={item.key} className="day-divider">{item.label}</div>;
          if (item.kind === 'system') return <p key={item.key} className="system-msg" data-testid="system-message">{item.content}</p>;
          return (
            <div
              key={item.key}
              className={cx('msg', item.mine && 'msg--mine', item.pending && 'msg--pending', !item.showSender && 'msg--grouped')}
              data-testid={item.mine ? 'my-message' : 'their-message'}
            >
              {!item.mine && <span className="msg__avatar-slot">{item.showSender && <Avatar name={item.senderName} size={36} />}</span>}
              <div className="msg__column">
                {!item.mine && item.showSender && <span className="msg__sender">{item.senderName}</span>}
                <div className="msg__line">
                  <p className="bubble">{item.content}</p>
                  {unreadByOf && item.seq !== undefined && <ReadCount count={unreadByOf(item.seq)} />}
                  {item.pending ? (
                    <span className="msg__time">{ko.room.sending}</span>
                  ) : (
                    item.showTime && <span className="msg__time">{item.time}</span>
                  )}
                </div>
              </div>
            </div>
          );
        })}
      </div>
    </div>
  );
}
