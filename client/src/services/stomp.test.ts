import { expect } from 'chai';
import { WebSocketServer, type WebSocket as ServerSocket } from 'ws';
import type { AddressInfo } from 'node:net';
import { createStompService, defaultWebSocketUrl, MAX_RECONNECT_DELAY_MS, reconnectDelay, type StompService } from './stomp';

interface Frame { command: string; headers: Record<string, string>; body: string }

function parseFrames(data: string): Frame[] {
  return data
    .split('\0')
    .map((chunk) => chunk.replace(/^\n+/, ''))
    .filter((chunk) => chunk.length > 0)
    .map((chunk) => {
      const [head, ...rest] = chunk.split('\n\n');
      const [command, ...lines] = head.split('\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const i = line.indexOf(':');
        if (!(line.slice(0, i) in headers)) headers[line.slice(0, i)] = line.slice(i + 1);
      }
      return { command, headers, body: rest.join('\n\n') };
    });
}

function frame(command: string, headers: Record<string, string>, body = ''): string {
  return `${command}\n${Object.entries(headers).map(([k, v]) => `${k}:${v}`).join('\n')}\n\n${body}\0`;
}

/** A minimal STOMP 1.2 server: enough to watch what the client sends and to talk back. */
class FakeBroker {
  readonly frames: Frame[] = [];
  readonly sockets: ServerSocket[] = [];
  private readonly wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  private waiters: Array<() => void> = [];
  connects = 0;
  readonly listening = new Promise<void>((resolve) => this.wss.once('listening', () => resolve()));

  constructor() {
    this.wss.on('connection', (socket) => {
      this.sockets.push(socket);
      socket.on('message', (data) => {
        for (const f of parseFrames(data.toString())) {
          this.frames.push(f);
          if (f.command === 'CONNECT' || f.command === 'STOMP') {
            this.connects += 1;
            socket.send(frame('CONNECTED', { version: '1.2', 'heart-beat': '0,0' }));
          }
          if (f.headers.receipt) socket.send(frame('RECEIPT', { 'receipt-id': f.headers.receipt }));
        }
        const waiters = this.waiters;
        this.waiters = [];
        for (const w of waiters) w();
      });
    });
  }

  get url(): string {
    return `ws://127.0.0.1:${(this.wss.address() as AddressInfo).port}/websocket`;
  }

  async until<T>(find: () => T | undefined): Promise<T> {
    for (;;) {
      const found = find();
      if (found !== undefined) return found;
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  subscriptions(destination: string): Frame[] {
    return this.frames.filter((f) => f.command === 'SUBSCRIBE' && f.headers.destination === destination);
  }

  deliver(subscription: Frame, body: string): void {
    const socket = this.sockets[this.sockets.length - 1];
    socket.send(frame('MESSAGE', {
      destination: subscription.headers.destination,
      subscription: subscription.headers.id,
      'message-id': String(Math.random()),
    }, body));
  }

  dropConnection(): void {
    this.sockets[this.sockets.length - 1].terminate();
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.terminate();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }
}

function eventually(check: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    const tick = () => (check() ? resolve() : setTimeout(tick, 10));
    tick();
  });
}

