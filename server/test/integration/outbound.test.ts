// The outbound guard's requests on real sockets, against local HTTP servers reached only through
// the test-only allow-list (docs/operations.md, Outbound requests): the connection goes to the one
// checked address with the URL's Host; redirects are refused, or followed with each hop checked;
// a server that is slow or answers too much is cut off.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { expect } from 'chai';
import { Outbound, OutboundFailedError, OutboundRefusedError, type ResolvedAddress } from '../../src/outbound';

interface Seen {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

class LocalServer {
  readonly seen: Seen[] = [];
  private server!: http.Server;
  port = 0;
  constructor(private readonly answer: (req: http.IncomingMessage, res: http.ServerResponse) => void) {}
  async start(): Promise<this> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        this.seen.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString() });
        this.answer(req, res);
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }
  get host(): string {
    return `127.0.0.1:${this.port}`;
  }
  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

const rejection = (promise: Promise<unknown>) => promise.then(() => null, (error: unknown) => error);

describe('outbound requests through the guard', function () {
  this.timeout(20_000);
  const servers: LocalServer[] = [];
  const guards: Outbound[] = [];
  const serve = (answer: (req: http.IncomingMessage, res: http.ServerResponse) => void) => {
    const server = new LocalServer(answer);
    servers.push(server);
    return server.start();
  };
  const guardFor = (allowHosts: string[], resolver?: (hostname: string) => Promise<ResolvedAddress[]>) => {
    const guard = new Outbound({ allowHosts }, resolver);
    guards.push(guard);
    return guard;
  };
  afterEach(async () => {
    for (const guard of guards.splice(0)) guard.close();
    await Promise.all(servers.splice(0).map((s) => s.stop()));
  });

  it('connects to the checked address, keeping the URL\'s host name in Host, resolving it once', async () => {
    const target = await serve((_req, res) => res.writeHead(201).end('ok'));
    const asked: string[] = [];
    const guard = guardFor([`push.pinned.test:${target.port}`], (hostname) => {
      asked.push(hostname);
      return Promise.resolve([{ address: '127.0.0.1', family: 4 }]);
    });
    const response = await guard.request(`http://push.pinned.test:${target.port}/push/1`, { method: 'POST', body: Buffer.from('payload'), redirects: 'none' });
    expect([response.status, response.body.toString()]).to.deep.equal([201, 'ok']);
    expect(target.seen.map((s) => [s.method, s.path, s.headers.host, s.body])).to.deep.equal([['POST', '/push/1', `push.pinned.test:${target.port}`, 'payload']]);
    expect(asked).to.deep.equal(['push.pinned.test']);
  });

  it('tries each checked address in turn (IPv6, then IPv4), never another', async () => {
    const target = await serve((_req, res) => res.writeHead(201).end('ok'));
    // Nothing listens on [::1] at that port: the connection falls back to the second checked address.
    const guard = guardFor([`push.dual.test:${target.port}`], () => Promise.resolve([{ address: '::1', family: 6 }, { address: '127.0.0.1', family: 4 }]));
    const response = await guard.request(`http://push.dual.test:${target.port}/push/1`, { redirects: 'none' });
    expect(response.status).to.equal(201);
    expect(target.seen).to.have.length(1);
  });

  it('speaks TLS to the checked address with the URL\'s host name as SNI, and verifies the certificate', async () => {
    // A self-signed certificate (Debian's openssl): the TLS server records the name the client
    // asked for, and the client refuses the certificate no CA vouches for.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outbound-tls-'));
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1', '-subj', '/CN=push.tls.test',
      '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem')], { stdio: 'ignore' });
    const names: string[] = [];
    const server = tls.createServer({ key: fs.readFileSync(path.join(dir, 'key.pem')), cert: fs.readFileSync(path.join(dir, 'cert.pem')),
      SNICallback: (name, done) => {
        names.push(name);
        done(null, undefined);
      } });
    server.on('tlsClientError', () => {});
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    try {
      const guard = guardFor([`push.tls.test:${port}`], () => Promise.resolve([{ address: '127.0.0.1', family: 4 }]));
      const error = await rejection(guard.request(`https://push.tls.test:${port}/push/1`, { method: 'POST', body: Buffer.from('x'), redirects: 'none' }));
      expect(error).to.be.instanceOf(OutboundFailedError);
      expect((error as Error).message).to.match(/self-signed|certificate/i);
      expect(names).to.deep.equal(['push.tls.test']);
    } finally {
      server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a name resolving to loopback when it is not allow-listed, sending nothing', async () => {
    const target = await serve((_req, res) => res.writeHead(201).end());
    const guard = guardFor([], () => Promise.resolve([{ address: '127.0.0.1', family: 4 }]));
    // https, as any URL not allow-listed must be: the refusal comes before any connection.
    expect(await rejection(guard.request(`https://push.rebound.example:${target.port}/x`, { redirects: 'none' }))).to.be.instanceOf(OutboundRefusedError);
    expect(await rejection(guard.request(`http://127.0.0.1:${target.port}/x`, { redirects: 'none' }))).to.be.instanceOf(OutboundRefusedError);
    expect(target.seen).to.deep.equal([]);
  });

  it('does not follow a redirect in push mode: the 3xx is the answer', async () => {
    const inside = await serve((_req, res) => res.writeHead(200).end('secret'));
    const redirecting = await serve((_req, res) => res.writeHead(301, { location: `http://${inside.host}/internal` }).end());
    const guard = guardFor([redirecting.host, inside.host]);
    const response = await guard.request(`http://${redirecting.host}/push/1`, { method: 'POST', body: Buffer.from('x'), redirects: 'none' });
    expect(response.status).to.equal(301);
    expect(inside.seen).to.deep.equal([]);
  });

  it('follows redirects hop by hop when asked, checking each hop, and stops at the limit', async () => {
    const inside = await serve((_req, res) => res.writeHead(200).end('secret'));
    const end = await serve((_req, res) => res.writeHead(200).end('the page'));
    const toEnd = await serve((_req, res) => res.writeHead(302, { location: `http://${end.host}/page` }).end());
    const toInside = await serve((_req, res) => res.writeHead(302, { location: `http://${inside.host}/internal` }).end());
    const guard = guardFor([toEnd.host, end.host, toInside.host]);

    const followed = await guard.request(`http://${toEnd.host}/start`, { redirects: { follow: 3 } });
    expect([followed.status, followed.body.toString(), followed.url]).to.deep.equal([200, 'the page', `http://${end.host}/page`]);
    // inside is not allow-listed: the hop to it is refused like a first URL would be.
    expect(await rejection(guard.request(`http://${toInside.host}/start`, { redirects: { follow: 3 } }))).to.be.instanceOf(OutboundRefusedError);
    expect(inside.seen).to.deep.equal([]);
    const tooFar = await guard.request(`http://${toEnd.host}/start`, { redirects: { follow: 0 } });
    expect(tooFar.status).to.equal(302);
  });

  it('gives up on a server that never answers within the total timeout', async () => {
    const silent = await serve(() => {});
    const guard = guardFor([silent.host]);
    const error = await rejection(guard.request(`http://${silent.host}/`, { redirects: 'none', totalTimeoutMs: 300 }));
    expect(error).to.be.instanceOf(OutboundFailedError);
    expect((error as Error).message).to.match(/in time/);
  });

  it('cuts a response over the cap: an error, or its first bytes when truncation is asked', async () => {
    const big = await serve((_req, res) => res.writeHead(200).end('x'.repeat(200_000)));
    const guard = guardFor([big.host]);
    expect(await rejection(guard.request(`http://${big.host}/`, { redirects: 'none', maxResponseBytes: 1024 }))).to.be.instanceOf(OutboundFailedError);
    const head = await guard.request(`http://${big.host}/`, { redirects: 'none', maxResponseBytes: 1024, oversize: 'truncate' });
    expect([head.body.length, head.truncated]).to.deep.equal([1024, true]);
  });
});
