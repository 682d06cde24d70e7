// A message's text: web addresses and e-mail addresses become links (linkifyjs finds them; the
// text itself is only ever rendered as text, never as HTML), and a long message folds after
// FOLD_AT characters behind '전체보기'.
import { tokenize } from 'linkifyjs';
import { useState, type ReactNode } from 'react';
import { ko } from '../../i18n/ko';

export const FOLD_AT = 500;

/** Only these schemes become links: never javascript: or data:. */
const SAFE_HREF = /^(https?:|mailto:)/i;

export function linkified(text: string): ReactNode[] {
  return tokenize(text).map((token, i) => {
    const value = token.toString();
    if (!token.isLink) return value;
    const href = token.toHref('https');
    if (!SAFE_HREF.test(href)) return value;
    return (
      <a key={i} href={href} target="_blank" rel="noopener noreferrer" className="msg-link">
        {value}
      </a>
    );
  });
}

export function MessageText({ content }: { content: string }) {
  const [expanded, setExpanded] = useState(false);
  const folded = !expanded && content.length > FOLD_AT;
  return (
    <>
      {linkified(folded ? `${content.slice(0, FOLD_AT)}…` : content)}
      {folded && (
        <>
          {'\n'}
          <button type="button" className="msg__more" onClick={() => setExpanded(true)}>
            {ko.room.showAll}
          </button>
        </>
      )}
    </>
  );
}
