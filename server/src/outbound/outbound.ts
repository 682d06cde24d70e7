// The one way a feature makes a request to a URL a user gave us (docs/operations.md, Outbound
// requests): Web Push endpoints now, link previews later. A user's URL must never reach our own
// network: https only (but for the test-only allow-list); no user:password@ in the URL; the host
// resolved once, every address it resolves to checked (address-policy.ts), and the connection
// made to the checked address itself, so a second DNS answer (rebinding) is never used; the TLS
// name (SNI) and Host header stay the URL's host. Redirects are not followed (push), or followed a
// few hops with each hop checked the same way (link previews). Connect and total timeouts and a
// cap on the response's size bound what a slow or hostile server can hold.
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { isIpLiteral, refusedAddressReason } from './address-policy';

export interface OutboundPolicy {
  /**
   * OUTBOUND_ALLOW_HOSTS, for tests only: exact "host:port" entries (the URL's host as it parses,
   * IPv6 in brackets) that may be plain http and resolve to any address, loopback included.
   */
  allowHosts: readonly string[];
}

/** The URL may not be requested: its scheme, its user info, its host or an address it resolves to. */
export class OutboundRefusedError extends Error {
  readonly code = 'outbound_refused';
}

/** The request was allowed but did not complete: timeout, a response too large, a network error. */
export class OutboundFailedError extends Error {
  readonly code = 'outbound_failed';
}

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Every address of a host name (dns.lookup, as the system resolves names). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export interface OutboundRequestOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: Uint8Array;
  /**
   * 'none': a 3xx answer is the response (Web Push: a push service never redirects). A number of
   * hops to follow otherwise, each new URL checked as the first was (link previews).
   */
  redirects: 'none' | { follow: number };
  /** From the start of a hop to its TCP connection. */
  connectTimeoutMs?: number;
  /** From the start to the last byte of the response, redirects included. */
  totalTimeoutMs?: number;
  maxResponseBytes?: number;
  /** Past maxResponseBytes: fail (the default), or keep the first bytes (the head of a page). */
  oversize?: 'fail' | 'truncate';
}

export interface OutboundResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** The URL that answered (after redirects). */
  url: string;
  truncated: boolean;
}

export const OUTBOUND_DEFAULTS = {
  connectTimeoutMs: 5_000,
  totalTimeoutMs: 10_000,
  maxResponseBytes: 64 * 1024,
  /** Connections kept per origin by each agent; more requests wait in the agent's queue. */
  maxSocketsPerOrigin: 64,
} as const;

/** Names that are never public, whatever they resolve to. */
const LOCAL_NAME = /(^|\.)(localhost|local|internal|intranet|lan|home\.arpa|arpa)$/;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

const defaultResolver: Resolver = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

const bare = (host: string) => (host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host);

/**
 * A lookup that answers the addresses already checked, whatever name it is asked: all of them
 * when Node asks for all (it then tries IPv6 and IPv4 in turn, "happy eyeballs"), else the first.
 */
function pinnedLookup(pinned: readonly ResolvedAddress[]): LookupFunction {
  return ((_hostname: string, options: dns.LookupOptions, callback: (...args: unknown[]) => void) => {
    if (options.all) callback(null, pinned.map(({ address, family }) => ({ address, family })));
    else callback(null, pinned[0].address, pinned[0].family);
  }) as LookupFunction;
}

export class Outbound {
  private readonly allowHosts: ReadonlySet<string>;
  private readonly httpAgent = new http.Agent({ keepAlive: true, maxSockets: OUTBOUND_DEFAULTS.maxSocketsPerOrigin });
  private readonly httpsAgent = new https.Agent({ keepAlive: true, maxSockets: OUTBOUND_DEFAULTS.maxSocketsPerOrigin });

  constructor(policy: OutboundPolicy, private readonly resolver: Resolver = defaultResolver) {
    this.allowHosts = new Set(policy.allowHosts.map((h) => h.toLowerCase()));
  }

