// The broker's fan-out bookkeeping with fake sockets: which frames go through a uWS topic, which
// are sent directly, and what each subscriber's MESSAGE says.
import { expect } from 'chai';
import pino from 'pino';
import { Broker } from '../../../src/stomp/broker';
import { FRAMES_PER_TURN } from '../../../src/stomp/budget';
import { StompParser } from '../../../src/stomp/parser';
import { createFeatureRouter } from '../../../src/stomp/router';
import { StompSession, type StompSocket } from '../../../src/stomp/session';
import type { Frame } from '../../../src/stomp/frame';
import { waitFor } from '../../support/wait';

class FakeSocket implements StompSocket {
  sent: string[] = [];
  topics = new Set<string>();
  ended: number | null = null;
  /** What the transport does once the socket is closed. */
  onClosed: () => void = () => {};
  send(message: Uint8Array | string): number {
    this.sent.push(typeof message === 'string' ? message : Buffer.from(message).toString());
    return 1;
  }
  subscribe(topic: string): boolean {
    this.topics.add(topic);
    return true;
  }
  unsubscribe(topic: string): boolean {
    return this.topics.delete(topic);
  }
  end(code?: number): void {
    this.ended = code ?? 1000;
    setImmediate(this.onClosed);
  }
  close(): void {
    this.ended = 1006;
    this.onClosed();
  }
  getBufferedAmount(): number {
    return 0;
  }
}

function frames(text: string): Frame[] {
  return new StompParser().push(Buffer.from(text)).frames;
}

