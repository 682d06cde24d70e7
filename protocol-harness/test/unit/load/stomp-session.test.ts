// The load session's --reconnect: a socket dropped once CONNECTED opens again with the browser's
// backoff and subscribes again to everything, then says so; without it a drop is final.
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { WebSocketServer, type WebSocket } from 'ws';
import { reconnectDelay, StompSession } from '../../../src/load/stomp-session';

/** A broker that answers CONNECT and receipted SUBSCRIBEs, and records what it was asked. */
function fakeBroker() {
  const server = new WebSocketServer({ port: 0, host: '127.0.0.1', handleProtocols: () => 'v12.stomp' });
  const sockets: WebSocket[] = [];
  const subscribes: Array<{ connection: number; destination: string; receipt: string }> = [];
  server.on('connection', (socket) => {
    const connection = sockets.push(socket) - 1;
    socket.on('message', (data: Buffer) => {
      for (const raw of data.toString().split('\0')) {
        const [command, ...lines] = raw.replace(/^\n+/, '').split('\n');
        const headers = Object.fromEntries(lines.filter((l) => l.includes(':')).map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 1)]));
        if (command === 'CONNECT') socket.send('CONNECTED\nversion:1.2\nheart-beat:0,0\n\n\0');
        if (command === 'SUBSCRIBE') {
          subscribes.push({ connection, destination: headers.destination, receipt: headers.receipt });
          socket.send(`RECEIPT\nreceipt-id:${headers.receipt}\n\n\0`);
        }
      }
    });
  });
  const url = () => `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { server, sockets, subscribes, url, close: () => new Promise((r) => server.close(r)) };
}

const until = async (what: string, check: () => boolean) => {
  for (const deadline = Date.now() + 10_000; !check(); ) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe('the load session', () => {
  it('waits the browser\'s jittered backoff: half to all of base·2^(n−1), at most 30 s', () => {
    expect([1, 2, 3].map((n) => [reconnectDelay(5000, n, () => 0), reconnectDelay(5000, n, () => 1)])).to.deep.equal([[2500, 5000], [5000, 10_000], [10_000, 20_000]]);
    expect(reconnectDelay(5000, 10, () => 1)).to.equal(30_000);
  });

  it('with reconnectBaseMs opens again after a drop, subscribes again to everything and says so; the receipts of those SUBSCRIBEs stay its own', async () => {
    const broker = fakeBroker();
    await new Promise((r) => broker.server.once('listening', r));
    const session = new StompSession();
    const receipts: string[] = [];
    let reconnected = 0;
    let closedUnexpectedly = 0;
    session.events = { message() {}, receipt: (id) => receipts.push(id), error() {}, closed: (expected) => void (expected || closedUnexpectedly++), reconnected: () => reconnected++ };
    try {
      await session.connect({ url: broker.url(), reconnectBaseMs: 20 });
      session.subscribe('/topic/a', 'sub:a');
      session.subscribe('/topic/b', 'sub:b');
      await until('both receipts', () => receipts.length === 2);
      broker.sockets[0].terminate();
      await until('reconnected', () => reconnected === 1);
      expect(broker.subscribes.filter((s) => s.connection === 1).map((s) => s.destination)).to.deep.equal(['/topic/a', '/topic/b']);
      expect(receipts).to.deep.equal(['sub:a', 'sub:b']);
      expect(closedUnexpectedly).to.equal(0);
      expect(session.reconnectsAfterConnected).to.equal(1);
    } finally {
      await session.close();
      await broker.close();
    }
  });

  it('with otherUrls moves to another node after a drop (no load balancer in front)', async () => {
    const [dead, alive] = [fakeBroker(), fakeBroker()];
    await Promise.all([dead, alive].map((b) => new Promise((r) => b.server.once('listening', r))));
    const session = new StompSession();
    let reconnected = 0;
    session.events = { message() {}, receipt() {}, error() {}, closed() {}, reconnected: () => reconnected++ };
    try {
      await session.connect({ url: dead.url(), reconnectBaseMs: 20, otherUrls: [alive.url()] });
      session.subscribe('/topic/a');
      await until('subscribed', () => dead.subscribes.length === 1);
      dead.sockets[0].terminate();
      await until('reconnected', () => reconnected === 1);
      expect(alive.subscribes.map((s) => s.destination)).to.deep.equal(['/topic/a']);
      expect(dead.sockets).to.have.length(1);
    } finally {
      await session.close();
      await Promise.all([dead.close(), alive.close()]);
    }
  });

  it('without it reports the drop and stays closed', async () => {
    const broker = fakeBroker();
    await new Promise((r) => broker.server.once('listening', r));
    const session = new StompSession();
    let closedUnexpectedly = 0;
    session.events = { message() {}, receipt() {}, error() {}, closed: (expected) => void (expected || closedUnexpectedly++) };
    try {
      await session.connect({ url: broker.url() });
      broker.sockets[0].terminate();
      await until('the drop reported', () => closedUnexpectedly === 1);
      expect(broker.sockets).to.have.length(1);
    } finally {
      await session.close();
      await broker.close();
    }
  });
});
