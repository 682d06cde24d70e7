// STOMP 1.2 over real sockets: the uWS endpoint, sessions and broker of the product with a
// router of test handlers (the product's handlers are tested by their features), driven by
// hand-written frames over `ws` and by @stomp/stompjs.
import { expect } from 'chai';
import fc from 'fast-check';
import { Writable } from 'node:stream';
import pino from 'pino';
import WebSocket from 'ws';
import { StompHandlerError, type StompPrincipal } from '../../src/stomp/api';
import type { Frame } from '../../src/stomp/frame';
import { createFeatureRouter } from '../../src/stomp/router';
import { SESSION_LIMITS } from '../../src/stomp/session';
import { startStandalone, type StandaloneServer } from '../support/standalone-stomp';
import { connectStomp, openRawStomp, UpgradeRefused, type RawStomp } from '../support/stomp-client';
import { deferred, waitFor, within, yieldToEventLoop, type Deferred } from '../support/wait';

const CONNECT = 'CONNECT\naccept-version:1.2\nhost:localhost\n\n\0';
const cookieOf = (userId: number, authSession = 'a') => `sid=user-${userId}-${authSession}`;

/**
 * The work of the slow handler: it makes later frames queue behind it. Not a wait for anything:
 * every assertion on it holds whatever its length, which only makes the queueing likely.
 */
const slowWork = () => new Promise((r) => setTimeout(r, 300));

/** Resolves with the close, or rejects if the socket stays open. */
function closedWithin(raw: RawStomp, ms = 10_000) {
  return within(raw.closed, ms, 'the server to close the socket');
}

