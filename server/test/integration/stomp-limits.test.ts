// What one connection may cost the server (no single user can crash or freeze it):
// open transactions, frames and bytes per second, a neighbour's turn while one socket floods,
// sockets that never CONNECT, and connections per user and per address.
import { expect } from 'chai';
import pino from 'pino';
import v8 from 'node:v8';
import vm from 'node:vm';
import type { StompPrincipal } from '../../src/stomp/api';
import type { Frame } from '../../src/stomp/frame';
import { createFeatureRouter } from '../../src/stomp/router';
import { SESSION_LIMITS } from '../../src/stomp/session';
import { startStandalone, type StandaloneOptions, type StandaloneServer } from '../support/standalone-stomp';
import { openRawStomp, type RawStomp } from '../support/stomp-client';

const CONNECT = 'CONNECT\naccept-version:1.2\nhost:localhost\n\n\0';
const cookieOf = (userId: number) => `sid=user-${userId}`;

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

async function serverWith(extra: Partial<StandaloneOptions> = {}): Promise<StandaloneServer> {
  const router = createFeatureRouter([{ handlers: { '/app/record': (_user: StompPrincipal, _body: string) => {} } }]);
  return startStandalone({
    router,
    log: pino({ level: 'silent' }),
    authenticator: {
      authenticate: (token) => {
        const m = /^user-([0-9]+)$/.exec(token);
        return Promise.resolve(m ? { userId: Number(m[1]), sessionId: token } : null);
      },
    },
    ...extra,
  });
}

async function connected(server: StandaloneServer, userId: number, headers: Record<string, string> = {}): Promise<RawStomp> {
  const raw = await openRawStomp(server, { cookie: cookieOf(userId), headers });
  raw.send(CONNECT);
  const f = await raw.nextFrame();
  if (f.command !== 'CONNECTED') throw new Error(`${f.command}: ${f.headers.get('message')}`);
  return raw;
}

async function errorOf(raw: RawStomp): Promise<Frame> {
  for (;;) {
    const f = await raw.nextFrame();
    if (f.command === 'ERROR') {
      await raw.closed;
      return f;
    }
  }
}