describe('the broker', () => {
  let broker: Broker;
  let published: Array<{ topic: string; message: string }>;
  let sessionNo = 0;

  beforeEach(() => {
    published = [];
    broker = new Broker({
      router: createFeatureRouter([{ authorize: () => true }]),
      log: pino({ level: 'silent' }),
      fanout: (topic, message) => published.push({ topic, message }),
      slowConsumerBytes: 1 << 20,
    });
  });
  afterEach(() => broker.stop());

  function session(userId: number, version = '1.2'): { s: StompSession; socket: FakeSocket } {
    const s = new StompSession(broker, { userId, authSessionId: `a${userId}`, connectionId: `c${sessionNo++}` }, '127.0.0.1', 't');
    const socket = new FakeSocket();
    socket.onClosed = () => broker.closed(s);
    s.opened(socket);
    broker.opened(s);
    s.receive(Buffer.from(`CONNECT\naccept-version:${version}\n\n\0`));
    socket.sent = [];
    return { s, socket };
  }

  /** Authorisation may be asynchronous: resolves once the SUBSCRIBE was handled. */
  async function subscribe(s: StompSession, id: string, destination: string): Promise<void> {
    s.receive(Buffer.from(`SUBSCRIBE\nid:${id}\ndestination:${destination}\n\n\0`));
    await new Promise((r) => setImmediate(r));
  }

  it('sends to a lone subscriber directly, without a uWS topic', async () => {
    const a = session(1);
    await subscribe(a.s, 'sub-0', '/topic/x');
    broker.publish('/topic/x', 'hi');
    expect(published).to.deep.equal([]);
    expect(a.socket.topics.size).to.equal(0);
    expect(frames(a.socket.sent[0])[0].body.toString()).to.equal('hi');
  });

  it('sends to each of a lone session’s subscriptions to one destination, and to the rest after one ends', async () => {
    const a = session(1);
    await subscribe(a.s, 'sub-0', '/topic/two');
    await subscribe(a.s, 'sub-1', '/topic/two');
    broker.publish('/topic/two', 'first');
    expect(a.socket.sent.map((t) => frames(t)[0].headers.get('subscription')).sort()).to.deep.equal(['sub-0', 'sub-1']);
    a.s.receive(Buffer.from('UNSUBSCRIBE\nid:sub-0\n\n\0'));
    a.socket.sent = [];
    broker.publish('/topic/two', 'second');
    expect(a.socket.sent.map((t) => frames(t)[0].headers.get('subscription'))).to.deep.equal(['sub-1']);
    a.s.receive(Buffer.from('UNSUBSCRIBE\nid:sub-1\n\n\0'));
    a.socket.sent = [];
    broker.publish('/topic/two', 'third');
    expect(a.socket.sent).to.deep.equal([]);
    expect(a.s.subscriptionCount).to.equal(0);
  });

  it('groups a lone session’s subscriptions when a second session joins the destination', async () => {
    const a = session(1);
    const b = session(2);
    await subscribe(a.s, 'sub-0', '/topic/join');
    await subscribe(a.s, 'sub-1', '/topic/join');
    await subscribe(b.s, 'sub-1', '/topic/join');
    expect(a.socket.topics.size).to.equal(1);
    expect([...b.socket.topics]).to.deep.equal([...a.socket.topics]);
    broker.publish('/topic/join', 'x');
    // sub-1 is shared through one uWS topic; a's sub-0 is still sent to directly.
    expect(published.map((p) => frames(p.message)[0].headers.get('subscription'))).to.deep.equal(['sub-1']);
    expect(a.socket.sent.map((t) => frames(t)[0].headers.get('subscription'))).to.deep.equal(['sub-0']);
    expect(b.socket.sent).to.deep.equal([]);
  });

  it('forgets a closed lone session’s destinations, so a later subscriber is alone again', async () => {
    const a = session(1);
    await subscribe(a.s, 'sub-0', '/topic/gone');
    await subscribe(a.s, 'sub-1', '/topic/gone');
    broker.closed(a.s);
    const b = session(2);
    await subscribe(b.s, 'sub-0', '/topic/gone');
    broker.publish('/topic/gone', 'x');
    expect(published).to.deep.equal([]);
    expect(b.socket.topics.size).to.equal(0);
    expect(b.socket.sent).to.have.length(1);
    expect(a.socket.sent).to.deep.equal([]);
  });

  it('moves a group onto one uWS topic when a second subscriber with the same id joins, and serialises once', async () => {
    const a = session(1);
    const b = session(2);
    await subscribe(a.s, 'sub-0', '/topic/x');
    await subscribe(b.s, 'sub-0', '/topic/x');
    expect([...a.socket.topics]).to.deep.equal([...b.socket.topics]);
    expect(a.socket.topics.size).to.equal(1);
    broker.publish('/topic/x', { n: 1 });
    expect(published).to.have.length(1);
    const f = frames(published[0].message)[0];
    expect(f.headers.get('subscription')).to.equal('sub-0');
    expect(f.headers.get('content-length')).to.equal(String(Buffer.byteLength('{"n":1}')));
    expect(a.socket.sent).to.deep.equal([]);
  });

  it('serialises one frame per subscription id, each carrying its own id', async () => {
    for (const [user, id] of [[1, 'sub-0'], [2, 'sub-0'], [3, 'sub-4'], [4, 'sub-4']] as const) await subscribe(session(user).s, id, '/topic/y');
    broker.publish('/topic/y', 'x');
    expect(published.map((p) => frames(p.message)[0].headers.get('subscription')).sort()).to.deep.equal(['sub-0', 'sub-4']);
    const ids = published.map((p) => frames(p.message)[0].headers.get('message-id'));
    expect(ids[0]).to.equal(ids[1]);
    broker.publish('/topic/y', 'again');
    expect(frames(published[2].message)[0].headers.get('message-id')).not.to.equal(ids[0]);
  });

  it('escapes a subscription id for STOMP 1.2 sessions and not for 1.0 ones', async () => {
    const modern = session(1, '1.2');
    const old = session(2, '1.0');
    await subscribe(modern.s, 'a\\cb', '/topic/z');
    await subscribe(old.s, 'a:b', '/topic/z');
    broker.publish('/topic/z', 'x');
    expect(modern.socket.sent[0]).to.include('\nsubscription:a\\cb\n');
    expect(old.socket.sent[0]).to.include('\nsubscription:a:b\n');
  });

  it('ends a user’s subscriptions at once and leaves the uWS topic', async () => {
    const a = session(1);
    const b = session(2);
    await subscribe(a.s, 'sub-0', '/topic/r');
    await subscribe(b.s, 'sub-0', '/topic/r');
    broker.unsubscribeUser(1, '/topic/r');
    expect(a.socket.topics.size).to.equal(0);
    expect(a.s.subscriptionCount).to.equal(0);
    broker.publish('/topic/r', 'x');
    expect(published).to.have.length(1);
  });

  describe('when authorisation answers asynchronously', () => {
    let answers: Array<(allowed: boolean) => void>;

    beforeEach(() => {
      void broker.stop();
      answers = [];
      broker = new Broker({
        router: createFeatureRouter([{ authorize: () => new Promise<boolean>((resolve) => answers.push(resolve)) }]),
        log: pino({ level: 'silent' }),
        fanout: (topic, message) => published.push({ topic, message }),
        slowConsumerBytes: 1 << 20,
      });
    });

    const tick = () => new Promise((r) => setImmediate(r));

    it('trusts a single yes when nothing was revoked meanwhile', async () => {
      const a = session(1);
      a.s.receive(Buffer.from('SUBSCRIBE\nid:sub-0\ndestination:/topic/room\n\n\0'));
      await tick();
      answers[0](true);
      await tick();
      expect(answers).to.have.length(1);
      expect(a.s.subscribesTo('/topic/room')).to.equal(true);
    });

    it('asks again when the user’s subscriptions were ended while a yes was on its way, so leaving cannot be outrun', async () => {
      const a = session(1);
      a.s.receive(Buffer.from('SUBSCRIBE\nid:sub-0\ndestination:/topic/room\n\n\0'));
      await tick();
      // The user left the room after the check read "member": nothing to end yet.
      broker.unsubscribeUser(1, '/topic/room');
      answers[0](true);
      await tick();
      expect(answers, 'asked again').to.have.length(2);
      answers[1](false);
      await tick();
      expect(a.s.subscribesTo('/topic/room')).to.equal(false);
      broker.publish('/topic/room', 'after leaving');
      expect(a.socket.sent.filter((m) => m.startsWith('MESSAGE'))).to.deep.equal([]);
      expect(published).to.deep.equal([]);
    });
  });

  it('forgets a closed session’s subscriptions, counts connections and reports the disconnect', async () => {
    const seen: number[] = [];
    broker.onDisconnect((_u, remaining) => seen.push(remaining));
    const a = session(7);
    const b = session(7);
    await subscribe(a.s, 'sub-0', '/topic/q');
    expect(broker.connectionCount(7)).to.equal(2);
    broker.closed(a.s);
    expect(seen).to.deep.equal([1]);
    broker.publish('/topic/q', 'x');
    expect(published).to.deep.equal([]);
    expect(b.socket.sent).to.deep.equal([]);
  });

  it('publishes to one user’s subscribed sessions only', async () => {
    const a = session(1);
    const a2 = session(1);
    const b = session(2);
    for (const s of [a, a2, b]) await subscribe(s.s, 'sub-0', '/topic/p');
    broker.publishToUser(1, '/topic/p', { sdp: 'x' });
    expect(a.socket.sent).to.have.length(1);
    expect(a2.socket.sent).to.have.length(1);
    expect(b.socket.sent).to.have.length(0);
  });
});

