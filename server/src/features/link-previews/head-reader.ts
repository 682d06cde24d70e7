// What a page says of itself, read from its <head>: Open Graph (og:title, og:description,
// og:site_name, og:image), the Twitter card (twitter:title, twitter:description, twitter:image)
// and, failing those, <title> and <meta name="description">. Parsed with htmlparser2, which
// decodes entities; parsing stops at </head> or at the first tag of the body, so the rest of
// a large page is never tokenised. Text is whitespace-collapsed, trimmed and capped.
import { Parser } from 'htmlparser2';

export const CAPS = { title: 300, description: 600, siteName: 100 } as const;

export interface PageHead {
  title: string | null;
  description: string | null;
  siteName: string | null;
  /** The image's absolute http(s) URL, resolved against the page's own URL. */
  image: string | null;
}

/** Collapsed, trimmed, and cut to `max` characters (code points) with an ellipsis; null if empty. */
export function cleanText(raw: string | undefined, max: number): string | null {
  if (raw === undefined) return null;
  const text = raw.replace(/[\s\p{Cc}]+/gu, ' ').trim();
  if (text === '') return null;
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('').trimEnd()}…`;
}

/** Tags of the head that can hold what we read; anything else opened means the body began. */
const HEAD_TAGS = new Set(['html', 'head', 'meta', 'title', 'link', 'script', 'style', 'noscript', 'base', 'template']);

function absoluteHttp(raw: string | undefined, base: string): string | null {
  if (!raw) return null;
  try {
    const url = new URL(raw.trim(), base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.toString() : null;
  } catch {
    return null;
  }
}

/** Reads the page's head; `pageUrl` (the URL that answered) resolves a relative image. */
export function readHead(html: string, pageUrl: string): PageHead {
  const meta = new Map<string, string>();
  let title: string | undefined;
  let inTitle = false;
  let titleText = '';
  let done = false;
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (done) return;
        if (!HEAD_TAGS.has(name)) {
          done = true;
          parser.pause();
          return;
        }
        if (name === 'title' && title === undefined) {
          inTitle = true;
          titleText = '';
        }
        if (name === 'meta') {
          const key = (attrs.property ?? attrs.name ?? '').trim().toLowerCase();
          // The first of each wins, as the Open Graph protocol says of repeated properties.
          if (key !== '' && attrs.content !== undefined && !meta.has(key)) meta.set(key, attrs.content);
        }
      },
      ontext(text) {
        if (inTitle) titleText += text;
      },
      onclosetag(name) {
        if (name === 'title' && inTitle) {
          inTitle = false;
          title = titleText;
        }
        if (name === 'head') {
          done = true;
          parser.pause();
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  if (!done) parser.end();
  const first = (...keys: string[]) => keys.map((k) => meta.get(k)).find((v) => v !== undefined && v.trim() !== '');
  return {
    title: cleanText(first('og:title', 'twitter:title') ?? title, CAPS.title),
    description: cleanText(first('og:description', 'twitter:description', 'description'), CAPS.description),
    siteName: cleanText(first('og:site_name', 'application-name'), CAPS.siteName),
    image: absoluteHttp(first('og:image:secure_url', 'og:image', 'og:image:url', 'twitter:image', 'twitter:image:src'), pageUrl),
  };
}
