// A socket that drops under the STOMP handshake (after the upgrade, before CONNECTED) is opened
// again by both harness clients, counted and reported; a refusal is never retried. The server
// here is a real WebSocket server on a local port that plays the drop: the kernel drop seen
// under load cannot be made to happen on demand.
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { WebSocketServer, type WebSocket } from 'ws';
import { StompSession } from '../../../src/load/stomp-session';
import { connect, webSocketUrl } from '../../../src/shared/stomp';

type Behaviour = 'drop' | 'connected' | 'error';

/** Answers each new socket as told, in turn: 'drop' ends the TCP connection without a close frame. */
async function playServer(script: Behaviour[]): Promise<{ url: string; sockets: number; close(): Promise<void> }> {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1', handleProtocols: (offered) => [...offered][0] ?? false });
  await new Promise((resolve) => wss.once('listening', resolve));
  const state = { sockets: 0 };
  wss.on('connection', (ws: WebSocket) => {
    const behaviour = script[Math.min(state.sockets++, script.length - 1)];
    if (behaviour === 'drop') {
      ws.terminate();
      return;
    }
    ws.on('message', (data: Buffer) => {
      if (!data.toString().startsWith('CONNECT')) return;
      if (behaviour === 'connected') ws.send('CONNECTED\nversion:1.2\nheart-beat:0,0\n\n\0');
      else {
        ws.send('ERROR\nmessage:login required\n\n\0');
        ws.close(1008, 'login required');
      }
    });
  });
  const { port } = wss.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get sockets() {
      return state.sockets;
    },
    close: () => {
      for (const c of wss.clients) c.terminate();
      return new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}

describe('harness clients and a socket dropped before CONNECTED', () => {
  it('harness load’s session opens it again and keeps why, once per drop', async () => {
    const server = await playServer(['drop', 'drop', 'connected']);
    const session = new StompSession();
    try {
      await session.connect({ url: webSocketUrl(server.url) });
      expect(session.open).to.equal(true);
      expect(server.sockets).to.equal(3);
      expect(session.reconnects).to.have.length(2);
      expect(session.reconnects[0]).to.match(/closed before CONNECTED \(1006: the server ended the TCP connection \(local port \d+\)\)/);
    } finally {
      await session.close();
      await server.close();
    }
  });

  it('harness load’s session gives up after its reconnects, with the last drop as the reason', async () => {
    const server = await playServer(['drop']);
    const session = new StompSession();
    try {
      const failure = await session.connect({ url: webSocketUrl(server.url), reconnectsBeforeConnected: 1 }).then(() => null, (err: Error) => err);
      expect(failure?.message).to.match(/closed before CONNECTED \(1006/);
      expect(server.sockets).to.equal(2);
      expect(session.reconnects).to.have.length(1);
    } finally {
      await server.close();
    }
  });

  it('harness load’s session never retries an ERROR', async () => {
    const server = await playServer(['error', 'connected']);
    const session = new StompSession();
    try {
      const failure = await session.connect({ url: webSocketUrl(server.url) }).then(() => null, (err: Error) => err);
      expect(failure?.message).to.equal('ERROR: login required');
      expect(server.sockets).to.equal(1);
      expect(session.reconnects).to.deep.equal([]);
    } finally {
      await server.close();
    }
  });

  it('the call harness’s client opens it again and tells each reconnect; an ERROR is not retried', async () => {
    const dropping = await playServer(['drop', 'connected']);
    const refusing = await playServer(['error', 'connected']);
    const told: string[] = [];
    try {
      const client = await connect(dropping.url, 'session=x', { heartbeatMs: 0, onReconnect: (why) => told.push(why) });
      expect(client.connected).to.equal(true);
      await client.deactivate({ force: true });
      expect(dropping.sockets).to.equal(2);
      expect(told).to.have.length(1);
      expect(told[0]).to.match(/socket closed \(1006: the server ended the TCP connection \(local port \d+\)\) before CONNECTED/);

      const failure = await connect(refusing.url, 'session=x', { heartbeatMs: 0, onReconnect: (why) => told.push(why) }).then(() => null, (err: Error) => err);
      expect(failure?.message).to.match(/failed: ERROR login required/);
      expect(refusing.sockets).to.equal(1);
      expect(told).to.have.length(1);
    } finally {
      await dropping.close();
      await refusing.close();
    }
  });
});