describe('the broker’s heart-beat clock', () => {
  let broker: Broker;
  let clock = 0;

  beforeEach(() => {
    broker = new Broker({
      router: createFeatureRouter([{ authorize: () => true }]),
      log: pino({ level: 'silent' }),
      fanout: () => {},
      slowConsumerBytes: 1 << 20,
      heartbeat: { send: 1000, receive: 1000 },
      now: () => clock,
    });
  });
  afterEach(() => broker.stop());

  /** A session that negotiated heart-beats both ways every second, connected just before the int32 clock wraps. */
  function heartbeating(): FakeSocket {
    clock = 2 ** 31 - 500;
    const s = new StompSession(broker, { userId: 1, authSessionId: 'a1', connectionId: 'c1' }, '127.0.0.1', 't');
    const socket = new FakeSocket();
    s.opened(socket);
    broker.opened(s);
    s.receive(Buffer.from('CONNECT\naccept-version:1.2\nheart-beat:1000,1000\n\n\0'));
    socket.sent = [];
    return socket;
  }

  it('sends a heart-beat on time when the clock wraps past 2^31 ms', async () => {
    const socket = heartbeating();
    clock = (clock + 1000) | 0;
    await waitFor(() => socket.sent.includes('\n'), "a heart-beat at the broker's next tick");
    expect(socket.ended).to.equal(null);
  });

  it('closes a client silent for twice its interval when the clock wraps past 2^31 ms', async () => {
    const socket = heartbeating();
    clock = (clock + 2500) | 0;
    await waitFor(() => socket.ended !== null, "the silent client closed at the broker's next tick");
    expect(socket.sent.some((t) => t.startsWith('ERROR'))).to.equal(true);
    expect(socket.ended).to.equal(1008);
  });
});