  /**
   * What can be told of a URL without DNS: a URL, https (or an allow-listed host), no user info,
   * and a host that could be public (no refused IP literal in any notation the URL parser reads,
   * 2130706433, 0x7f.1 or [::ffff:127.0.0.1] alike, no localhost or other local name). Throws
   * OutboundRefusedError with a reason fit for a 400.
   */
  checkUrl(raw: string): URL {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new OutboundRefusedError('not a URL');
    }
    if (url.username !== '' || url.password !== '') throw new OutboundRefusedError('the URL must not carry a user name or password');
    if (this.isAllowListed(url)) {
      if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new OutboundRefusedError('the URL must be https');
      return url;
    }
    if (url.protocol !== 'https:') throw new OutboundRefusedError('the URL must be https');
    const host = url.hostname.replace(/\.$/, '').toLowerCase();
    if (isIpLiteral(host)) {
      const reason = refusedAddressReason(host);
      if (reason !== null) throw new OutboundRefusedError(`the URL's host is not a public address (${reason})`);
    } else if (!host.includes('.') || LOCAL_NAME.test(host)) {
      throw new OutboundRefusedError("the URL's host is not a public name");
    }
    return url;
  }

  /**
   * The addresses to connect to, in the resolver's order: the host resolved once, and every
   * address it resolves to public (one private address among public ones refuses the host: which
   * one is used is not ours to pick).
   */
  async resolve(url: URL): Promise<ResolvedAddress[]> {
    const host = bare(url.hostname);
    if (isIpLiteral(host)) return [{ address: host, family: host.includes(':') ? 6 : 4 }];
    let addresses: ResolvedAddress[];
    try {
      addresses = await this.resolver(host);
    } catch (err) {
      throw new OutboundFailedError(`${host} did not resolve: ${(err as Error).message}`);
    }
    if (addresses.length === 0) throw new OutboundFailedError(`${host} did not resolve`);
    if (!this.isAllowListed(url)) {
      for (const { address } of addresses) {
        const reason = refusedAddressReason(address);
        if (reason !== null) throw new OutboundRefusedError(`${host} resolves to an address that is not public (${reason})`);
      }
    }
    return addresses;
  }

  /** One request to a URL a user gave, checked at every hop; see OutboundRequestOptions. */
  async request(raw: string, options: OutboundRequestOptions): Promise<OutboundResponse> {
    const deadline = Date.now() + (options.totalTimeoutMs ?? OUTBOUND_DEFAULTS.totalTimeoutMs);
    const maxHops = options.redirects === 'none' ? 0 : options.redirects.follow;
    let url = this.checkUrl(raw);
    let method = (options.method ?? 'GET').toUpperCase();
    let body = options.body;
    let headers = { ...options.headers };
    for (let hop = 0; ; hop++) {
      const pinned = await this.resolve(url);
      const response = await this.once(url, pinned, { ...options, method, headers, body }, deadline, hop < maxHops);
      const location = response.headers.location;
      if (hop >= maxHops || !REDIRECTS.has(response.status) || typeof location !== 'string') return response;
      const next = this.checkUrl(new URL(location, url).toString());
      // As browsers do: 303, and 301/302 after a POST, continue as a GET without the body.
      if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === 'POST')) {
        method = 'GET';
        body = undefined;
        headers = Object.fromEntries(Object.entries(headers).filter(([name]) => !/^content-/i.test(name)));
      }
      // Credentials meant for one origin never travel to another.
      if (next.origin !== url.origin) headers = Object.fromEntries(Object.entries(headers).filter(([name]) => !/^(authorization|cookie)$/i.test(name)));
      url = next;
    }
  }

  /** Closes the kept-alive connections (server shutdown). */
  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }

  private isAllowListed(url: URL): boolean {
    if (this.allowHosts.size === 0) return false;
    const port = url.port || (url.protocol === 'https:' ? '443' : url.protocol === 'http:' ? '80' : '');
    return this.allowHosts.has(`${url.hostname.toLowerCase()}:${port}`);
  }

  private once(url: URL, pinned: readonly ResolvedAddress[], options: OutboundRequestOptions & { method: string }, deadline: number, redirectFollows: boolean): Promise<OutboundResponse> {
    const remaining = deadline - Date.now();
    if (remaining <= 0) return Promise.reject(new OutboundFailedError(`no answer from ${url.origin} in time`));
    const secure = url.protocol === 'https:';
    const maxBytes = options.maxResponseBytes ?? OUTBOUND_DEFAULTS.maxResponseBytes;
    return new Promise<OutboundResponse>((resolve, reject) => {
      const request = (secure ? https : http).request({
        protocol: url.protocol,
        hostname: bare(url.hostname),
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        method: options.method,
        headers: { ...options.headers, ...(options.body ? { 'content-length': String(options.body.length) } : {}) },
        agent: secure ? this.httpsAgent : this.httpAgent,
        lookup: pinnedLookup(pinned),
      });
      let settled = false;
      let connect: NodeJS.Timeout | undefined;
      const settle = (): boolean => {
        if (settled) return false;
        settled = true;
        clearTimeout(total);
        clearTimeout(connect);
        return true;
      };
      const fail = (err: Error) => {
        if (!settle()) return;
        request.destroy();
        reject(err instanceof OutboundFailedError ? err : new OutboundFailedError(`${url.origin}: ${err.message}`));
      };
      const answer = (response: OutboundResponse, readNoMore: boolean) => {
        if (!settle()) return;
        if (readNoMore) request.destroy();
        resolve(response);
      };
      const total = setTimeout(() => fail(new OutboundFailedError(`no answer from ${url.origin} in time`)), remaining);
      request.on('socket', (socket) => {
        if (!socket.connecting) return;
        connect = setTimeout(() => fail(new OutboundFailedError(`no connection to ${url.origin} in time`)), options.connectTimeoutMs ?? OUTBOUND_DEFAULTS.connectTimeoutMs);
        socket.once('connect', () => clearTimeout(connect));
      });
      request.on('error', fail);
      request.on('response', (res) => {
        const status = res.statusCode ?? 0;
        const response = (body: Buffer, truncated: boolean): OutboundResponse => ({ status, headers: res.headers, body, url: url.toString(), truncated });
        // A redirect to follow is read no further: its body is of no use.
        if (redirectFollows && REDIRECTS.has(status)) {
          answer(response(Buffer.alloc(0), false), true);
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          if (size + chunk.length <= maxBytes) {
            chunks.push(chunk);
            size += chunk.length;
          } else if (options.oversize === 'truncate') {
            chunks.push(chunk.subarray(0, maxBytes - size));
            answer(response(Buffer.concat(chunks), true), true);
          } else {
            fail(new OutboundFailedError(`${url.origin} answered more than ${maxBytes} bytes`));
          }
        });
        res.on('end', () => answer(response(Buffer.concat(chunks), false), false));
        res.on('error', fail);
        res.on('close', () => fail(new OutboundFailedError(`${url.origin} closed the connection mid-answer`)));
      });
      request.end(options.body);
    });
  }
}
