// A logout can land between the upgrade's session check and the socket's `open`, when the socket
// is not yet registered for closeAuthSession to find. `open` therefore checks the login session
// again. The gap cannot be timed from outside a real server, so this runs the real WebSocket
// endpoint (uWS, broker, STOMP sessions, a real client) with an authenticator whose answers the
// test controls: valid at the upgrade, gone (or late) at open.
import { expect } from 'chai';
import pino from 'pino';
import uWS from 'uWebSockets.js';
import { Broker } from '../../../src/stomp/broker';
import { createFeatureRouter } from '../../../src/stomp/router';
import type { Principal, SessionAuthenticator } from '../../../src/transport/route';
import { mountWebSocket } from '../../../src/transport/ws';
import { openRawStomp } from '../../support/stomp-client';

const PRINCIPAL: Principal = { userId: 7, sessionId: 'auth-session-1' };
const COOKIE = 'sid=some-token';

/** Answers each authenticate call with the next of the given answers, and records the calls. */
class ScriptedAuthenticator implements SessionAuthenticator {
  calls = 0;
  private readonly called: Array<() => void> = [];
  constructor(private readonly answers: Array<() => Promise<Principal | null>>) {}
  authenticate(): Promise<Principal | null> {
    const answer = this.answers[Math.min(this.calls, this.answers.length - 1)];
    this.calls++;
    this.called.splice(0).forEach((wake) => wake());
    return answer();
  }
  /** Resolves once authenticate has been called `n` times; rejects after 10 s without. */
  async calledTimes(n: number): Promise<void> {
    const deadline = Date.now() + 10_000;
    while (this.calls < n) {
      if (Date.now() > deadline) throw new Error(`authenticate called ${this.calls} times, expected ${n}`);
      await new Promise<void>((wake) => {
        this.called.push(wake);
        setTimeout(wake, 1000);
      });
    }
  }
}

describe('the WebSocket endpoint at open', () => {
  let listenSocket: uWS.us_listen_socket | null = null;
  let broker: Broker;
  let url = '';

  async function serve(authenticator: SessionAuthenticator): Promise<void> {
    const app = uWS.App();
    broker = new Broker({
      router: createFeatureRouter([{ authorize: () => true }]),
      log: pino({ level: 'silent' }),
      fanout: (topic, message) => app.publish(topic, message),
      slowConsumerBytes: 1 << 20,
    });
    mountWebSocket(app, { publicOrigin: 'http://127.0.0.1', authenticator, broker, log: pino({ level: 'silent' }) });
    listenSocket = await new Promise<uWS.us_listen_socket>((resolve, reject) =>
      app.listen('127.0.0.1', 0, (socket) => (socket ? resolve(socket) : reject(new Error('cannot listen')))),
    );
    url = `http://127.0.0.1:${uWS.us_socket_local_port(listenSocket)}`;
  }

  afterEach(() => {
    void broker?.stop();
    if (listenSocket) uWS.us_listen_socket_close(listenSocket);
    listenSocket = null;
  });

  it('closes a socket whose login session ended between the upgrade and open, with the logout close', async () => {
    const auth = new ScriptedAuthenticator([async () => PRINCIPAL, async () => null]);
    await serve(auth);
    const raw = await openRawStomp({ url }, { cookie: COOKIE });
    const error = await raw.nextFrame(10_000);
    expect(error.command).to.equal('ERROR');
    expect(error.headers.get('message')).to.equal('session ended');
    expect((await raw.closed).code).to.equal(1008);
  });

  it('keeps a socket whose login session is still alive at open', async () => {
    const auth = new ScriptedAuthenticator([async () => PRINCIPAL]);
    await serve(auth);
    const raw = await openRawStomp({ url }, { cookie: COOKIE });
    await auth.calledTimes(2);
    raw.send('CONNECT\naccept-version:1.2\nhost:localhost\n\n\0');
    expect((await raw.nextFrame(10_000)).command).to.equal('CONNECTED');
    raw.send('DISCONNECT\nreceipt:bye\n\n\0');
    const receipt = await raw.nextFrame(10_000);
    expect(receipt.command).to.equal('RECEIPT');
    expect(receipt.headers.get('receipt-id')).to.equal('bye');
  });

  it('survives a socket that closes before the open-time check answers', async () => {
    let answerLate: (p: Principal | null) => void = () => {};
    const late = new Promise<Principal | null>((resolve) => (answerLate = resolve));
    const auth = new ScriptedAuthenticator([async () => PRINCIPAL, () => late, async () => PRINCIPAL]);
    await serve(auth);
    const first = await openRawStomp({ url }, { cookie: COOKIE });
    await auth.calledTimes(2);
    first.socket.close();
    await first.closed;
    answerLate(null);
    // The endpoint still works: a new socket connects.
    const second = await openRawStomp({ url }, { cookie: COOKIE });
    second.send('CONNECT\naccept-version:1.2\nhost:localhost\n\n\0');
    expect((await second.nextFrame(10_000)).command).to.equal('CONNECTED');
    second.socket.close();
  });
});