describe('a session handling a burst of frames', () => {
  it('handles them in batches, yielding to the event loop in between, and in order', async () => {
    const broker = new Broker({ router: createFeatureRouter([]), log: pino({ level: 'silent' }), fanout: () => {} });
    try {
      const s = new StompSession(broker, { userId: 1, authSessionId: 'a', connectionId: 'c' }, '127.0.0.1', 't');
      const socket = new FakeSocket();
      s.opened(socket);
      broker.opened(s);
      s.receive(Buffer.from('CONNECT\naccept-version:1.2\n\n\0'));
      socket.sent = [];
      const receipts = () => socket.sent.map((m) => /receipt-id:(\S+)/.exec(m)?.[1]).filter(Boolean);
      s.receive(Buffer.from(Array.from({ length: 500 }, (_, i) => `ACK\nid:a\nreceipt:r${i}\n\n\0`).join('')));
      // One batch now; the rest after other sockets' callbacks have had their turn.
      expect(receipts()).to.have.length(FRAMES_PER_TURN);
      await new Promise((r) => setImmediate(r));
      expect(receipts()).to.have.length(2 * FRAMES_PER_TURN);
      while (receipts().length < 500) await new Promise((r) => setImmediate(r));
      expect(receipts()).to.deep.equal(Array.from({ length: 500 }, (_, i) => `r${i}`));
    } finally {
      await broker.stop();
    }
  });
});

