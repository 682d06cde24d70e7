// Exact delivery accounting. Every message is known by (sender, seq), seq counting from 0 per
// sender; every delivery is checked against the group the message was sent to:
//  - the first delivery of a message to a member is counted and its latency recorded;
//  - a second delivery of the same message to the same member is a duplicate;
//  - a delivery whose seq is below one the receiver already had from that sender is out of order
//    (per-sender FIFO is what a room or topic promises, not a global order);
//  - a first delivery after the drain ended (onTimeUntil) is late: delivered, with its latency,
//    and counted apart; whatever a member never received by the end of the grace is lost;
//  - a delivery of an unknown message, or to someone outside its group, is unexpected.
import { LatencyHistogram } from './latency';

export interface DeliveryCounts {
  sent: number;
  acknowledged: number;
  /** SENDs the server refused with an ERROR frame. */
  rejected: number;
  expectedDeliveries: number;
  /** First deliveries, on time or late. */
  delivered: number;
  /** Of those, the ones that came after the drain (within the grace). */
  late: number;
  /** Expected deliveries never received (so far; final once the grace is over). */
  lost: number;
  duplicated: number;
  outOfOrder: number;
  unexpected: number;
}

export interface LossDetail {
  /** Messages with missing deliveries that no member received at all. */
  messagesNobodyGot: number;
  /** Messages with missing deliveries whose SEND was never acknowledged. */
  unacknowledgedMissing: number;
  /** How many receivers miss something, and the ones missing most. */
  receiversMissing: number;
  worst: Array<{ client: number; missing: number }>;
}

interface Sent {
  group: number;
  /** Monotonic clock, microseconds. */
  sentAtUs: number;
  /** One bit per group member (by position): received already. */
  received: Uint8Array;
  receivedCount: number;
  acknowledged: boolean;
}

interface Group {
  size: number;
  members: readonly number[];
  /** Receiver id → position in the group. */
  position: Map<number, number>;
}

export class DeliveryLedger {
  /** Every first delivery's send→deliver latency, late ones included. */
  readonly latency = new LatencyHistogram();
  /** The late deliveries' latency alone. */
  readonly lateLatency = new LatencyHistogram();
  /** First deliveries at a later time (µs, the clock of recordDelivery) are late. */
  private onTimeUntilUs = Infinity;
  private readonly groups: Group[] = [];
  private readonly bySender = new Map<number, Sent[]>();
  /** receiver → (sender → highest seq received so far). */
  private readonly highestSeen = new Map<number, Map<number, number>>();
  private counts: DeliveryCounts = {
    sent: 0,
    acknowledged: 0,
    rejected: 0,
    expectedDeliveries: 0,
    delivered: 0,
    late: 0,
    lost: 0,
    duplicated: 0,
    outOfOrder: 0,
    unexpected: 0,
  };

  /** Declares who receives what is sent to a group (a room, a topic); returns the group id. */
  addGroup(members: readonly number[]): number {
    const position = new Map<number, number>();
    members.forEach((m, i) => position.set(m, i));
    this.groups.push({ size: members.length, members: [...members], position });
    return this.groups.length - 1;
  }

  /** Records a SEND; returns the seq to put in the message. */
  recordSend(sender: number, group: number, sentAtUs: number): number {
    const g = this.groups[group];
    if (!g) throw new Error(`unknown group ${group}`);
    let list = this.bySender.get(sender);
    if (!list) this.bySender.set(sender, (list = []));
    list.push({ group, sentAtUs, received: new Uint8Array((g.size + 7) >> 3), receivedCount: 0, acknowledged: false });
    this.counts.sent++;
    this.counts.expectedDeliveries += g.size;
    return list.length - 1;
  }

  /** A RECEIPT for the SEND; a repeated receipt is ignored. */
  recordAck(sender: number, seq: number): void {
    const m = this.bySender.get(sender)?.[seq];
    if (!m || m.acknowledged) return;
    m.acknowledged = true;
    this.counts.acknowledged++;
  }

  recordRejected(): void {
    this.counts.rejected++;
  }

  /** Returns the latency recorded (µs) for a first delivery, null for anything else. */
  recordDelivery(receiver: number, sender: number, seq: number, atUs: number): number | null {
    const m = this.bySender.get(sender)?.[seq];
    const pos = m ? this.groups[m.group].position.get(receiver) : undefined;
    if (!m || pos === undefined) {
      this.counts.unexpected++;
      return null;
    }
    const byte = pos >> 3;
    const bit = 1 << (pos & 7);
    if (m.received[byte] & bit) {
      this.counts.duplicated++;
      return null;
    }
    m.received[byte] |= bit;
    m.receivedCount++;
    this.counts.delivered++;
    this.latency.record(atUs - m.sentAtUs);
    if (atUs > this.onTimeUntilUs) {
      this.counts.late++;
      this.lateLatency.record(atUs - m.sentAtUs);
    }

    let seen = this.highestSeen.get(receiver);
    if (!seen) this.highestSeen.set(receiver, (seen = new Map<number, number>()));
    const highest = seen.get(sender);
    if (highest !== undefined && seq < highest) this.counts.outOfOrder++;
    else seen.set(sender, seq);
    return atUs - m.sentAtUs;
  }

  /** The drain ended at `atUs`: first deliveries after it are late (still delivered, never lost). */
  endDrain(atUs: number): void {
    this.onTimeUntilUs = atUs;
  }

  /** True when every message sent so far reached every member of its group. */
  get complete(): boolean {
    return this.counts.delivered >= this.counts.expectedDeliveries;
  }

  /** Acknowledged SENDs so far vs SENDs recorded. */
  get unacknowledged(): number {
    return this.counts.sent - this.counts.acknowledged - this.counts.rejected;
  }

  /**
   * Where what is missing went missing: a receiver missing everything of a step (its session
   * closed or unsubscribed) looks different from messages nobody received (dropped on the way in)
   * or stragglers spread over everyone (late, not lost).
   */
  lossDetail(top = 5): LossDetail {
    const byReceiver = new Map<number, number>();
    let messagesNobodyGot = 0;
    let unacknowledgedMissing = 0;
    for (const list of this.bySender.values()) {
      for (const m of list) {
        const g = this.groups[m.group];
        if (m.receivedCount >= g.size) continue;
        if (m.receivedCount === 0) messagesNobodyGot++;
        if (!m.acknowledged) unacknowledgedMissing++;
        g.members.forEach((receiver, pos) => {
          if (!(m.received[pos >> 3] & (1 << (pos & 7)))) byReceiver.set(receiver, (byReceiver.get(receiver) ?? 0) + 1);
        });
      }
    }
    const receivers = [...byReceiver].sort((a, b) => b[1] - a[1]);
    return {
      messagesNobodyGot,
      unacknowledgedMissing,
      receiversMissing: receivers.length,
      worst: receivers.slice(0, top).map(([client, missing]) => ({ client, missing })),
    };
  }

  /** Counts as of now; lost is what is still missing (final once no more deliveries can come). */
  snapshot(): DeliveryCounts {
    return { ...this.counts, lost: this.counts.expectedDeliveries - this.counts.delivered };
  }
}