describe('the STOMP service', () => {
  let broker: FakeBroker;
  let stomp: StompService;

  beforeEach(async () => {
    broker = new FakeBroker();
    await broker.listening;
    stomp = createStompService({ url: broker.url, reconnectDelayMs: 50 });
  });

  afterEach(async () => {
    await stomp.deactivate();
    await broker.close();
  });

  it('derives the WebSocket address from the page origin', () => {
    expect(defaultWebSocketUrl({ protocol: 'https:', host: 'chat.example:8443' })).to.equal('wss://chat.example:8443/websocket');
    expect(defaultWebSocketUrl({ protocol: 'http:', host: 'localhost:8080' })).to.equal('ws://localhost:8080/websocket');
  });

  it('connects on the first subscription, asks for 10 s heart-beats and hands over parsed JSON bodies', async () => {
    const received: unknown[] = [];
    let active = 0;
    stomp.subscribe('/topic/private-chat/7', { message: (body) => received.push(body), active: () => { active += 1; } });

    const connect = await broker.until(() => broker.frames.find((f) => f.command === 'CONNECT' || f.command === 'STOMP'));
    expect(connect.headers['heart-beat']).to.equal('10000,10000');
    const subscription = await broker.until(() => broker.subscriptions('/topic/private-chat/7')[0]);
    await eventually(() => active === 1);

    broker.deliver(subscription, '{"messageId":1,"content":"안녕"}');
    broker.deliver(subscription, 'true');
    await eventually(() => received.length === 2);
    expect(received).to.deep.equal([{ messageId: 1, content: '안녕' }, true]);
  });

  it('publishes JSON only while connected', async () => {
    expect(stomp.publish('/app/private-message', { content: 'lost?' })).to.equal(false);
    stomp.subscribe('/topic/toggle-refresh/3', { message: () => {} });
    await eventually(() => stomp.isConnected());

    expect(stomp.publish('/app/private-message', { chatRoomId: 7, content: '안녕' })).to.equal(true);
    const send = await broker.until(() => broker.frames.find((f) => f.command === 'SEND'));
    expect(send.headers.destination).to.equal('/app/private-message');
    expect(JSON.parse(send.body)).to.deep.equal({ chatRoomId: 7, content: '안녕' });
  });

  it('after a lost connection reconnects, subscribes again and reports the subscription active again', async () => {
    const changes: boolean[] = [];
    stomp.onConnectionChange((connected) => changes.push(connected));
    let active = 0;
    const received: unknown[] = [];
    stomp.subscribe('/topic/private-chat/9', { message: (body) => received.push(body), active: () => { active += 1; } });
    await eventually(() => active === 1);

    broker.dropConnection();
    await eventually(() => active === 2);
    expect(broker.connects).to.equal(2);
    expect(changes).to.deep.equal([true, false, true]);

    const again = broker.subscriptions('/topic/private-chat/9');
    expect(again).to.have.length(2);
    broker.deliver(again[1], '{"messageId":2}');
    await eventually(() => received.length === 1);
    expect(received).to.deep.equal([{ messageId: 2 }]);
  });

  it('unsubscribes on request and does not bring the subscription back after a reconnect', async () => {
    const stop = stomp.subscribe('/topic/private-chat/5', { message: () => {} });
    let kept = 0;
    stomp.subscribe('/topic/toggle-refresh/1', { message: () => {}, active: () => { kept += 1; } });
    const subscription = await broker.until(() => broker.subscriptions('/topic/private-chat/5')[0]);
    stop();
    const unsubscribe = await broker.until(() => broker.frames.find((f) => f.command === 'UNSUBSCRIBE'));
    expect(unsubscribe.headers.id).to.equal(subscription.headers.id);

    broker.dropConnection();
    await eventually(() => kept === 2);
    expect(broker.subscriptions('/topic/private-chat/5')).to.have.length(1);
    expect(broker.subscriptions('/topic/toggle-refresh/1')).to.have.length(2);
  });
});

describe('the reconnect backoff', () => {
  it('waits between half and all of base·2^(n−1) before the n-th attempt, at most 30 s, so a dead node\'s clients spread out', () => {
    const low = () => 0;
    const high = () => 1;
    expect([1, 2, 3, 4].map((n) => [reconnectDelay(5000, n, low), reconnectDelay(5000, n, high)])).to.deep.equal([
      [2500, 5000],
      [5000, 10_000],
      [10_000, 20_000],
      [15_000, 30_000],
    ]);
    expect(reconnectDelay(5000, 20, high)).to.equal(MAX_RECONNECT_DELAY_MS);
    // Real randomness: a thousand clients' first attempts do not all fall in one instant.
    const first = new Set(Array.from({ length: 1000 }, () => Math.floor(reconnectDelay(5000, 1) / 100)));
    expect(first.size).to.be.greaterThan(20);
  });
});