describe('STOMP over the /websocket endpoint', function () {
  let server: StandaloneServer;
  let recorded: Array<{ userId: number; body: string }> = [];
  /** /app/slow handlers still running: a test that leaves some behind waits for them, or they record into the next test. */
  let slowRunning = 0;
  const logLines: string[] = [];
  /** Tokens the test authenticator no longer accepts (an expired login session). */
  const expired = new Set<string>();
  /** Holds the session check of a `slow` token until the test opens it; reports its start. */
  let slowCheck: { started: Deferred<void>; gate: Deferred<void> } | undefined;

  before(async () => {
    const router = createFeatureRouter([
      {
        handlers: {
          '/app/record': (user: StompPrincipal, body: string) => {
            recorded.push({ userId: user.userId, body });
          },
          '/app/slow': async (user: StompPrincipal, body: string) => {
            slowRunning += 1;
            try {
              await slowWork();
              recorded.push({ userId: user.userId, body });
            } finally {
              slowRunning -= 1;
            }
          },
          '/app/refuse': () => {
            throw new StompHandlerError('not in this room');
          },
          '/app/crash': async () => {
            throw new Error('database password is hunter2');
          },
          '/app/echo': (_user: StompPrincipal, body: string) => server.broker.publish('/topic/open.echo', body),
        },
        authorize: (_user: StompPrincipal, destination: string) => (destination.startsWith('/topic/open.') ? true : undefined),
      },
    ]);
    const sink = new Writable({
      write(chunk, _enc, done) {
        logLines.push(String(chunk));
        done();
      },
    });
    server = await startStandalone({
      router,
      log: pino({ level: 'warn' }, sink),
      revalidateEveryMs: 300,
      authenticator: {
        async authenticate(token) {
          if (expired.has(token)) return null;
          if (token.endsWith('slow') && slowCheck) {
            slowCheck.started.resolve();
            await slowCheck.gate.promise;
          }
          const m = /^user-([0-9]+)-([a-z0-9]+)$/.exec(token);
          return m ? { userId: Number(m[1]), sessionId: `${m[1]}-${m[2]}` } : null;
        },
      },
    });
  });
  after(() => server?.stop());
  beforeEach(() => {
    recorded = [];
  });

  async function connected(userId = 1, connect = CONNECT): Promise<RawStomp> {
    const raw = await openRawStomp(server, { cookie: cookieOf(userId) });
    raw.send(connect);
    expect((await raw.nextFrame()).command).to.equal('CONNECTED');
    return raw;
  }

  async function expectError(raw: RawStomp, pattern: RegExp): Promise<Frame> {
    const f = await raw.nextFrame();
    expect(f.command).to.equal('ERROR');
    expect(f.headers.get('message')).to.match(pattern);
    expect(f.body.length).to.be.greaterThan(0);
    await closedWithin(raw);
    return f;
  }

  describe('the upgrade', () => {
    it('answers exactly one STOMP subprotocol, preferring 1.2', async () => {
      const all = await openRawStomp(server, { cookie: cookieOf(1), protocols: ['v10.stomp', 'v11.stomp', 'v12.stomp'] });
      expect(all.protocol).to.equal('v12.stomp');
      all.socket.close();
      const v11 = await openRawStomp(server, { cookie: cookieOf(1), protocols: ['v11.stomp'] });
      expect(v11.protocol).to.equal('v11.stomp');
      v11.socket.close();
    });

    it('accepts a request without subprotocols and answers none', async () => {
      const none = await openRawStomp(server, { cookie: cookieOf(1), protocols: [] });
      expect(none.protocol).to.equal('');
      none.send(CONNECT);
      expect((await none.nextFrame()).command).to.equal('CONNECTED');
      none.socket.close();
    });

    it('refuses a request without a session cookie with 401', async () => {
      const err = await openRawStomp(server, {}).then(() => null, (e: unknown) => e);
      expect(err).to.be.instanceOf(UpgradeRefused);
      expect((err as UpgradeRefused).status).to.equal(401);
    });

    it('refuses an unknown session with 401', async () => {
      const err = await openRawStomp(server, { cookie: 'sid=forged' }).then(() => null, (e: unknown) => e);
      expect((err as UpgradeRefused).status).to.equal(401);
    });

    it('refuses a foreign Origin with 403 and accepts the public one', async () => {
      const err = await openRawStomp(server, { cookie: cookieOf(1), origin: 'http://evil.example' }).then(() => null, (e: unknown) => e);
      expect((err as UpgradeRefused).status).to.equal(403);
      const ok = await openRawStomp(server, { cookie: cookieOf(1), origin: server.publicOrigin });
      ok.socket.close();
    });

    it('survives a client that goes away while its session is being checked', async () => {
      slowCheck = { started: deferred(), gate: deferred() };
      try {
        const gone = new WebSocket(`${server.url.replace('http', 'ws')}/websocket`, ['v12.stomp'], { headers: { cookie: cookieOf(3, 'slow') } });
        gone.on('error', () => {});
        const goneClosed = new Promise((resolve) => gone.once('close', resolve));
        await within(slowCheck.started.promise, 10_000, 'the session check of the upgrade to start');
        gone.terminate();
        await goneClosed;
        // The server has seen the abort once it answered a request sent after it: a refused upgrade.
        const refused = await openRawStomp(server, {}).then(() => null, (e: unknown) => e);
        expect((refused as UpgradeRefused).status).to.equal(401);
      } finally {
        slowCheck.gate.resolve();
        slowCheck = undefined;
      }
      // A whole connection after the check ended: its outcome (and any log line) came before.
      const raw = await connected(3);
      expect(logLines.filter((l) => l.includes('upgrade'))).to.deep.equal([]);
      raw.socket.close();
    });
  });

  describe('CONNECT', () => {
    it('negotiates the highest common version and answers heart-beat, server and session', async () => {
      const raw = await openRawStomp(server, { cookie: cookieOf(1) });
      raw.send('CONNECT\naccept-version:1.0,1.1,1.2\nheart-beat:0,0\n\n\0');
      const f = await raw.nextFrame();
      expect(f.command).to.equal('CONNECTED');
      expect(f.headers.get('version')).to.equal('1.2');
      expect(f.headers.get('heart-beat')).to.match(/^[0-9]+,[0-9]+$/);
      expect(f.headers.get('server')).to.match(/^letschat\//);
      expect(f.headers.get('session')).to.be.a('string').and.not.empty;
      raw.socket.close();
    });

    it('negotiates 1.1, and 1.0 when accept-version is absent (STOMP command too)', async () => {
      const v11 = await openRawStomp(server, { cookie: cookieOf(1) });
      v11.send('STOMP\naccept-version:1.0,1.1\n\n\0');
      expect((await v11.nextFrame()).headers.get('version')).to.equal('1.1');
      v11.socket.close();
      const v10 = await openRawStomp(server, { cookie: cookieOf(1) });
      v10.send('CONNECT\n\n\0');
      expect((await v10.nextFrame()).headers.get('version')).to.equal('1.0');
      v10.socket.close();
    });

    it('answers ERROR with the supported versions when none is in common, then closes', async () => {
      const raw = await openRawStomp(server, { cookie: cookieOf(1) });
      raw.send('CONNECT\naccept-version:2.0\n\n\0');
      const f = await expectError(raw, /versions/);
      expect(f.headers.get('version')).to.equal('1.2,1.1,1.0');
    });

    it('answers ERROR to any frame before CONNECT', async () => {
      const raw = await openRawStomp(server, { cookie: cookieOf(1) });
      raw.send('SUBSCRIBE\nid:0\ndestination:/topic/open.a\n\n\0');
      await expectError(raw, /before CONNECT/);
    });

    it('answers ERROR to a second CONNECT', async () => {
      const raw = await connected();
      raw.send(CONNECT);
      await expectError(raw, /already connected/);
    });

    it('answers ERROR to an unknown command', async () => {
      const raw = await connected();
      raw.send('PUBLISH\ndestination:/topic/open.a\n\n\0');
      await expectError(raw, /unknown command/);
    });
  });

  describe('heart-beats', () => {
    it('sends EOL heart-beats at the negotiated interval', async () => {
      const raw = await openRawStomp(server, { cookie: cookieOf(1) });
      raw.send('CONNECT\naccept-version:1.2\nheart-beat:0,1000\n\n\0');
      await raw.nextFrame();
      // Two beats within 3.5 intervals: the time bound is the assertion, not a pause.
      await waitFor(() => raw.heartbeats >= 2, { what: 'two server heart-beats within 3.5 s (interval 1 s)', timeoutMs: 3500 });
      raw.socket.close();
    });

    it('closes a client silent for twice its interval, and keeps one that beats', async () => {
      const beating = await openRawStomp(server, { cookie: cookieOf(1) });
      beating.send('CONNECT\naccept-version:1.2\nheart-beat:1000,0\n\n\0');
      await beating.nextFrame();
      const timer = setInterval(() => beating.send('\n'), 400);
      try {
        // Connected after the beating one: once it is closed for silence, the beating one would
        // have been too had its beats not counted.
        const silent = await openRawStomp(server, { cookie: cookieOf(1) });
        silent.send('CONNECT\naccept-version:1.2\nheart-beat:1000,0\n\n\0');
        await silent.nextFrame();
        await expectError(silent, /heart-beat/);
        // A round trip after it: an ERROR closing the beating one in the same tick came first.
        beating.send('SUBSCRIBE\nid:0\ndestination:/topic/open.hb\nreceipt:alive\n\n\0');
        expect((await beating.nextFrame()).headers.get('receipt-id')).to.equal('alive');
        expect(beating.socket.readyState).to.equal(beating.socket.OPEN);
      } finally {
        clearInterval(timer);
        beating.socket.close();
      }
    });

    it('keeps a heart-beating @stomp/stompjs client connected', async () => {
      let beatsReceived = 0;
      const stomp = await connectStomp(server, cookieOf(1), { heartbeatMs: 1000, debug: (line) => {
          if (line === '<<< PONG') beatsReceived++;
        },
      });
      let closed = false;
      void stomp.closed.then(() => (closed = true));
      // The server keeps it: a silent client connected after it is closed, and it is not.
      const silent = await openRawStomp(server, { cookie: cookieOf(1) });
      silent.send('CONNECT\naccept-version:1.2\nheart-beat:1000,0\n\n\0');
      await silent.nextFrame();
      await expectError(silent, /heart-beat/);
      // It keeps itself: it takes the server's beats as such (it closes after 2 s without any),
      // over three intervals.
      await waitFor(() => beatsReceived >= 3, 'three server heart-beats seen by @stomp/stompjs');
      await stomp.subscribe('/topic/open.hb');
      expect(closed).to.equal(false);
      await stomp.disconnect();
    });
  });

  describe('SEND', () => {
    it('sends RECEIPT only after the handler finished', async () => {
      const raw = await connected(4);
      raw.send('SEND\ndestination:/app/slow\nreceipt:r1\n\nhello\0');
      const f = await raw.nextFrame();
      expect(f.command).to.equal('RECEIPT');
      expect(f.headers.get('receipt-id')).to.equal('r1');
      expect(recorded).to.deep.equal([{ userId: 4, body: 'hello' }]);
      raw.socket.close();
    });

    it('handles frames in order even when an earlier handler is slow', async () => {
      const raw = await connected(4);
      raw.send('SEND\ndestination:/app/slow\n\nfirst\0SEND\ndestination:/app/record\nreceipt:r2\n\nsecond\0');
      expect((await raw.nextFrame()).headers.get('receipt-id')).to.equal('r2');
      expect(recorded.map((r) => r.body)).to.deep.equal(['first', 'second']);
      raw.socket.close();
    });

    it('answers a refused handler with ERROR carrying receipt-id, message and body, then closes', async () => {
      const raw = await connected();
      raw.send('SEND\ndestination:/app/refuse\nreceipt:r9\n\n{}\0');
      const f = await expectError(raw, /not in this room/);
      expect(f.headers.get('receipt-id')).to.equal('r9');
    });

    it('answers a crashed handler with a generic ERROR that leaks nothing', async () => {
      const raw = await connected();
      raw.send('SEND\ndestination:/app/crash\nreceipt:r3\n\n{}\0');
      const f = await expectError(raw, /internal server error/);
      expect(f.body.toString()).not.to.include('hunter2');
      expect(f.headers.get('receipt-id')).to.equal('r3');
    });

    for (const destination of ['/topic/open.a', '/queue/call/offer/1']) {
      it(`refuses a client SEND to ${destination.split('/')[1]} destinations`, async () => {
        const raw = await connected();
        raw.send(`SEND\ndestination:${destination}\n\n{}\0`);
        await expectError(raw, /only SEND to \/app/);
      });
    }

    it('refuses a SEND to an unknown /app destination and one without a destination', async () => {
      const a = await connected();
      a.send('SEND\ndestination:/app/nothing-here\n\n{}\0');
      await expectError(a, /no handler/);
      const b = await connected();
      b.send('SEND\n\n{}\0');
      await expectError(b, /destination/);
    });

    it('passes a content-length body with NUL bytes to the handler', async () => {
      const raw = await connected();
      raw.send(Buffer.from('SEND\ndestination:/app/record\ncontent-length:3\nreceipt:n\n\na\0b\0'));
      await raw.nextFrame();
      expect(recorded[0].body).to.equal('a\0b');
      raw.socket.close();
    });

    it('reads frames split at every byte, several per message, with CR LF line ends', async () => {
      const raw = await connected();
      const bytes = Buffer.from('SEND\r\ndestination:/app/record\r\n\r\none\0\nSEND\ndestination:/app/record\nreceipt:x\n\ntwo\0');
      for (let i = 0; i < bytes.length; i++) raw.send(bytes.subarray(i, i + 1));
      await raw.nextFrame();
      expect(recorded.map((r) => r.body)).to.deep.equal(['one', 'two']);
      raw.socket.close();
    });

    it('takes identity from the session cookie, never from headers', async () => {
      const raw = await connected(6);
      raw.send('SEND\ndestination:/app/record\nlogin:1\nuser-id:1\nreceipt:r\n\n{}\0');
      await raw.nextFrame();
      expect(recorded[0].userId).to.equal(6);
      raw.socket.close();
    });
  });

  describe('transactions', () => {
    it('applies SENDs on COMMIT, in order', async () => {
      const raw = await connected();
      raw.send('BEGIN\ntransaction:t1\n\n\0SEND\ndestination:/app/record\ntransaction:t1\n\none\0SEND\ndestination:/app/slow\ntransaction:t1\n\ntwo\0');
      raw.send('SEND\ndestination:/app/record\nreceipt:outside\n\noutside\0');
      expect((await raw.nextFrame()).headers.get('receipt-id')).to.equal('outside');
      expect(recorded.map((r) => r.body)).to.deep.equal(['outside']);
      raw.send('COMMIT\ntransaction:t1\nreceipt:c\n\n\0');
      expect((await raw.nextFrame()).headers.get('receipt-id')).to.equal('c');
      expect(recorded.map((r) => r.body)).to.deep.equal(['outside', 'one', 'two']);
      raw.socket.close();
    });

    it('drops SENDs on ABORT', async () => {
      const raw = await connected();
      raw.send('BEGIN\ntransaction:t\n\n\0SEND\ndestination:/app/record\ntransaction:t\n\nx\0ABORT\ntransaction:t\nreceipt:a\n\n\0');
      expect((await raw.nextFrame()).headers.get('receipt-id')).to.equal('a');
      raw.send('COMMIT\ntransaction:t\n\n\0');
      await expectError(raw, /no transaction/);
      expect(recorded).to.deep.equal([]);
    });

    it('drops an open transaction on disconnect', async () => {
      const raw = await connected();
      raw.send('BEGIN\ntransaction:t\n\n\0SEND\ndestination:/app/record\ntransaction:t\n\nx\0DISCONNECT\nreceipt:d\n\n\0');
      expect((await raw.nextFrame()).command).to.equal('RECEIPT');
      await closedWithin(raw);
      expect(recorded).to.deep.equal([]);
    });

    it('answers ERROR to a SEND in an unknown transaction and to a BEGIN reused', async () => {
      const a = await connected();
      a.send('SEND\ndestination:/app/record\ntransaction:nope\n\nx\0');
      await expectError(a, /no transaction/);
      const b = await connected();
      b.send('BEGIN\ntransaction:t\n\n\0BEGIN\ntransaction:t\n\n\0');
      await expectError(b, /already open/);
    });
  });

  describe('SUBSCRIBE, UNSUBSCRIBE, ACK and NACK', () => {
    it('delivers MESSAGE with the subscription id, a message-id and an ack header; ACK and NACK are receipted', async () => {
      const raw = await connected();
      raw.send('SUBSCRIBE\nid:s-1\ndestination:/topic/open.a\nack:client-individual\nreceipt:s\n\n\0');
      expect((await raw.nextFrame()).command).to.equal('RECEIPT');
      server.broker.publish('/topic/open.a', { hello: 'world' });
      const m = await raw.nextFrame();
      expect(m.command).to.equal('MESSAGE');
      expect(m.headers.get('subscription')).to.equal('s-1');
      expect(m.headers.get('destination')).to.equal('/topic/open.a');
      expect(m.headers.get('content-type')).to.equal('application/json');
      expect(JSON.parse(m.body.toString())).to.deep.equal({ hello: 'world' });
      const ack = m.headers.get('ack')!;
      raw.send(`ACK\nid:${ack}\nreceipt:k\n\n\0NACK\nid:${ack}\nreceipt:n\n\n\0`);
      expect((await raw.nextFrame()).headers.get('receipt-id')).to.equal('k');
      expect((await raw.nextFrame()).headers.get('receipt-id')).to.equal('n');
      raw.socket.close();
    });

    it('stops delivering after UNSUBSCRIBE', async () => {
      const raw = await connected();
      raw.send('SUBSCRIBE\nid:0\ndestination:/topic/open.b\n\n\0UNSUBSCRIBE\nid:0\nreceipt:u\n\n\0');
      expect((await raw.nextFrame()).headers.get('receipt-id')).to.equal('u');
      server.broker.publish('/topic/open.b', 'lost');
      raw.send('SUBSCRIBE\nid:1\ndestination:/topic/open.c\nreceipt:s\n\n\0');
      await raw.nextFrame();
      server.broker.publish('/topic/open.c', 'kept');
      const m = await raw.nextFrame();
      expect(m.body.toString()).to.equal('kept');
      raw.socket.close();
    });

    it('answers ERROR to an invalid ack mode, a missing id and a reused id', async () => {
      const a = await connected();
      a.send('SUBSCRIBE\nid:0\ndestination:/topic/open.a\nack:sometimes\n\n\0');
      await expectError(a, /ack/);
      const b = await connected();
      b.send('SUBSCRIBE\ndestination:/topic/open.a\n\n\0');
      await expectError(b, /id/);
      const c = await connected();
      c.send('SUBSCRIBE\nid:0\ndestination:/topic/open.a\n\n\0SUBSCRIBE\nid:0\ndestination:/topic/open.b\n\n\0');
      await expectError(c, /already in use/);
    });

    it('answers ERROR to an ACK without an id', async () => {
      const raw = await connected();
      raw.send('ACK\n\n\0');
      await expectError(raw, /id/);
    });

    it('allows a user their own call queues and refresh topic, and denies another user’s', async () => {
      const raw = await connected(7);
      raw.send('SUBSCRIBE\nid:0\ndestination:/queue/call/offer/7\n\n\0SUBSCRIBE\nid:1\ndestination:/topic/toggle-refresh/7\nreceipt:ok\n\n\0');
      expect((await raw.nextFrame()).headers.get('receipt-id')).to.equal('ok');
      raw.send('SUBSCRIBE\nid:2\ndestination:/queue/call/offer/8\n\n\0');
      await expectError(raw, /not allowed/);
      const other = await connected(7);
      other.send('SUBSCRIBE\nid:0\ndestination:/topic/toggle-refresh/8\n\n\0');
      await expectError(other, /not allowed/);
    });

    it('denies destinations nobody authorises', async () => {
      const raw = await connected();
      raw.send('SUBSCRIBE\nid:0\ndestination:/topic/private-chat/1\n\n\0');
      await expectError(raw, /not allowed/);
    });

    it('answers DISCONNECT with its RECEIPT, then closes normally', async () => {
      const raw = await connected();
      raw.send('DISCONNECT\nreceipt:bye\n\n\0');
      const f = await raw.nextFrame();
      expect(f.command).to.equal('RECEIPT');
      expect(f.headers.get('receipt-id')).to.equal('bye');
      expect((await closedWithin(raw)).code).to.equal(1000);
    });
  });

  describe('frame rules and limits', () => {
    it('answers ERROR to an undefined escape, then closes', async () => {
      const raw = await connected();
      raw.send('SEND\ndestination:/app/rec\\tord\n\n\0');
      await expectError(raw, /escape/);
    });

    it('answers ERROR to a frame over 64 KiB (uWS does not close first)', async () => {
      const raw = await connected();
      raw.send(`SEND\ndestination:/app/record\n\n${'x'.repeat(64 * 1024)}\0`);
      await expectError(raw, /64|65536/);
    });

    it('answers ERROR to more than 100 headers', async () => {
      const raw = await connected();
      const headers = Array.from({ length: 101 }, (_, i) => `h${i}:v\n`).join('');
      raw.send(`SEND\ndestination:/app/record\n${headers}\n\0`);
      await expectError(raw, /100 headers/);
    });

    it('answers ERROR to a header line over 8 KiB', async () => {
      const raw = await connected();
      raw.send(`SEND\ndestination:/app/record\nx:${'v'.repeat(8 * 1024)}\n\n\0`);
      await expectError(raw, /header line/);
    });

    it('answers ERROR when a client piles up more frames than it lets the server handle', async () => {
      const raw = await connected();
      raw.send('SEND\ndestination:/app/slow\n\nx\0'.repeat(SESSION_LIMITS.pendingFrames + 2));
      await expectError(raw, /awaiting processing/);
      // The handlers that were running finish after the close; their records belong to this test.
      await waitFor(() => slowRunning === 0, 'the slow handlers to finish');
    });

    it('answers ERROR past the limits on transaction frames and subscriptions', async () => {
      const a = await connected();
      // In two messages, each within what one message may queue (SESSION_LIMITS.pendingFrames).
      const half = SESSION_LIMITS.transactionFrames / 2;
      a.send('BEGIN\ntransaction:t\n\n\0' + 'SEND\ndestination:/app/record\ntransaction:t\n\nx\0'.repeat(half) + 'SEND\ndestination:/app/record\ntransaction:t\nreceipt:half\n\nx\0');
      expect((await a.nextFrame()).headers.get('receipt-id')).to.equal('half');
      a.send('SEND\ndestination:/app/record\ntransaction:t\n\nx\0'.repeat(half));
      await expectError(a, /transactions/);
      const b = await connected();
      b.send(Array.from({ length: SESSION_LIMITS.subscriptions + 1 }, (_, i) => `SUBSCRIBE\nid:${i}\ndestination:/topic/open.many\n\n\0`).join(''));
      await expectError(b, /subscriptions/);
      expect(recorded).to.deep.equal([]);
    });

    it('accepts a frame just under 64 KiB', async () => {
      const raw = await connected();
      const head = 'SEND\ndestination:/app/record\nreceipt:big\n\n';
      raw.send(head + 'y'.repeat(64 * 1024 - head.length - 1) + '\0');
      expect((await raw.nextFrame()).command).to.equal('RECEIPT');
      raw.socket.close();
    });
  });

  describe('the publisher', () => {
    it('fans out to every subscriber with each one’s own subscription id and a unique message-id per publish', async () => {
      const clients = await Promise.all([1, 2, 3].map((u) => connectStomp(server, cookieOf(u))));
      const inboxes = await Promise.all(clients.map((c) => c.subscribe('/topic/open.fan')));
      const raw = await connected(9);
      raw.send('SUBSCRIBE\nid:custom-9\ndestination:/topic/open.fan\nreceipt:s\n\n\0');
      await raw.nextFrame();
      server.broker.publish('/topic/open.fan', { n: 1 });
      server.broker.publish('/topic/open.fan', 'two');
      const first = await Promise.all(inboxes.map((i) => i.next()));
      const second = await Promise.all(inboxes.map((i) => i.next()));
      expect(first.map((m) => m.json())).to.deep.equal([{ n: 1 }, { n: 1 }, { n: 1 }]);
      expect(second.map((m) => m.body)).to.deep.equal(['two', 'two', 'two']);
      expect(first[0].headers['message-id']).not.to.equal(second[0].headers['message-id']);
      for (const m of first) expect(m.headers.subscription).to.match(/^sub-/);
      const mine = await raw.nextFrame();
      expect(mine.headers.get('subscription')).to.equal('custom-9');
      raw.socket.close();
      await Promise.all(clients.map((c) => c.disconnect()));
    });

    it('keeps delivering, in order, while a group grows from one subscriber to several and shrinks back', async () => {
      const first = await connectStomp(server, cookieOf(11));
      const inbox1 = await first.subscribe('/topic/open.grow');
      server.broker.publish('/topic/open.grow', 'alone');
      const second = await connectStomp(server, cookieOf(12));
      const inbox2 = await second.subscribe('/topic/open.grow');
      server.broker.publish('/topic/open.grow', 'together');
      expect([(await inbox1.next()).body, (await inbox1.next()).body]).to.deep.equal(['alone', 'together']);
      expect((await inbox2.next()).body).to.equal('together');
      await first.disconnect();
      server.broker.publish('/topic/open.grow', 'left');
      expect((await inbox2.next()).body).to.equal('left');
      await second.disconnect();
    });

    it('publishes to one user only, on every session of theirs subscribed', async () => {
      const a1 = await connectStomp(server, cookieOf(21));
      const a2 = await connectStomp(server, cookieOf(21, 'b'));
      const b = await connectStomp(server, cookieOf(22));
      const [i1, i2] = await Promise.all([a1.subscribe('/topic/open.user'), a2.subscribe('/topic/open.user')]);
      const ib = await b.subscribe('/topic/open.user');
      server.broker.publishToUser(21, '/topic/open.user', { only: 21 });
      expect((await i1.next()).json()).to.deep.equal({ only: 21 });
      expect((await i2.next()).json()).to.deep.equal({ only: 21 });
      await ib.nothingSoFar();
      await Promise.all([a1.disconnect(), a2.disconnect(), b.disconnect()]);
    });

    it('ends a user’s subscriptions at once with unsubscribeUser', async () => {
      const a = await connectStomp(server, cookieOf(31));
      const b = await connectStomp(server, cookieOf(32));
      const ia = await a.subscribe('/topic/open.room');
      const ib = await b.subscribe('/topic/open.room');
      server.broker.unsubscribeUser(31, '/topic/open.room');
      server.broker.publish('/topic/open.room', 'after');
      expect((await ib.next()).body).to.equal('after');
      await ia.nothingSoFar();
      // The client may still UNSUBSCRIBE the id the server ended: no error.
      ia.unsubscribe();
      await a.send('/app/record', 'still connected');
      await Promise.all([a.disconnect(), b.disconnect()]);
    });

    it('counts connections and reports each disconnect with the connections left', async () => {
      const seen: Array<[number, number]> = [];
      server.broker.onDisconnect((user, remaining) => {
        if (user.userId === 41) seen.push([user.userId, remaining]);
      });
      const a = await connectStomp(server, cookieOf(41));
      const b = await connectStomp(server, cookieOf(41));
      expect(server.broker.connectionCount(41)).to.equal(2);
      await a.disconnect();
      await b.disconnect();
      await waitFor(() => seen.length >= 2, 'the server to report both disconnects');
      expect(seen).to.deep.equal([[41, 1], [41, 0]]);
      expect(server.broker.connectionCount(41)).to.equal(0);
    });

    it('closes only the sockets of the login session that ended', async () => {
      const ended = await connected(51);
      const other = await openRawStomp(server, { cookie: cookieOf(51, 'other') });
      other.send(CONNECT);
      await other.nextFrame();
      server.broker.closeAuthSession('51-a');
      await expectError(ended, /session ended/);
      other.send('SUBSCRIBE\nid:0\ndestination:/topic/open.z\nreceipt:alive\n\n\0');
      expect((await other.nextFrame()).headers.get('receipt-id')).to.equal('alive');
      other.socket.close();
    });

    it('closes the sockets of a login session that expired while connected', async () => {
      const raw = await connected(52);
      expired.add('user-52-a');
      await expectError(raw, /session ended/);
    });

    it('closes and logs a slow consumer instead of skipping it silently', async () => {
      const slow = await connected(61);
      slow.send('SUBSCRIBE\nid:0\ndestination:/topic/open.flood\nreceipt:s\n\n\0');
      await slow.nextFrame();
      // Stop reading: the kernel buffers fill, then the server's send buffer grows.
      (slow.socket as unknown as { _socket: { pause(): void } })._socket.pause();
      const body = 'z'.repeat(256 * 1024);
      const logged = () => logLines.some((l) => l.includes('slow consumer'));
      // 50 MB at most: far past the kernel's buffers and the 1 MiB limit, under uWS's own.
      for (let i = 0; i < 200 && !logged(); i++) {
        server.broker.publish('/topic/open.flood', body);
        await yieldToEventLoop(); // uWS writes and the broker's tick runs between publishes
      }
      await waitFor(logged, 'the broker to log the slow consumer it closes');
      slow.socket.terminate();
    });
  });

  describe('robustness', () => {
    // Each generator yields bytes that are certainly malformed, sent after a valid CONNECT (or
    // instead of it): every such connection must get ERROR, then be closed.
    const garbageNoEol = fc.uint8Array({ minLength: 1, maxLength: 200 }).map((a) => Buffer.from(a.map((b) => (b === 10 || b === 13 || b === 0 ? 65 : b))));
    const malformed: fc.Arbitrary<{ connect: boolean; bytes: Buffer }> = fc.oneof(
      garbageNoEol.map((g) => ({ connect: true, bytes: Buffer.concat([g, Buffer.from([0])]) })),
      fc.stringMatching(/^[A-Z]{1,12}$/).filter((c) => !['SEND', 'SUBSCRIBE', 'UNSUBSCRIBE', 'ACK', 'NACK', 'BEGIN', 'COMMIT', 'ABORT', 'DISCONNECT', 'CONNECT', 'STOMP'].includes(c)).map((c) => ({ connect: true, bytes: Buffer.from(`${c}\n\n\0`) })),
      fc.constantFrom('t', 'x', '0', ' ', 'é').map((e) => ({ connect: true, bytes: Buffer.from(`SEND\ndestination:/app/record\\${e}\n\n\0`) })),
      fc.nat({ max: 50 }).map((n) => ({ connect: true, bytes: Buffer.from(`SEND\ndestination:/app/record\ncontent-length:${n}\n\n${'q'.repeat(n + 1)}\0`) })),
      garbageNoEol.map((g) => ({ connect: true, bytes: Buffer.concat([Buffer.from('SEND\n'), g, Buffer.from('\n\n\0')]) })).filter((f) => !f.bytes.includes(58)),
      fc.constantFrom('SEND', 'SUBSCRIBE', 'BEGIN', 'ACK').map((c) => ({ connect: false, bytes: Buffer.from(`${c}\ndestination:/app/record\nid:1\ntransaction:t\n\n\0`) })),
      fc.constant({ connect: true, bytes: Buffer.from(`SEND\ndestination:/topic/open.fuzz\n\nx\0`) }),
      fc.nat({ max: 3 }).map((k) => ({ connect: true, bytes: Buffer.from(`SEND\n${'h:v\n'.repeat(101 + k)}\n\0`) })),
    );

    it('survives thousands of malformed frames: each bad connection gets ERROR and is closed, a good client keeps receiving', async function () {
      this.timeout(180_000);
      const good = await connectStomp(server, cookieOf(71));
      const inbox = await good.subscribe('/topic/open.fuzz');
      const samples = fc.sample(malformed, { numRuns: 2000, seed: 42 });
      let published = 0;
      let errors = 0;
      const ticker = setInterval(() => server.broker.publish('/topic/open.fuzz', { n: published++ }), 20);
      try {
        const queue = [...samples];
        await Promise.all(
          Array.from({ length: 16 }, async () => {
            for (let s = queue.shift(); s; s = queue.shift()) {
              const raw = await openRawStomp(server, { cookie: cookieOf(72) });
              if (s.connect) raw.send(CONNECT);
              raw.send(s.bytes);
              let f = await raw.nextFrame();
              if (f.command === 'CONNECTED') f = await raw.nextFrame();
              expect(f.command, s.bytes.toString()).to.equal('ERROR');
              await closedWithin(raw);
              errors++;
            }
          }),
        );
      } finally {
        clearInterval(ticker);
      }
      expect(errors).to.equal(2000);
      // Everything published while the fuzzing ran reached the good client, in order.
      expect(published).to.be.greaterThan(0);
      const received: number[] = [];
      for (let i = 0; i < published; i++) received.push((await inbox.next()).json<{ n: number }>().n);
      expect(received).to.deep.equal(Array.from({ length: published }, (_, i) => i));
      await good.disconnect();
      const after = await connected(73);
      after.socket.close();
    });
  });
});
