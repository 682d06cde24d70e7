import { expect } from 'chai';
import fc from 'fast-check';
import { DeliveryLedger } from '../../../src/load/accounting';

interface Send {
  sender: number;
  seq: number;
  group: number;
}

/** A ledger with two rooms: {0,1,2} and {3,4}; every member sends `each` messages. */
function twoRooms(each: number): { ledger: DeliveryLedger; sends: Send[]; rooms: number[][] } {
  const ledger = new DeliveryLedger();
  const rooms = [[0, 1, 2], [3, 4]];
  const groups = rooms.map((r) => ledger.addGroup(r));
  const sends: Send[] = [];
  for (let k = 0; k < each; k++) {
    rooms.forEach((members, g) => {
      for (const sender of members) sends.push({ sender, group: groups[g], seq: ledger.recordSend(sender, groups[g], 1000 * sends.length) });
    });
  }
  return { ledger, sends, rooms };
}

/** Every (send, receiver) pair, in send order. */
function fullStream(sends: Send[], rooms: number[][]): { receiver: number; send: Send }[] {
  return sends.flatMap((send) => rooms[send.group].map((receiver) => ({ receiver, send })));
}

describe('load accounting', () => {
  it('counts a complete, in-order delivery stream as nothing lost, duplicated or reordered', () => {
    const { ledger, sends, rooms } = twoRooms(4);
    for (const { receiver, send } of fullStream(sends, rooms)) ledger.recordDelivery(receiver, send.sender, send.seq, 5000 + 1000 * sends.indexOf(send));
    sends.forEach((s) => ledger.recordAck(s.sender, s.seq));
    const c = ledger.snapshot();
    // 4 rounds × (3 senders × 3 receivers + 2 senders × 2 receivers) = 4 × 13
    expect(c).to.include({ sent: 20, acknowledged: 20, expectedDeliveries: 52, delivered: 52, lost: 0, duplicated: 0, outOfOrder: 0, unexpected: 0 });
    expect(ledger.complete).to.equal(true);
    expect(ledger.unacknowledged).to.equal(0);
  });

  it('counts each missing delivery as lost, per receiver', () => {
    const { ledger, sends, rooms } = twoRooms(3);
    const stream = fullStream(sends, rooms);
    const dropped = new Set([0, 7, 8, stream.length - 1]);
    stream.forEach(({ receiver, send }, i) => dropped.has(i) || ledger.recordDelivery(receiver, send.sender, send.seq, 1e6));
    const c = ledger.snapshot();
    expect(c.lost).to.equal(4);
    expect(c.delivered).to.equal(stream.length - 4);
    expect(c.duplicated + c.outOfOrder + c.unexpected).to.equal(0);
    expect(ledger.complete).to.equal(false);
  });

  it('counts a second delivery of the same message to the same receiver as a duplicate, not as delivered', () => {
    const { ledger, sends, rooms } = twoRooms(2);
    const stream = fullStream(sends, rooms);
    stream.forEach(({ receiver, send }) => ledger.recordDelivery(receiver, send.sender, send.seq, 1e6));
    ledger.recordDelivery(stream[3].receiver, stream[3].send.sender, stream[3].send.seq, 2e6);
    ledger.recordDelivery(stream[3].receiver, stream[3].send.sender, stream[3].send.seq, 2e6);
    ledger.recordDelivery(stream[5].receiver, stream[5].send.sender, stream[5].send.seq, 2e6);
    const c = ledger.snapshot();
    expect(c.duplicated).to.equal(3);
    expect(c.delivered).to.equal(stream.length);
    expect(c.lost + c.outOfOrder).to.equal(0);
    expect(ledger.latency.count, 'latency is recorded once per first delivery').to.equal(stream.length);
  });

  it('counts a message that arrives after a later one from the same sender as out of order', () => {
    const ledger = new DeliveryLedger();
    const room = ledger.addGroup([0, 1]);
    for (let i = 0; i < 5; i++) ledger.recordSend(0, room, i);
    // receiver 1 gets 0, 2, 1, 3, 4 (1 is late); receiver 0 gets 4, 3, 2, 1, 0 (four are late).
    for (const seq of [0, 2, 1, 3, 4]) ledger.recordDelivery(1, 0, seq, 10);
    for (const seq of [4, 3, 2, 1, 0]) ledger.recordDelivery(0, 0, seq, 10);
    const c = ledger.snapshot();
    expect(c.outOfOrder).to.equal(5);
    expect(c).to.include({ delivered: 10, lost: 0, duplicated: 0 });
  });

  it('does not call interleaving between different senders a reorder', () => {
    const ledger = new DeliveryLedger();
    const room = ledger.addGroup([0, 1, 2]);
    const a = [0, 1].map((t) => ledger.recordSend(0, room, t));
    const b = [0, 1].map((t) => ledger.recordSend(1, room, t));
    ledger.recordDelivery(2, 1, b[0], 5);
    ledger.recordDelivery(2, 0, a[0], 5);
    ledger.recordDelivery(2, 1, b[1], 5);
    ledger.recordDelivery(2, 0, a[1], 5);
    expect(ledger.snapshot().outOfOrder).to.equal(0);
  });

  it('counts deliveries of unknown messages or to non-members as misdelivered', () => {
    const ledger = new DeliveryLedger();
    const room = ledger.addGroup([0, 1]);
    ledger.addGroup([2]);
    const seq = ledger.recordSend(0, room, 0);
    ledger.recordDelivery(2, 0, seq, 1); // 2 is not in room
    ledger.recordDelivery(1, 0, seq + 1, 1); // never sent
    ledger.recordDelivery(1, 9, 0, 1); // unknown sender
    const c = ledger.snapshot();
    expect(c.unexpected).to.equal(3);
    expect(c.delivered).to.equal(0);
    expect(c.lost).to.equal(2);
  });

  it('counts each receipt once and keeps refused sends apart', () => {
    const ledger = new DeliveryLedger();
    const room = ledger.addGroup([0]);
    const s0 = ledger.recordSend(0, room, 0);
    ledger.recordSend(0, room, 0);
    ledger.recordSend(0, room, 0);
    ledger.recordAck(0, s0);
    ledger.recordAck(0, s0);
    ledger.recordAck(0, 99);
    ledger.recordRejected();
    expect(ledger.snapshot()).to.include({ sent: 3, acknowledged: 1, rejected: 1 });
    expect(ledger.unacknowledged).to.equal(1);
  });

  it('records send→deliver latency from the send time of each message', () => {
    const ledger = new DeliveryLedger();
    const room = ledger.addGroup([0, 1]);
    for (let i = 0; i < 100; i++) {
      const seq = ledger.recordSend(0, room, i * 1000);
      ledger.recordDelivery(0, 0, seq, i * 1000 + (i + 1) * 1000); // (i+1) ms
      ledger.recordDelivery(1, 0, seq, i * 1000 + (i + 1) * 1000);
    }
    const l = ledger.latency.summary();
    expect(l.count).to.equal(200);
    expect(l.p50Ms).to.be.closeTo(50, 0.1);
    expect(l.p90Ms).to.be.closeTo(90, 0.1);
    expect(l.p99Ms).to.be.closeTo(99, 0.1);
    expect(l.maxMs).to.be.closeTo(100, 0.1);
  });

  it('catches exactly the injected faults in any shuffled, faulty stream', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5 }),
        fc.array(fc.nat(), { maxLength: 20 }),
        fc.array(fc.nat(), { maxLength: 20 }),
        fc.nat(),
        (each, dropPicks, dupPicks, swapPick) => {
          const { ledger, sends, rooms } = twoRooms(each);
          const stream = fullStream(sends, rooms);
          const drop = new Set(dropPicks.map((p) => p % stream.length));
          const kept = stream.filter((_d, i) => !drop.has(i));
          const dups = [...new Set(dupPicks.map((p) => p % Math.max(kept.length, 1)))].filter(() => kept.length > 0);
          // One reorder: swap a receiver's two successive messages from one sender, if any exist.
          let swapped = 0;
          const candidates: [number, number][] = [];
          kept.forEach((d, i) => {
            const j = kept.findIndex((e, k) => k > i && e.receiver === d.receiver && e.send.sender === d.send.sender);
            if (j > 0) candidates.push([i, j]);
          });
          if (candidates.length) {
            const [i, j] = candidates[swapPick % candidates.length];
            [kept[i], kept[j]] = [kept[j], kept[i]];
            swapped = 1;
          }
          for (const d of kept) ledger.recordDelivery(d.receiver, d.send.sender, d.send.seq, 1e6);
          for (const i of dups) ledger.recordDelivery(kept[i].receiver, kept[i].send.sender, kept[i].send.seq, 1e6);
          const c = ledger.snapshot();
          expect(c.lost).to.equal(drop.size);
          expect(c.duplicated).to.equal(dups.length);
          expect(c.outOfOrder).to.equal(swapped);
          expect(c.delivered).to.equal(stream.length - drop.size);
          expect(c.expectedDeliveries).to.equal(stream.length);
        },
      ),
    );
  });

  describe('late and lost (a fake clock: times are what the driver would read)', () => {
    /** One room {0,1}; sender 0 sends 4 messages at t = 0, 1, 2, 3 ms. */
    function room(): { ledger: DeliveryLedger; seqs: number[] } {
      const ledger = new DeliveryLedger();
      const g = ledger.addGroup([0, 1]);
      const seqs = [0, 1, 2, 3].map((ms) => ledger.recordSend(0, g, ms * 1000));
      return { ledger, seqs };
    }
    const ms = (n: number) => n * 1000;

    it('counts a delivery after the drain as late, with its own latency, and never as lost', () => {
      const { ledger, seqs } = room();
      for (const seq of seqs) ledger.recordDelivery(0, 0, seq, ms(seq + 5)); // 5 ms each, on time
      ledger.recordDelivery(1, 0, seqs[0], ms(10)); // on time
      ledger.endDrain(ms(1000));
      ledger.recordDelivery(1, 0, seqs[1], ms(1500)); // late: 1499 ms
      ledger.recordDelivery(1, 0, seqs[2], ms(3002)); // late: 3000 ms
      const c = ledger.snapshot();
      expect(c).to.include({ expectedDeliveries: 8, delivered: 7, late: 2, lost: 1 });
      expect(ledger.lateLatency.summary()).to.include({ count: 2 });
      expect(ledger.lateLatency.summary().maxMs).to.be.closeTo(3000, 3);
      expect(ledger.latency.count, 'every delivery, late ones too').to.equal(7);
      expect(ledger.lossDetail().worst).to.deep.equal([{ client: 1, missing: 1 }]);
    });

    it('counts a delivery exactly at the end of the drain as on time, and a duplicate after it as a duplicate only', () => {
      const { ledger, seqs } = room();
      ledger.recordDelivery(1, 0, seqs[0], ms(100));
      ledger.endDrain(ms(100));
      ledger.recordDelivery(1, 0, seqs[0], ms(200));
      ledger.recordDelivery(0, 0, seqs[0], ms(100));
      expect(ledger.snapshot()).to.include({ delivered: 2, late: 0, duplicated: 1 });
    });

    it('keeps everything on time while the drain has not ended', () => {
      const { ledger, seqs } = room();
      for (const seq of seqs) for (const r of [0, 1]) ledger.recordDelivery(r, 0, seq, ms(60_000));
      expect(ledger.snapshot()).to.include({ delivered: 8, late: 0, lost: 0 });
      expect(ledger.complete).to.equal(true);
    });
  });
});

