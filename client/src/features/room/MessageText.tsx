// A message's text: web addresses and e-mail addresses become links (linkifyjs finds them; the
// text itself is only ever rendered as text, never as HTML), and a long message folds after
// FOLD_AT characters behind '전체보기'.
//
// linkifyjs is 9 KiB of gzipped JavaScript, so it is not part of the room's code: it is fetched
// the first time a message that may hold an address is shown (most messages hold none), and
// such a message is plain text until it arrives.
import { Fragment, useEffect, useState, type ReactNode } from 'react';
import { mentionParts } from './mentions';
import type { tokenize as linkifyTokenize } from 'linkifyjs';
import { ko } from '../../i18n/ko';

export const FOLD_AT = 500;

/** Only these schemes become links: never javascript: or data:. */
const SAFE_HREF = /^(https?:|mailto:)/i;
/** Anything linkifyjs could call an address has one of these; text without them needs no linkifier. */
const MAY_HOLD_ADDRESS = /https?:|www\.|@|\.[a-z]{2,}/i;

type Tokenize = typeof linkifyTokenize;
let tokenizer: Tokenize | null = null;
let loading: Promise<Tokenize> | null = null;

function loadTokenizer(): Promise<Tokenize> {
  loading ??= import(/* webpackChunkName: "linkify" */ 'linkifyjs').then((m) => (tokenizer = m.tokenize));
  return loading;
}

/** The linkifier once loaded; asks for it when `wanted`. */
function useTokenizer(wanted: boolean): Tokenize | null {
  // In a function: useState would call a function given as the initial state.
  const [loaded, setLoaded] = useState<Tokenize | null>(() => tokenizer);
  useEffect(() => {
    if (!wanted || loaded) return;
    loadTokenizer().then(
      (t) => setLoaded(() => t),
      () => {}, // a failed fetch leaves the text plain, which is still all of it
    );
  }, [wanted, loaded]);
  return loaded;
}

/** Text with the mentions of `names` highlighted (issue 26); as is without names. */
function withMentions(text: string, names: readonly string[] | undefined, keyPrefix: string): ReactNode {
  if (!names?.length || !text.includes('@')) return text;
  return mentionParts(text, names).map((part, i) =>
    part.mention ? (
      <strong key={`${keyPrefix}${i}`} className="mention" data-testid="mention">
        {part.text}
      </strong>
    ) : (
      part.text
    ),
  );
}

export function linkified(text: string, tokenize: Tokenize, mentionNames?: readonly string[]): ReactNode[] {
  return tokenize(text).map((token, i) => {
    const value = token.toString();
    if (!token.isLink) return <Fragment key={i}>{withMentions(value, mentionNames, `${i}-`)}</Fragment>;
    const href = token.toHref('https');
    if (!SAFE_HREF.test(href)) return value;
    return (
      <a key={i} href={href} target="_blank" rel="noopener noreferrer" className="msg-link">
        {value}
      </a>
    );
  });
}

export function MessageText({ content, mentionNames }: { content: string; mentionNames?: readonly string[] }) {
  const [expanded, setExpanded] = useState(false);
  const folded = !expanded && content.length > FOLD_AT;
  const shown = folded ? `${content.slice(0, FOLD_AT)}…` : content;
  const mayLink = MAY_HOLD_ADDRESS.test(shown);
  const tokenize = useTokenizer(mayLink);
  return (
    <>
      {mayLink && tokenize ? linkified(shown, tokenize, mentionNames) : withMentions(shown, mentionNames, '')}
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
