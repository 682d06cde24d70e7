// The link a message is previewed by: its first http(s) URL that the outbound guard would let us
// request (a link to localhost or a private address is skipped, not previewed, and never
// fetched). A careful regex rather than a linkifier: only explicit http:// and https:// links
// count (a bare "example.com" is not fetched), and punctuation that ends a sentence is not part
// of the URL, nor a closing bracket the URL did not open.

/** Longer URLs are not previewed (and the cache keys them by hash, so any length would fit). */
export const MAX_URL_LENGTH = 2048;

const URL_IN_TEXT = /\bhttps?:\/\/[^\s<>"'`\u3000]+/gi;
const TRAILING = /[.,;:!?'"\u3001\u3002]+$/;
const PAIRS: Record<string, string> = { ')': '(', ']': '[', '}': '{' };

function count(text: string, ch: string): number {
  let n = 0;
  for (const c of text) if (c === ch) n += 1;
  return n;
}

/** The URL as written, without the sentence's punctuation after it. */
export function trimUrl(found: string): string {
  let url = found;
  for (;;) {
    const before = url;
    url = url.replace(TRAILING, '');
    const last = url.at(-1);
    // "(see https://x.org/a)" ends at the bracket; "https://en.wikipedia.org/wiki/A_(b)" keeps it.
    if (last !== undefined && last in PAIRS && count(url, last) > count(url, PAIRS[last])) url = url.slice(0, -1);
    if (url === before) return url;
  }
}

/** Every http(s) URL of a text, in order. */
export function urlsIn(text: string): string[] {
  return [...text.matchAll(URL_IN_TEXT)].map((m) => trimUrl(m[0])).filter((u) => /^https?:\/\/[^/?#]/i.test(u));
}

/**
 * The first URL of the text that `allowed` accepts (the guard's checkUrl, which throws on a
 * refused one), normalised as the URL parser writes it; null when there is none.
 */
export function firstPreviewableUrl(text: string, allowed: (url: string) => URL): string | null {
  for (const candidate of urlsIn(text)) {
    if (candidate.length > MAX_URL_LENGTH) continue;
    try {
      return allowed(candidate).toString();
    } catch {
      // Refused by the guard: the next link may do.
    }
  }
  return null;
}
