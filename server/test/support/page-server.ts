// A local web server for link previews: pages with Open Graph tags, redirect chains, a JSON
// answer, a page over 1 MiB, and an image; it records every request, with its headers, so a
// test can tell what the server asked for and what it did not.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';

export interface SeenRequest { path: string; headers: http.IncomingHttpHeaders }

type Answer = (req: http.IncomingMessage, res: http.ServerResponse) => void;

export class PageServer {
  readonly seen: SeenRequest[] = [];
  private readonly server: http.Server;
  private readonly answers = new Map<string, Answer>();
  private png: Buffer = Buffer.alloc(0);

  constructor() {
    this.server = http.createServer((req, res) => {
      const path = req.url ?? '/';
      this.seen.push({ path, headers: req.headers });
      const answer = this.answers.get(path.split('?')[0]);
      if (answer) answer(req, res);
      else res.writeHead(404).end();
    });
  }

  async start(): Promise<void> {
    this.png = await sharp({ create: { width: 640, height: 320, channels: 3, background: { r: 200, g: 40, b: 40 } } }).png().toBuffer();
    this.answer('/image.png', (_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(this.png));
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
  }

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  get origin(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  get host(): string {
    return new URL(this.origin).host;
  }

  answer(path: string, answer: Answer): void {
    this.answers.set(path, answer);
  }

  html(path: string, body: string, extraHeaders: Record<string, string> = {}): void {
    this.answer(path, (_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...extraHeaders }).end(body));
  }

  redirect(path: string, to: string): void {
    this.answer(path, (_req, res) => res.writeHead(302, { location: to }).end());
  }

  /** The requests made to a path (its query left aside). */
  requestsTo(path: string): SeenRequest[] {
    return this.seen.filter((r) => r.path.split('?')[0] === path);
  }
}

/** A page whose head has Open Graph tags (and entities, and a title that loses to og:title). */
export function ogPage(o: { title: string; description?: string; siteName?: string; image?: string }): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>Plain title</title>
<meta property="og:title" content="${o.title}">
${o.description ? `<meta property="og:description" content="${o.description}">` : ''}
${o.siteName ? `<meta property="og:site_name" content="${o.siteName}">` : ''}
${o.image ? `<meta property="og:image" content="${o.image}">` : ''}
</head><body><p>Body</p></body></html>`;
}
