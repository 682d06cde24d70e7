// A WebSocket message over the 1 MiB limit (docs/protocol.md, Limits) is answered with an ERROR
// frame before the close, like every other refusal, not closed by uWS without a word (1006).
import { expect } from 'chai';
import pino from 'pino';
import { createFeatureRouter } from '../../src/stomp/router';
import { CLOSE } from '../../src/stomp/session';
import { MAX_MESSAGE_BYTES } from '../../src/transport/ws';
import { startStandalone, type StandaloneServer } from '../support/standalone-stomp';
import { openRawStomp, type RawStomp } from '../support/stomp-client';

const CONNECT = 'CONNECT\naccept-version:1.2\nhost:localhost\n\n\0';

describe('a WebSocket message over the limit', function () {
  this.timeout(30_000);
  let server: StandaloneServer;
  const sockets: RawStomp[] = [];

  before(async () => {
    server = await startStandalone({
      router: createFeatureRouter([{ handlers: { '/app/record': () => {} } }]),
      log: pino({ level: 'silent' }),
      authenticator: { authenticate: (token) => Promise.resolve(token === 'user-1' ? { userId: 1, sessionId: token } : null) },
    });
  });
  afterEach(() => {
    for (const s of sockets.splice(0)) s.socket.terminate();
  });
  after(() => server.stop());

  const connected = async (): Promise<RawStomp> => {
    const raw = await openRawStomp(server, { cookie: 'sid=user-1' });
    sockets.push(raw);
    raw.send(CONNECT);
    expect((await raw.nextFrame()).command).to.equal('CONNECTED');
    return raw;
  };

  it('gets an ERROR frame, then a close with 1009 (too big)', async () => {
    const raw = await connected();
    raw.send(Buffer.alloc(MAX_MESSAGE_BYTES + 1, 'x'));
    const error = await raw.nextFrame();
    expect([error.command, error.headers.get('message')]).to.deep.equal(['ERROR', `a WebSocket message over ${MAX_MESSAGE_BYTES} bytes`]);
    expect((await raw.closed).code).to.equal(CLOSE.tooBig);
  });

  it('is answered the same before CONNECT', async () => {
    const raw = await openRawStomp(server, { cookie: 'sid=user-1' });
    sockets.push(raw);
    raw.send(Buffer.alloc(MAX_MESSAGE_BYTES + 64 * 1024, '\n'));
    expect((await raw.nextFrame()).command).to.equal('ERROR');
    expect((await raw.closed).code).to.equal(CLOSE.tooBig);
  });

  it('leaves a message of exactly the limit to the STOMP rules', async () => {
    const raw = await connected();
    // 1 MiB of heart-beat EOLs is a well-formed message: nothing to refuse but its frames' cost.
    raw.send(`${'\n'.repeat(MAX_MESSAGE_BYTES - 1)}\n`);
    raw.send('SEND\ndestination:/app/record\nreceipt:r-1\n\nhello\0');
    const receipt = await raw.nextFrame();
    expect([receipt.command, receipt.headers.get('receipt-id')]).to.deep.equal(['RECEIPT', 'r-1']);
  });
});
