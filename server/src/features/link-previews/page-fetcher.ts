// Requests for a preview, all through the outbound guard (server/src/outbound): every hop's
// address public after DNS (but for the test-only allow-list), at most 3 redirects, 5 s in all.
// The page: HTML only (by Content-Type), at most 1 MiB (a larger page gives no preview, as
// issue 27 asks). The image: image/* only, at most 5 MiB, re-encoded by sharp into a small WebP
// (attachments' thumbnailer), so what we serve is an image we made, never the page's bytes.
// No cookies are sent, and none kept: the guard has no cookie jar and we add no Cookie header.
import { Readable } from 'node:stream';
import type { Outbound, OutboundResponse } from '../../outbound';
import { makeThumbnail, THUMBNAIL_TYPE } from '../attachments/thumbnails';
import { readHead, type PageHead } from './head-reader';

export const FETCH_LIMITS = { redirects: 3, totalTimeoutMs: 5_000, pageBytes: 1024 * 1024, imageBytes: 5 * 1024 * 1024 } as const;

export const USER_AGENT = "Mozilla/5.0 (compatible; LetsChatLinkPreview/1.0; +link previews of Let's Chat)";

/** A fetch that gave nothing to show (not HTML, an error status): cached as a failure. */
export class NoPreviewError extends Error {}

function mediaType(response: OutboundResponse): string {
  const raw = response.headers['content-type'];
  return (typeof raw === 'string' ? raw : '').split(';')[0].trim().toLowerCase();
}

/** The response's charset (the header, else a <meta charset> early in the page), decoded; UTF-8 when unknown. */
function decodeHtml(response: OutboundResponse): string {
  const header = /charset=["']?([\w-]+)/i.exec(String(response.headers['content-type'] ?? ''))?.[1];
  const sniffed = /<meta[^>]+charset=["']?([\w-]+)/i.exec(response.body.subarray(0, 2048).toString('latin1'))?.[1];
  for (const label of [header, sniffed, 'utf-8']) {
    if (!label) continue;
    try {
      return new TextDecoder(label).decode(response.body);
    } catch {
      // An unknown label: the next.
    }
  }
  return response.body.toString('utf8');
}

export interface FetchedPage {
  head: PageHead;
  /** The URL that answered, after redirects. */
  url: string;
}

export async function fetchPage(outbound: Outbound, url: string): Promise<FetchedPage> {
  const response = await outbound.request(url, {
    redirects: { follow: FETCH_LIMITS.redirects },
    totalTimeoutMs: FETCH_LIMITS.totalTimeoutMs,
    maxResponseBytes: FETCH_LIMITS.pageBytes,
    headers: { 'user-agent': USER_AGENT, accept: 'text/html,application/xhtml+xml;q=0.9' },
  });
  if (response.status < 200 || response.status > 299) throw new NoPreviewError(`${url} answered ${response.status}`);
  const type = mediaType(response);
  if (type !== 'text/html' && type !== 'application/xhtml+xml') throw new NoPreviewError(`${url} is not HTML (${type || 'no type'})`);
  return { head: readHead(decodeHtml(response), response.url), url: response.url };
}

export interface PreviewImage {
  bytes: Buffer;
  contentType: string;
}

/** The page's image, re-encoded; null when it cannot be had (refused, not an image, too large). */
export async function fetchImage(outbound: Outbound, url: string): Promise<PreviewImage | null> {
  const response = await outbound.request(url, {
    redirects: { follow: FETCH_LIMITS.redirects },
    totalTimeoutMs: FETCH_LIMITS.totalTimeoutMs,
    maxResponseBytes: FETCH_LIMITS.imageBytes,
    headers: { 'user-agent': USER_AGENT, accept: 'image/*' },
  });
  if (response.status < 200 || response.status > 299 || !mediaType(response).startsWith('image/')) return null;
  const thumbnail = await makeThumbnail(Readable.from([response.body]));
  return thumbnail && { bytes: thumbnail.bytes, contentType: THUMBNAIL_TYPE };
}