describe('a session flooded with frames packed in one message', () => {
  it('parses no more of them than its frame budget allows, then drops the rest unparsed and uncopied', async () => {
    const budget = { framesPerSecond: 10, frameBurst: 300, bytesPerSecond: 1 << 20, byteBurst: 8 << 20 };
    // A clock that stands still: no frame is refilled while the test runs.
    const broker = new Broker({ router: createFeatureRouter([]), log: pino({ level: 'silent' }), fanout: () => {}, budget, now: () => 0 });
    try {
      const s = new StompSession(broker, { userId: 1, authSessionId: 'a', connectionId: 'c' }, '127.0.0.1', 't');
      const socket = new FakeSocket();
      s.opened(socket);
      broker.opened(s);
      s.receive(Buffer.from('CONNECT\naccept-version:1.2\n\n\0'));
      s.receive(Buffer.from('ACK\nid:a\nreceipt:r\n\n\0'.repeat(49_900)));
      await waitFor(() => socket.ended !== null, 'the flooder closed');
      expect(socket.sent.at(-1)).to.match(/^ERROR\nmessage:more than 10 frames a second sent/);
      // The CONNECT and the 299 ACKs the budget still held when the message came; the rest was cut
      // off before parsing (the one that would overdraw it is not parsed either).
      expect(broker.counters.framesIn).to.equal(budget.frameBurst);
      expect(socket.sent.filter((m) => m.startsWith('RECEIPT'))).to.have.length(budget.frameBurst - 1);
    } finally {
      await broker.stop();
    }
  });

  it('handles a message holding exactly the frames its budget still holds, and refuses one more', async () => {
    const budget = { framesPerSecond: 10, frameBurst: 300, bytesPerSecond: 1 << 20, byteBurst: 8 << 20 };
    const broker = new Broker({ router: createFeatureRouter([]), log: pino({ level: 'silent' }), fanout: () => {}, budget, now: () => 0 });
    try {
      const s = new StompSession(broker, { userId: 1, authSessionId: 'a', connectionId: 'c' }, '127.0.0.1', 't');
      const socket = new FakeSocket();
      s.opened(socket);
      broker.opened(s);
      s.receive(Buffer.from('CONNECT\naccept-version:1.2\n\n\0'));
      s.receive(Buffer.from('ACK\nid:a\nreceipt:r\n\n\0'.repeat(budget.frameBurst - 1)));
      await waitFor(() => socket.sent.filter((m) => m.startsWith('RECEIPT')).length === budget.frameBurst - 1, 'every receipt');
      expect(socket.ended).to.equal(null);
      s.receive(Buffer.from('ACK\nid:a\nreceipt:r\n\n\0'));
      await waitFor(() => socket.ended !== null, 'the session closed');
      expect(socket.sent.at(-1)).to.match(/^ERROR\nmessage:more than 10 frames a second sent/);
    } finally {
      await broker.stop();
    }
  });

  it('keeps the budget for a packed message that continues a frame begun in an earlier one', async () => {
    const budget = { framesPerSecond: 10, frameBurst: 300, bytesPerSecond: 1 << 20, byteBurst: 8 << 20 };
    const broker = new Broker({ router: createFeatureRouter([]), log: pino({ level: 'silent' }), fanout: () => {}, budget, now: () => 0 });
    try {
      const s = new StompSession(broker, { userId: 1, authSessionId: 'a', connectionId: 'c' }, '127.0.0.1', 't');
      const socket = new FakeSocket();
      s.opened(socket);
      broker.opened(s);
      s.receive(Buffer.from('CONNECT\naccept-version:1.2\n\n\0'));
      // Not on a frame boundary: the message cannot be cut on arrival, so the budget ends it as it is parsed.
      s.receive(Buffer.from('ACK\nid:a\n'));
      s.receive(Buffer.from('receipt:r\n\n\0' + 'ACK\nid:a\nreceipt:r\n\n\0'.repeat(49_900)));
      await waitFor(() => socket.ended !== null, 'the flooder closed');
      expect(socket.sent.at(-1)).to.match(/^ERROR\nmessage:more than 10 frames a second sent/);
      expect(socket.sent.filter((m) => m.startsWith('RECEIPT'))).to.have.length(budget.frameBurst - 1);
    } finally {
      await broker.stop();
    }
  });

  it('parses a turn of a packed message at once and the rest in rounds, taking turns with other sessions', async () => {
    const broker = new Broker({ router: createFeatureRouter([]), log: pino({ level: 'silent' }), fanout: () => {} });
    try {
      const order: string[] = [];
      const flooder = (name: string) => {
        const s = new StompSession(broker, { userId: 1, authSessionId: 'a', connectionId: name }, '127.0.0.1', 't');
        const socket = new FakeSocket();
        s.opened(socket);
        broker.opened(s);
        s.receive(Buffer.from('CONNECT\naccept-version:1.2\n\n\0'));
        socket.send = (message) => (order.push(name), message.length);
        return s;
      };
      const a = flooder('a');
      const b = flooder('b');
      a.receive(Buffer.from('ACK\nid:a\nreceipt:r\n\n\0'.repeat(1000)));
      b.receive(Buffer.from('ACK\nid:a\nreceipt:r\n\n\0'.repeat(1000)));
      // Two CONNECTs, then one turn of a's message; b waits for the next round (before, both were parsed whole here).
      expect(broker.counters.framesIn).to.equal(2 + FRAMES_PER_TURN);
      await waitFor(() => order.length === 2000, 'every receipt sent');
      // b, just woken, goes first in the next round; a is back for more of its backlog, and then they alternate.
      const turns = Array.from({ length: 2000 / FRAMES_PER_TURN }, (_, i) => order[i * FRAMES_PER_TURN]);
      expect(turns.slice(0, 6).join('')).to.equal('ababab');
      expect(broker.counters.framesIn).to.equal(2002);
    } finally {
      await broker.stop();
    }
  });
});
