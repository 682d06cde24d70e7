// Drives a prepared scenario at the offered rate, then waits for the stragglers and accounts.
// Senders take turns (round robin over every subscribed client), each SEND carrying a receipt
// and the message identity; every delivery on every session goes through the ledger.
import { ReadThrottle } from './read-throttle';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { DeliveryLedger } from './accounting';
import { findMessageId, messageId, newRunTag } from './message-id';
import type { LoadReport } from './report';
import type { RunSample } from './samples';
import { LatencyHistogram } from './latency';
import { seqOf, type Scenario } from './scenario';
import { averageRate, messagesDue, messagesOffered, scheduleSeconds, type Schedule } from './schedule';

export interface ProgressSample {
  phase: 'sending' | 'draining';
  elapsedSeconds: number;
  /** Messages due by now, and over the whole run. */
  offered: number;
  offeredTotal: number;
  sent: number;
  acknowledged: number;
  delivered: number;
  expectedDeliveries: number;
  p99Ms: number;
}

export interface DriveOptions {
  schedule: Schedule;
  /** How long to wait after the last send for receipts and deliveries still under way. */
  drainSeconds: number;
  /**
   * After the drain, how long deliveries still missing may arrive: they count as late (delivered,
   * with their latency); what has not arrived by the end of it is lost. Default 10.
   */
  graceSeconds?: number;
  /** Aborted (Ctrl-C, SIGTERM): stop sending, wait at most INTERRUPT_DRAIN_MS, then report. */
  interrupt?: AbortSignal;
  onProgress?: (sample: ProgressSample) => void;
  progressEveryMs?: number;
  /**
   * Called once a second from the first send to the end of the grace (--out, --metrics-port), with
   * that second's latency histogram (reset after the call: --workers encode it to merge exactly).
   */
  onSample?: (sample: RunSample, interval: LatencyHistogram) => void;
  /** Called with each first delivery's latency in µs (the Prometheus histogram). */
  onLatency?: (us: number) => void;
  /** Every receiver sends /app/read for the messages of this run it receives from another. */
  sendReads?: boolean;
  /**
   * With sendReads: at most one /app/read per session in this many ms, the newest seq, as the
   * browser client sends them (READ_INTERVAL_MS, 1000); 0 sends one for every message.
   */
  readIntervalMs?: number;
}

const TICK_MS = 1;
/** Sends per tick at most, so catching up after a stall never blocks receiving for long. */
const MAX_BURST = 500;
const INTERRUPT_DRAIN_MS = 2000;
const DEFAULT_GRACE_SECONDS = 10;
/**
 * The generator is behind when it cannot send what the schedule offers by its end plus 5 %: it
 * then stops sending (its figures would describe the generator, not the server). At least
 * OVERRUN_FLOOR_S, so that one stall of a loaded machine at the end of a few-second smoke run (the
 * test machines have seen the event loop held for most of a second) is not an overrun; from a
 * 20 s run on, the 5 % decides.
 */
const OVERRUN_SHARE = 0.05;
const OVERRUN_FLOOR_S = 1;
/** Below this share of the asked rate on average, the generator is behind too. */
const MIN_RATE_SHARE = 0.95;

const nowUs = () => performance.now() * 1000;

/**
 * Per client, the room seqs it holds: contiguous up to `last`, and those above it. The first seq a
 * client sees sets where it starts (older messages are no part of the run).
 */
class SeqsHeld {
  private readonly lastOf = new Map<number, number>();
  private readonly above = new Map<number, Set<number>>();

  last(client: number): number {
    return this.lastOf.get(client) ?? 0;
  }

  has(client: number, seq: number): boolean {
    const last = this.lastOf.get(client);
    return last !== undefined && (seq <= last || (this.above.get(client)?.has(seq) ?? false));
  }

