// Where a search keyword occurs in a found message, as parts to render as text (never HTML):
// the server matches Latin letters case-insensitively, so the highlight does too.

export interface TextPart { text: string; match: boolean }

/** The content cut into plain and matching parts, every occurrence of the keyword marked. */
export function highlightParts(content: string, keyword: string): TextPart[] {
  const needle = keyword.trim();
  if (!needle) return [{ text: content, match: false }];
  // Lower-casing keeps each position only when it keeps the length (it does for ASCII and
  // Hangul); otherwise match the keyword as written.
  const lowered = content.toLowerCase();
  const sameLength = lowered.length === content.length;
  const haystack = sameLength ? lowered : content;
  const sought = sameLength ? needle.toLowerCase() : needle;
  const parts: TextPart[] = [];
  let from = 0;
  for (;;) {
    const at = haystack.indexOf(sought, from);
    if (at < 0) break;
    if (at > from) parts.push({ text: content.slice(from, at), match: false });
    parts.push({ text: content.slice(at, at + sought.length), match: true });
    from = at + sought.length;
  }
  if (from < content.length || parts.length === 0) parts.push({ text: content.slice(from), match: false });
  return parts;
}

/**
 * A long message shown around its first match: the results list shows a line or two, and the
 * match must be in it.
 */
export function excerptAround(content: string, keyword: string, before = 40, max = 160): string {
  const at = content.toLowerCase().indexOf(keyword.trim().toLowerCase());
  if (content.length <= max || at <= before) return content.length <= max ? content : `${content.slice(0, max)}…`;
  const start = at - before;
  const end = Math.min(content.length, start + max);
  return `…${content.slice(start, end)}${end < content.length ? '…' : ''}`;
}