describe('what one STOMP connection may cost', function () {
  this.timeout(60_000);
  const servers: StandaloneServer[] = [];
  const sockets: RawStomp[] = [];
  afterEach(async () => {
    for (const s of sockets.splice(0)) s.socket.terminate();
    await Promise.all(servers.splice(0).map((s) => s.stop()));
  });
  const track = <T extends RawStomp>(raw: T) => (sockets.push(raw), raw);
  const start = async (extra?: Partial<StandaloneOptions>) => {
    const server = await serverWith(extra);
    servers.push(server);
    return server;
  };

  describe('transactions', () => {
    it(`refuses the ${SESSION_LIMITS.openTransactions + 1}th open transaction with an ERROR`, async () => {
      const server = await start();
      const raw = track(await connected(server, 1));
      raw.send(Array.from({ length: SESSION_LIMITS.openTransactions + 1 }, (_, i) => `BEGIN\ntransaction:t${i}\n\n\0`).join(''));
      expect((await errorOf(raw)).headers.get('message')).to.equal(`more than ${SESSION_LIMITS.openTransactions} transactions open`);
    });

    it('refuses a transaction name over the limit', async () => {
      const server = await start();
      const raw = track(await connected(server, 1));
      raw.send(`BEGIN\ntransaction:${'x'.repeat(SESSION_LIMITS.transactionName + 1)}\n\n\0`);
      expect((await errorOf(raw)).headers.get('message')).to.match(/transaction names are at most/);
    });

    it('closes sockets flooding BEGINs with 8000-byte names and keeps the heap where it was', async () => {
      const server = await start();
      gc();
      const before = process.memoryUsage().heapUsed;
      let sent = 0;
      for (let socket = 0; socket < 4; socket++) {
        const raw = track(await connected(server, 10 + socket));
        let message = '';
        for (let i = 0; message.length < 1000 * 1024; i++) message += `BEGIN\ntransaction:${String(i).padStart(8000, `${socket}`)}\n\n\0`;
        for (let m = 0; m < 5 && raw.socket.readyState === raw.socket.OPEN; m++) {
          raw.send(message);
          sent += message.length;
        }
        expect((await errorOf(raw)).headers.get('message')).to.match(/transaction/);
      }
      gc();
      const grown = process.memoryUsage().heapUsed - before;
      // Before the bound, the heap grew by about 90% of what was sent.
      expect(grown, `heap grew ${grown} bytes after ${sent} sent`).to.be.lessThan(sent / 10);
    });
  });

  describe('the frame budget', () => {
    it('closes a socket that sends 40 000 frames in one message, and its neighbour goes on', async () => {
      const server = await start();
      const neighbour = track(await connected(server, 2));
      const flooder = track(await connected(server, 1));
      flooder.send('ACK\nid:a\nreceipt:r\n\n\0'.repeat(40_000));
      expect((await errorOf(flooder)).headers.get('message')).to.match(/frames a second/);
      neighbour.send('SEND\ndestination:/app/record\nreceipt:n-1\n\nhello\0');
      const receipt = await neighbour.nextFrame();
      expect([receipt.command, receipt.headers.get('receipt-id')]).to.deep.equal(['RECEIPT', 'n-1']);
    });

    it('parses packed frames on many sockets a turn at a time: each flooder gets its ERROR and close, a neighbour is served meanwhile', async () => {
      const server = await start({ limits: { maxConnectionsPerUser: 20 } });
      const neighbour = track(await connected(server, 99));
      const flooders: RawStomp[] = [];
      for (let user = 1; user <= 2; user++) for (let i = 0; i < 10; i++) flooders.push(track(await connected(server, user)));
      // What each socket saw, in the order the client saw it.
      const seen: string[] = [];
      const packed = 'ACK\nid:a\nreceipt:r\n\n\0'.repeat(49_900);
      const errors = flooders.map((raw) => errorOf(raw).then((f) => (seen.push('flooder closed'), f)));
      for (const raw of flooders) raw.send(packed);
      const receipts = Array.from({ length: 5 }, (_, i) => {
        neighbour.send(`SEND\ndestination:/app/record\nreceipt:n-${i}\n\nhello\0`);
        return neighbour.nextFrame(30_000).then((f) => (seen.push(`neighbour ${f.command} ${f.headers.get('receipt-id')}`), f));
      });
      for (const f of await Promise.all(errors)) expect(f.headers.get('message')).to.match(/frames a second/);
      await Promise.all(receipts);
      expect(seen.filter((e) => e.startsWith('neighbour'))).to.deep.equal(Array.from({ length: 5 }, (_, i) => `neighbour RECEIPT n-${i}`));
      // Before, each 1 MiB message was parsed whole in its socket's callback: the neighbour's
      // frames waited behind every flooder's.
      expect(seen.indexOf('neighbour RECEIPT n-4'), seen.join(', ')).to.be.lessThan(seen.lastIndexOf('flooder closed'));
    });

    it('closes a socket that sends more bytes than its budget allows', async () => {
      const server = await start({ limits: { budget: { framesPerSecond: 1000, frameBurst: 100_000, bytesPerSecond: 1024, byteBurst: 64 * 1024 } } });
      const raw = track(await connected(server, 1));
      const frame = `SEND\ndestination:/app/record\n\n${'x'.repeat(30_000)}\0`;
      for (let i = 0; i < 4; i++) raw.send(frame);
      expect((await errorOf(raw)).headers.get('message')).to.match(/bytes a second/);
    });
  });

  describe('connections', () => {
    it('closes a socket that sends no CONNECT in time, also when it trickles bytes', async () => {
      const server = await start({ limits: { connectTimeoutMs: 300 } });
      const silent = track(await openRawStomp(server, { cookie: cookieOf(1) }));
      const trickling = track(await openRawStomp(server, { cookie: cookieOf(2) }));
      const trickle = setInterval(() => trickling.send('\n'), 50);
      try {
        expect((await errorOf(silent)).headers.get('message')).to.match(/no CONNECT within/);
        expect((await errorOf(trickling)).headers.get('message')).to.match(/no CONNECT within/);
      } finally {
        clearInterval(trickle);
      }
    });

    it('refuses a user\'s connection over the cap with an ERROR, and takes one again after a close', async () => {
      const server = await start({ limits: { maxConnectionsPerUser: 3 } });
      const three = [track(await connected(server, 7)), track(await connected(server, 7)), track(await connected(server, 7))];
      const fourth = track(await openRawStomp(server, { cookie: cookieOf(7) }));
      expect((await errorOf(fourth)).headers.get('message')).to.equal('more than 3 connections for this user');
      track(await connected(server, 8));
      three[0].socket.close();
      await three[0].closed;
      track(await connected(server, 7));
    });

    it('counts connections per client address, from X-Forwarded-For only behind a trusted proxy', async () => {
      const server = await start({ limits: { maxConnectionsPerAddress: 2 }, trustedProxies: ['127.0.0.1'] });
      const viaProxy = (client: string) => ({ 'x-forwarded-for': `203.0.113.9, ${client}` });
      track(await connected(server, 1, viaProxy('198.51.100.1')));
      track(await connected(server, 2, viaProxy('198.51.100.1')));
      const third = track(await openRawStomp(server, { cookie: cookieOf(3), headers: viaProxy('198.51.100.1') }));
      expect((await errorOf(third)).headers.get('message')).to.equal('more than 2 connections from this address');
      track(await connected(server, 4, viaProxy('198.51.100.2')));

      const untrusting = await start({ limits: { maxConnectionsPerAddress: 2 } });
      track(await connected(untrusting, 1, viaProxy('198.51.100.1')));
      track(await connected(untrusting, 2, viaProxy('198.51.100.2')));
      // Without trust the header means nothing: both came from 127.0.0.1.
      const refused = track(await openRawStomp(untrusting, { cookie: cookieOf(3), headers: viaProxy('198.51.100.3') }));
      expect((await errorOf(refused)).headers.get('message')).to.equal('more than 2 connections from this address');
    });
  });
});