  note(client: number, seq: number): void {
    let last = this.lastOf.get(client) ?? seq - 1;
    if (seq <= last) return;
    let above = this.above.get(client);
    if (!above) this.above.set(client, (above = new Set()));
    above.add(seq);
    while (above.delete(last + 1)) last++;
    this.lastOf.set(client, last);
  }
}
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function drive(scenario: Scenario, options: DriveOptions): Promise<LoadReport> {
  const { schedule } = options;
  const ledger = new DeliveryLedger();
  scenario.groups.forEach((members) => ledger.addGroup(members));
  const run = newRunTag();
  const swarm = scenario.swarm;
  const errorsBeforeRun = swarm.connectionErrors;
  const senders = scenario.groups.flat().sort((a, b) => a - b);
  let foreign = 0;
  let lastDeliveryUs = 0;

  const reads = { sent: 0, eventsReceived: 0 };
  const sampling = options.onSample !== undefined || options.onLatency !== undefined;
  const intervalLatency = new LatencyHistogram();
  const readThrottle = new ReadThrottle(options.readIntervalMs ?? 1000, (client, read) => {
    swarm.sessions[client]?.send(read.destination, read.body);
    reads.sent++;
  });
  const take = (client: number, body: string) => {
    const ref = findMessageId(body, run);
    if (!ref) {
      if (body.includes('"type":"read"')) reads.eventsReceived++;
      else foreign++; // system messages, other runs: not ours to account
      return;
    }
    lastDeliveryUs = nowUs();
    const latencyUs = ledger.recordDelivery(client, ref.sender, ref.seq, lastDeliveryUs);
    if (latencyUs !== null && sampling) {
      intervalLatency.record(latencyUs);
      options.onLatency?.(latencyUs);
    }
    if (options.sendReads && ref.sender !== client) {
      const read = scenario.read?.(client, body);
      if (read) readThrottle.offer(client, read);
    }
  };

  // --reconnect (scenario.history): a session opened again after a drop, or told `resync` by the
  // server (docs/protocol.md), fetches its room after the last seq it holds, as the browser does;
  // what history adds counts as delivered now. Live messages that come meanwhile wait for the
  // catch-up, so each sender's messages still reach the ledger in order.
  const held = scenario.history ? new SeqsHeld() : null;
  /** Seqs a client took from history whose live copy may still come (bus order differs between nodes): not a duplicate then. */
  const fetched = new Map<number, Set<number>>();
  const waiting = new Map<number, string[]>();
  const again = new Set<number>();
  const catchUp = async (client: number, first?: string) => {
    if (!held || !scenario.history) return;
    if (waiting.has(client)) {
      if (first !== undefined) waiting.get(client)!.push(first);
      again.add(client);
      return;
    }
    const live: string[] = first === undefined ? [] : [first];
    waiting.set(client, live);
    try {
      do {
        again.delete(client);
        for (;;) {
          const page = await scenario.history(client, held.last(client));
          for (const body of page.bodies) {
            const seq = seqOf(body);
            if (seq === null || held.has(client, seq)) continue;
            held.note(client, seq);
            let mine = fetched.get(client);
            if (!mine) fetched.set(client, (mine = new Set()));
            mine.add(seq);
            take(client, body);
          }
          if (!page.hasMore || page.bodies.length === 0) break;
        }
      } while (again.has(client));
    } catch (err) {
      swarm.noteError(`session ${client}: catch-up: ${(err as Error).message}`);
    } finally {
      waiting.delete(client);
      live.sort((a, b) => (seqOf(a) ?? 0) - (seqOf(b) ?? 0));
      for (const body of live) {
        const seq = seqOf(body);
        if (seq !== null) {
          if (fetched.get(client)?.delete(seq)) continue; // already taken from history
          held.note(client, seq);
        }
        take(client, body);
      }
    }
  };

  swarm.handler = {
    message(client, body) {
      if (held) {
        if (body.includes('"type":"resync"')) {
          void catchUp(client);
          return;
        }
        const live = waiting.get(client);
        if (live) {
          live.push(body);
          return;
        }
        const seq = seqOf(body);
        if (seq !== null && fetched.get(client)?.delete(seq)) return; // its copy from history was counted
        if (seq !== null && held.last(client) > 0 && seq > held.last(client) + 1 && !held.has(client, seq)) {
          // Skipped ahead: fetch what is in between first, as the browser does.
          void catchUp(client, body);
          return;
        }
        if (seq !== null) held.note(client, seq);
      }
      take(client, body);
    },
    resync(client) {
      void catchUp(client);
    },
    receipt(client, receiptId) {
      if (receiptId.startsWith('m')) ledger.recordAck(client, Number(receiptId.slice(1)));
    },
    refused(_client, receiptId) {
      if (receiptId?.startsWith('m')) ledger.recordRejected();
    },
  };

  const startUs = nowUs();
  let lastSendUs = startUs;
  let turn = 0;
  let interrupted = options.interrupt?.aborted ?? false;
  const onInterrupt = () => {
    interrupted = true;
  };
  options.interrupt?.addEventListener('abort', onInterrupt, { once: true });

  const plannedSeconds = scheduleSeconds(schedule);
  const total = messagesOffered(schedule);
  const sample = (phase: ProgressSample['phase']): ProgressSample => {
    const c = ledger.snapshot();
    const elapsedSeconds = (nowUs() - startUs) / 1e6;
    return {
      phase,
      elapsedSeconds,
      offered: messagesDue(schedule, elapsedSeconds),
      offeredTotal: total,
      sent: c.sent,
      acknowledged: c.acknowledged,
      delivered: c.delivered,
      expectedDeliveries: c.expectedDeliveries,
      p99Ms: ledger.latency.percentileMs(99),
    };
  };
  let phase: ProgressSample['phase'] = 'sending';
  let inGrace = false;
  const progressTimer = options.onProgress ? setInterval(() => options.onProgress!(sample(phase)), options.progressEveryMs ?? 1000) : null;

  // One sample a second (--out, --metrics-port), with this second's latency and CPU.
  const sampleDelay = monitorEventLoopDelay({ resolution: 10 });
  let last = { sent: 0, delivered: 0, cpu: process.cpuUsage(), atUs: startUs };
  const takeSample = () => {
    const c = ledger.snapshot();
    const at = nowUs();
    const cpu = process.cpuUsage(last.cpu);
    const l = intervalLatency.summary();
    options.onSample?.({
      at: new Date().toISOString(),
      elapsedSeconds: (at - startUs) / 1e6,
      phase: inGrace ? 'grace' : phase,
      offered: messagesDue(schedule, (at - startUs) / 1e6),
      sent: c.sent,
      acknowledged: c.acknowledged,
      delivered: c.delivered,
      late: c.late,
      missing: c.lost,
      duplicated: c.duplicated,
      outOfOrder: c.outOfOrder,
      sentInInterval: c.sent - last.sent,
      deliveredInInterval: c.delivered - last.delivered,
      latencyMs: { count: l.count, p50: l.p50Ms, p90: l.p90Ms, p99: l.p99Ms, max: l.maxMs },
      generatorCpuPercent: ((cpu.user + cpu.system) / Math.max(at - last.atUs, 1)) * 100,
      eventLoopLagP99Ms: Number.isFinite(sampleDelay.percentile(99)) ? sampleDelay.percentile(99) / 1e6 : 0,
    }, intervalLatency);
    intervalLatency.reset();
    sampleDelay.reset();
    last = { sent: c.sent, delivered: c.delivered, cpu: process.cpuUsage(), atUs: at };
  };
  let sampleTimer: NodeJS.Timeout | null = null;
  if (options.onSample) {
    sampleDelay.enable();
    sampleTimer = setInterval(takeSample, 1000);
  }

  // What the generator itself costs while sending: its CPU and how late its timers fire.
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();
  const cpuBefore = process.cpuUsage();
  const deadlineS = plannedSeconds + Math.max(plannedSeconds * OVERRUN_SHARE, OVERRUN_FLOOR_S);
  const perSecond: number[] = [];
  let maxBacklog = 0;
  // Set inside the ticker's callback: typed wide so the checks after it are not narrowed away.
  let stoppedBy = 'done' as 'done' | 'deadline' | 'interrupted' | 'no-sessions';

  // Sending: an open loop against the clock.
  let sent = 0;
  await new Promise<void>((resolve) => {
    const finish = (why: typeof stoppedBy) => {
      stoppedBy = why;
      clearInterval(ticker);
      resolve();
    };
    const tick = () => {
      if (interrupted) return finish('interrupted');
      if (senders.length === 0) return finish('no-sessions');
      const elapsedS = (nowUs() - startUs) / 1e6;
      const dueNow = messagesDue(schedule, elapsedS);
      maxBacklog = Math.max(maxBacklog, dueNow - sent);
      if (elapsedS > deadlineS && sent < total) return finish('deadline');
      const due = Math.min(dueNow, sent + MAX_BURST);
      const second = Math.floor(elapsedS);
      while (perSecond.length <= second) perSecond.push(0);
      let skipped = 0;
      while (sent < due && skipped < senders.length) {
        const client = senders[turn];
        turn = (turn + 1) % senders.length;
        const session = swarm.sessions[client];
        if (!session?.open) {
          skipped++; // its failure is already counted as a connection error
          continue;
        }
        skipped = 0;
        lastSendUs = nowUs();
        const seq = ledger.recordSend(client, scenario.groupOf[client], lastSendUs);
        session.send(scenario.destination(client), scenario.body(client, messageId(run, client, seq)), `m${seq}`);
        sent++;
        perSecond[second]++;
      }
      if (skipped >= senders.length) return finish('no-sessions');
      if (sent >= total) finish('done');
    };
    const ticker = setInterval(tick, TICK_MS);
  });
  const sendEndUs = nowUs();
  const cpu = process.cpuUsage(cpuBefore);
  loopDelay.disable();
  const sendingSeconds = (sendEndUs - startUs) / 1e6;
  const askedRate = averageRate(schedule);
  // A run that sent all it offered within the overrun allowed kept to the schedule; one stopped
  // by the deadline sent what it did over the time it took, and is behind whatever it sent.
  const achievedRate = sent / Math.max(stoppedBy === 'done' ? plannedSeconds : Math.max(plannedSeconds, sendingSeconds), 1e-6);
  const fellBehind = stoppedBy === 'deadline' || (stoppedBy === 'done' && achievedRate < MIN_RATE_SHARE * askedRate);

  // Draining: until everything arrived and every SEND was answered, or time is up.
  phase = 'draining';
  const drainEnds = performance.now() + (interrupted ? Math.min(INTERRUPT_DRAIN_MS, options.drainSeconds * 1000) : options.drainSeconds * 1000);
  const settled = () => ledger.complete && ledger.unacknowledged <= 0;
  while (!settled() && performance.now() < drainEnds) {
    const wasInterrupted = interrupted;
    await sleep(10);
    // A Ctrl-C during the drain shortens it.
    if (!wasInterrupted && interrupted) break;
  }
  // The grace: what arrives from now on is late; what has not arrived by its end is lost.
  ledger.endDrain(nowUs());
  inGrace = true;
  const graceEnds = performance.now() + (interrupted ? 0 : (options.graceSeconds ?? DEFAULT_GRACE_SECONDS) * 1000);
  while (!ledger.complete && performance.now() < graceEnds && !interrupted) await sleep(20);
  if (progressTimer) clearInterval(progressTimer);
  if (sampleTimer) {
    clearInterval(sampleTimer);
    takeSample(); // the last, partial second: the final counts
    sampleDelay.disable();
  }
  options.interrupt?.removeEventListener('abort', onInterrupt);
  swarm.handler = null;
  readThrottle.stop();

  const counts = ledger.snapshot();
  // Something is missing: say who misses it.
  let loss: LoadReport['loss'];
  if (counts.lost > 0) {
    const detail = ledger.lossDetail();
    loss = { ...detail, worst: detail.worst.map((w) => ({ ...w, open: swarm.sessions[w.client]?.open ?? false })), late: counts.late };
  }

  const sendSeconds = Math.max((lastSendUs - startUs) / 1e6, 1e-6);
  const deliverSeconds = Math.max((Math.max(lastDeliveryUs, lastSendUs) - startUs) / 1e6, 1e-6);
  // Since the sessions were opened: failures while setting up count as much as those during the run.
  const connectionErrors = swarm.connectionErrors;
  const ns = (v: number) => (Number.isFinite(v) ? v / 1e6 : 0);
  return {
    mode: scenario.mode,
    clients: scenario.groupOf.length,
    subscribed: senders.length,
    groups: scenario.groups.length,
    offeredRate: schedule.stages?.length ? askedRate : schedule.ratePerSecond,
    durationSeconds: plannedSeconds,
    rampSeconds: schedule.stages?.length ? 0 : schedule.rampSeconds,
    ...(schedule.stages?.length ? { stages: schedule.stages } : {}),
    interrupted,
    counts,
    ignoredDeliveries: foreign,
    latency: ledger.latency.fullSummary(),
    lateLatency: ledger.lateLatency.fullSummary(),
    throughput: {
      sendsPerSecond: counts.sent / sendSeconds,
      deliveriesPerSecond: counts.delivered / deliverSeconds,
    },
    generator: {
      offered: total,
      askedRate,
      achievedRate,
      sendingSeconds,
      sendsPerSecond: perSecond,
      maxBacklog,
      fellBehind,
      cpuPercent: ((cpu.user + cpu.system) / Math.max(sendEndUs - startUs, 1)) * 100,
      eventLoopLagMs: { p50: ns(loopDelay.percentile(50)), p99: ns(loopDelay.percentile(99)), max: ns(loopDelay.max) },
    },
    connectionErrors,
    connectionErrorsDuringRun: connectionErrors - errorsBeforeRun,
    errorSamples: [...swarm.errorSamples],
    reconnects: { beforeConnected: swarm.reconnectsBeforeConnected, samples: [...swarm.reconnectSamples] },
    ...(options.sendReads || reads.eventsReceived > 0 ? { reads } : {}),
    ...(loss ? { loss } : {}),
    ok:
      counts.lost === 0 &&
      counts.duplicated === 0 &&
      counts.outOfOrder === 0 &&
      counts.unexpected === 0 &&
      counts.rejected === 0 &&
      connectionErrors === 0 &&
      counts.sent > 0 &&
      !fellBehind &&
      !interrupted,
  };
}
