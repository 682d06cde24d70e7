// The built client as answers: a file by its path (content-hashed names cached for a year, the
// rest revalidated), and index.html for every page address, whose client shows the screen.
// Conditional GET answers 304 from the files' ETags (conditional.ts).
import { isClientRoute } from '@common/client-routes';
import type { Logger } from '../log';
import { noneMatch } from './conditional';
import type { Outgoing } from './response';
import { encodingHeaders, loadStatic, negotiate, type StaticFile } from './static-files';

const PAGE_CSP =
  "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self' ws: wss:; " +
  "media-src 'self' blob: mediastream:; worker-src 'self' blob:; frame-ancestors 'none'; base-uri 'self'; form-action 'self'";

/** 304 for a static file the client holds: its validators and Vary, no body. */
function notModified(file: StaticFile, cache: Record<string, string>): Outgoing {
  const { Vary } = encodingHeaders(file, null);
  return { status: 304, headers: { ...cache, ...(Vary ? { Vary } : {}) }, setCookies: [], body: '' };
}

export class StaticSite {
  private readonly files: Map<string, StaticFile>;

  constructor(dir: string, log: Logger) {
    this.files = loadStatic(dir);
    if (!this.files.has('/index.html')) {
      log.warn({ staticDir: dir }, 'client is not built: pages answer a plain notice (run make build)');
    }
  }

  /** The answer to a GET or HEAD of `path` that no route took. */
  answer(path: string, headers: Record<string, string>): Outgoing {
    const file = this.files.get(path);
    const acceptEncoding = headers['accept-encoding'];
    if (file && path !== '/index.html') {
      const cache = { 'Cache-Control': file.immutable ? 'public, max-age=31536000, immutable' : 'no-cache', ETag: file.etag };
      if (noneMatch(headers['if-none-match'], file.etag)) return notModified(file, cache);
      const { body, encoding } = negotiate(file, acceptEncoding);
      return { status: 200, headers: { 'Content-Type': file.type, ...cache, ...encodingHeaders(file, encoding) }, setCookies: [], body };
    }
    // Every page answers index.html, and the client shows the screen; an address that is no
    // client route gets the same page (the client's 404 screen) with the status 404.
    const index = this.files.get('/index.html');
    const status = isClientRoute(path) ? 200 : 404;
    if (!index) {
      return { status: 503, headers: { 'Content-Type': 'text/plain; charset=utf-8' }, setCookies: [], body: 'The client is not built. Run: make build\n' };
    }
    // The page is revalidated on every visit (no-cache): usually answered with 304 and no body.
    const cache = { 'Cache-Control': 'no-cache', ETag: index.etag };
    if (status === 200 && noneMatch(headers['if-none-match'], index.etag)) return notModified(index, cache);
    const { body, encoding } = negotiate(index, acceptEncoding);
    return {
      status,
      headers: { 'Content-Type': index.type, ...cache, 'Content-Security-Policy': PAGE_CSP, ...encodingHeaders(index, encoding) },
      setCookies: [],
      body,
    };
  }
}
