import dgram from 'node:dgram';
import { expect } from 'chai';
import { measuredLinkLossPct, udpTurnTarget } from '../../../src/caller/impaired-network';
import { fullImpairment, parseImpairment, parseNetworkChange } from '../../../src/caller/network';
import { ImpairedUdpRelay } from '../../../src/caller/udp-relay';

describe('--network settings', () => {
  it('parses settings, profiles and a profile with changes', () => {
    expect(fullImpairment('loss=5%,delay=100ms,jitter=30ms')).to.deep.equal({ lossPct: 5, delayMs: 100, jitterMs: 30 });
    expect(fullImpairment('loss=2.5%')).to.deep.equal({ lossPct: 2.5, delayMs: 0, jitterMs: 0 });
    expect(fullImpairment('3g')).to.deep.equal({ lossPct: 2, delayMs: 100, jitterMs: 25 });
    expect(fullImpairment('lossy-wifi,loss=10%,delay=0.2s')).to.include({ lossPct: 10, delayMs: 200 });
  });

  it('refuses bad settings, saying what is allowed', () => {
    expect(() => parseImpairment('loss=5')).to.throw(/loss is a percentage/);
    expect(() => parseImpairment('loss=101%')).to.throw(/above 100%/);
    expect(() => parseImpairment('delay=5%')).to.throw(/delay is a time/);
    expect(() => parseImpairment('5g')).to.throw(/unknown profile 5g \(one of clean, 3g, lossy-wifi\)/);
    expect(() => parseImpairment('bandwidth=1mbit')).to.throw(/unknown setting bandwidth/);
    expect(() => parseImpairment('loss=5%,')).to.throw(/empty part/);
  });

  it('parses a change mid-call: only the settings it names', () => {
    expect(parseNetworkChange('10s:loss=0%')).to.deep.equal({ atSeconds: 10, change: { lossPct: 0 }, text: '10s:loss=0%' });
    expect(parseNetworkChange('1500ms:3g').atSeconds).to.equal(1.5);
    expect(() => parseNetworkChange('loss=0%')).to.throw(/TIME:SETTINGS/);
  });

  it('relays only TURN over UDP', () => {
    expect(udpTurnTarget('turn:127.0.0.1:3479?transport=udp')).to.deep.equal({ host: '127.0.0.1', port: 3479 });
    expect(udpTurnTarget('turn:turn.example.com')).to.deep.equal({ host: 'turn.example.com', port: 3478 });
    expect(udpTurnTarget('turn:[::1]:5000')).to.deep.equal({ host: '::1', port: 5000 });
    expect(udpTurnTarget('turn:127.0.0.1:3479?transport=tcp')).to.equal(null);
    expect(udpTurnTarget('turns:turn.example.com:5349')).to.equal(null);
    expect(udpTurnTarget('stun:stun.example.com')).to.equal(null);
  });

  it('reports the loss of one link: pooled over both receivers, and per link when both sides are impaired', () => {
    const side = (received: number, lost: number) => ({ series: [], summary: { samples: 0, rttMs: null, jitterMs: null, lossPct: null, bitrateKbps: null, mos: null }, audioPackets: { received, lost, lossPct: null } });
    expect(measuredLinkLossPct({ caller: side(450, 50), callee: side(460, 40) }, 'caller')).to.equal(9);
    expect(measuredLinkLossPct({ caller: side(81, 19), callee: side(81, 19) }, 'both')).to.equal(10);
    expect(measuredLinkLossPct({ caller: side(0, 0), callee: side(0, 0) }, 'callee')).to.equal(null);
  });
});

describe('the impairing UDP relay', () => {
  let echo: dgram.Socket;
  let client: dgram.Socket;

  beforeEach(async () => {
    echo = dgram.createSocket('udp4');
    echo.on('message', (data, from) => echo.send(data, from.port, from.address));
    client = dgram.createSocket('udp4');
    await Promise.all([new Promise<void>((r) => echo.bind(0, '127.0.0.1', r)), new Promise<void>((r) => client.bind(0, '127.0.0.1', r))]);
  });

  afterEach(() => {
    echo.close();
    client.close();
  });

  /** Sends n datagrams through the relay to the echo server, waits for the replies to stop coming. */
  async function roundTrips(relay: ImpairedUdpRelay, n: number): Promise<Set<number>> {
    const back = new Set<number>();
    client.on('message', (data) => back.add(data.readUInt32BE(0)));
    for (let i = 0; i < n; i++) {
      const b = Buffer.alloc(4);
      b.writeUInt32BE(i);
      client.send(b, relay.port, '127.0.0.1');
      // Paced, so that the burst does not overflow the sockets' receive buffers.
      if (i % 20 === 19) await new Promise((r) => setTimeout(r, 1));
    }
    let seen = -1;
    while (seen !== back.size + relay.counts.down.forwarded) {
      seen = back.size + relay.counts.down.forwarded;
      await new Promise((r) => setTimeout(r, 200));
    }
    return back;
  }

  it('passes everything on, both ways, when clean', async () => {
    const relay = await ImpairedUdpRelay.start({ host: '127.0.0.1', port: echo.address().port }, fullImpairment('clean'));
    try {
      const back = await roundTrips(relay, 200);
      expect(back.size).to.equal(200);
      expect(relay.counts).to.deep.equal({ up: { forwarded: 200, dropped: 0 }, down: { forwarded: 200, dropped: 0 } });
    } finally {
      relay.close();
    }
  });

  it('drops the asked share each way and passes the rest on, held back by delay ± jitter', async () => {
    const relay = await ImpairedUdpRelay.start({ host: '127.0.0.1', port: echo.address().port }, fullImpairment('loss=10%,delay=5ms,jitter=3ms'));
    try {
      const back = await roundTrips(relay, 2000);
      // Of what reached the relay (a burst may overflow a socket's buffer before it): ~2000 draws at
      // 10 % have a standard deviation of 0.67 points, so ±3 points is 4.5 of them.
      const { up } = relay.counts;
      expect(up.forwarded + up.dropped).to.be.above(1500);
      expect(up.dropped / (up.forwarded + up.dropped)).to.be.within(0.07, 0.13);
      expect(relay.counts.down.dropped / relay.counts.up.forwarded).to.be.within(0.07, 0.13);
      expect(back.size).to.equal(relay.counts.down.forwarded);
    } finally {
      relay.close();
    }
  });

  it('applies a change to the datagrams that follow', async () => {
    const relay = await ImpairedUdpRelay.start({ host: '127.0.0.1', port: echo.address().port }, fullImpairment('loss=100%'));
    try {
      expect((await roundTrips(relay, 50)).size).to.equal(0);
      expect(relay.counts.up).to.deep.equal({ forwarded: 0, dropped: 50 });
      relay.set(fullImpairment('loss=0%'));
      client.removeAllListeners('message');
      expect((await roundTrips(relay, 50)).size).to.equal(50);
      expect(relay.counts.up).to.deep.equal({ forwarded: 50, dropped: 50 });
    } finally {
      relay.close();
    }
  });
});
