// The built client as the server serves it: pages for the client's routes, 404 (with the same
// page) for any other address, pre-compressed copies chosen by Accept-Encoding, immutable caching
// for hashed names, and no source maps. Uses a small client folder of its own, not dist/.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { expect } from 'chai';
import { clientPaths } from '@common/client-routes';
import type { RunningServer } from '../../src/main';
import { forEachDatabase } from '../support/databases';
import { startTestServer } from '../support/test-server';

const INDEX = '<!doctype html><title>Let\'s Chat</title><div id="root"></div>';
const SCRIPT = `console.log(${JSON.stringify('가'.repeat(2000))});`;
const HASHED = '/main.0123abcd4567.js';

function writeClient(dir: string): void {
  const write = (name: string, body: string | Buffer) => fs.writeFileSync(path.join(dir, name), body);
  write('index.html', INDEX);
  write('index.html.br', zlib.brotliCompressSync(INDEX));
  write('index.html.gz', zlib.gzipSync(INDEX));
  write(HASHED.slice(1), SCRIPT);
  write(`${HASHED.slice(1)}.br`, zlib.brotliCompressSync(SCRIPT));
  write(`${HASHED.slice(1)}.gz`, zlib.gzipSync(SCRIPT));
  write(`${HASHED.slice(1)}.map`, '{"version":3}');
  write('favicon.svg', '<svg xmlns="http://www.w3.org/2000/svg"/>');
}

/** The response as sent: with Accept-Encoding identity the body is the bytes on the wire. */
async function get(server: RunningServer, pathname: string, acceptEncoding?: string): Promise<{ status: number; headers: Headers; body: Buffer }> {
  const res = await fetch(server.url + pathname, { headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } });
  return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
}

forEachDatabase('the client files', (db) => {
  let server: RunningServer;
  let dir = '';

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'letschat-static-'));
    writeClient(dir);
    server = await startTestServer({ databaseUrl: db.url(), env: { STATIC_DIR: dir } });
  });
  after(async () => {
    await server?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('answers every client route with the page and status 200', async () => {
    for (const pathname of Object.values(clientPaths)) {
      const res = await get(server, pathname, 'identity');
      expect(res.status, pathname).to.equal(200);
      expect(res.body.toString(), pathname).to.equal(INDEX);
      expect(res.headers.get('cache-control')).to.equal('no-cache');
    }
    expect((await get(server, '/chat-room?cri=5', 'identity')).status).to.equal(200);
  });

  it('answers an unknown address with the same page and status 404', async () => {
    for (const pathname of ['/no-such-page', '/chat-list/extra', '/Login', '/index.html']) {
      const res = await get(server, pathname, 'identity');
      expect(res.status, pathname).to.equal(404);
      expect(res.body.toString(), pathname).to.equal(INDEX);
      expect(res.headers.get('content-type')).to.match(/^text\/html/);
    }
  });

  it('sends the brotli copy to a browser that accepts br, with Vary: Accept-Encoding', async () => {
    // fetch() in Node decodes br and gzip itself; the headers still say what was sent.
    const res = await fetch(server.url + HASHED, { headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-encoding')).to.equal('br');
    expect(res.headers.get('vary')).to.equal('Accept-Encoding');
    expect(res.headers.get('cache-control')).to.equal('public, max-age=31536000, immutable');
    expect(res.headers.get('content-type')).to.match(/javascript/);
    expect(await res.text()).to.equal(SCRIPT);
  });

  it('sends the gzip copy when br is not accepted, and the file itself when neither is', async () => {
    const gz = await fetch(server.url + HASHED, { headers: { 'accept-encoding': 'gzip;q=1.0, br;q=0' } });
    expect(gz.headers.get('content-encoding')).to.equal('gzip');
    expect(await gz.text()).to.equal(SCRIPT);

    const plain = await get(server, HASHED, 'identity');
    expect(plain.headers.get('content-encoding')).to.equal(null);
    expect(plain.headers.get('vary')).to.equal('Accept-Encoding');
    expect(plain.body.toString()).to.equal(SCRIPT);
  });

  it('compresses the page too, on a 404 as well', async () => {
    const page = await fetch(server.url + '/no-such-page', { headers: { 'accept-encoding': 'br' } });
    expect(page.status).to.equal(404);
    expect(page.headers.get('content-encoding')).to.equal('br');
    expect(await page.text()).to.equal(INDEX);
  });

  it('never serves a source map, nor the compressed copies as files of their own', async () => {
    for (const pathname of [`${HASHED}.map`, `${HASHED}.br`, `${HASHED}.gz`]) {
      const res = await get(server, pathname, 'identity');
      expect(res.status, pathname).to.equal(404);
      expect(res.body.toString(), pathname).to.equal(INDEX);
    }
  });

  it('answers a revalidation of the page or a file it still holds with 304 and no body, whichever copy it had', async () => {
    const revalidate = (pathname: string, ifNoneMatch: string, acceptEncoding = 'br') =>
      fetch(server.url + pathname, { headers: { 'if-none-match': ifNoneMatch, 'accept-encoding': acceptEncoding } });
    for (const pathname of ['/', '/chat-list', HASHED, '/favicon.svg']) {
      const first = await get(server, pathname, 'identity');
      const etag = first.headers.get('etag')!;
      expect(etag, pathname).to.match(/^W\/"[^"]+"$/);
      const again = await revalidate(pathname, etag);
      expect(again.status, pathname).to.equal(304);
      expect(again.headers.get('etag'), pathname).to.equal(etag);
      expect(again.headers.get('cache-control'), pathname).to.equal(first.headers.get('cache-control'));
      expect(again.headers.get('vary'), pathname).to.equal(first.headers.get('vary'));
      expect((await again.arrayBuffer()).byteLength, pathname).to.equal(0);
      // Another version: the whole body again.
      const changed = await revalidate(pathname, 'W/"older"', 'identity');
      expect(changed.status, pathname).to.equal(200);
      expect(Buffer.from(await changed.arrayBuffer()).equals(first.body), pathname).to.equal(true);
    }
    // The page and a file differ; an unknown address stays a 404 with the page.
    expect((await get(server, '/', 'identity')).headers.get('etag')).to.not.equal((await get(server, HASHED, 'identity')).headers.get('etag'));
    const missing = await revalidate('/no-such-page', (await get(server, '/', 'identity')).headers.get('etag')!, 'identity');
    expect(missing.status).to.equal(404);
    expect(await missing.text()).to.equal(INDEX);
  });

  it('serves a file without copies as it is, without Vary', async () => {
    const res = await get(server, '/favicon.svg', 'br, gzip');
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-encoding')).to.equal(null);
    expect(res.headers.get('vary')).to.equal(null);
    expect(res.headers.get('content-type')).to.match(/^image\/svg\+xml/);
  });
});
