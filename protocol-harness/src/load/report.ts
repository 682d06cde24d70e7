// The final report of a load run: its shape (also the --json output), the verdict, and the
// table printed on a terminal.
import type { DeliveryCounts, LossDetail } from './accounting';
import type { LatencySummary } from './latency';

export interface LoadReport {
  mode: 'chat' | 'broker';
  clients: number;
  /** Clients whose session opened and whose subscription was confirmed (they send and receive). */
  subscribed: number;
  /** Rooms (chat) or topics (broker) actually used. */
  groups: number;
  offeredRate: number;
  durationSeconds: number;
  rampSeconds: number;
  interrupted: boolean;
  counts: DeliveryCounts;
  /** Deliveries not sent by this run (system messages, other users): not accounted. */
  ignoredDeliveries: number;
  latency: LatencySummary;
  throughput: { sendsPerSecond: number; deliveriesPerSecond: number };
  /** Since the sessions were opened (logins and handshakes included). */
  connectionErrors: number;
  /** Of those, the ones during this run's sending and draining. */
  connectionErrorsDuringRun: number;
  errorSamples: string[];
  /**
   * Sockets that closed under the handshake, before CONNECTED, and were opened again as the
   * browser client does (the session then connected, or counts in connectionErrors). Nothing is
   * sent before CONNECTED, so a reconnect loses nothing; it is reported, never hidden.
   */
  reconnects: { beforeConnected: number; samples: string[] };
  /**
   * Present when something was lost: who misses what (each worst receiver with whether its
   * session is still open), and how many of the lost deliveries arrived after all, later than
   * the drain (late, not lost: a late arrival is in `late`, still counted in `lost`).
   */
  loss?: Omit<LossDetail, 'worst'> & { worst: Array<{ client: number; missing: number; open: boolean }>; late: number };
  /** /app/read frames sent by the receivers, and read events delivered on the room-events topics. */
  reads?: { sent: number; eventsReceived: number };
  /** Nothing lost, duplicated, reordered, misdelivered or refused, and no connection failed. */
  ok: boolean;
}

/** Exit status of `harness load`: 1 on any loss, duplicate, reorder or other failure. */
export function exitCode(report: LoadReport): number {
  return report.ok ? 0 : 1;
}

const int = (n: number) => Math.round(n).toLocaleString('en-US');
const ms = (n: number) => `${n.toFixed(2)} ms`;

export function formatReport(r: LoadReport): string {
  const c = r.counts;
  const rows: [string, string][] = [
    ['mode', `${r.mode}: ${r.subscribed}/${r.clients} clients in ${r.groups} ${r.mode === 'chat' ? 'rooms' : 'topics'}`],
    ['offered', `${int(r.offeredRate)} msg/s for ${r.durationSeconds} s${r.rampSeconds > 0 ? ` (ramp ${r.rampSeconds} s)` : ''}${r.interrupted ? ', interrupted' : ''}`],
    ['sent', int(c.sent)],
    ['acknowledged', `${int(c.acknowledged)}${c.rejected ? ` (refused ${int(c.rejected)})` : ''}`],
    ['expected deliveries', int(c.expectedDeliveries)],
    ['delivered', int(c.delivered)],
    ['lost', int(c.lost)],
    ['duplicated', int(c.duplicated)],
    ['out of order', int(c.outOfOrder)],
    ['misdelivered', int(c.unexpected)],
    ['latency p50', ms(r.latency.p50Ms)],
    ['latency p90', ms(r.latency.p90Ms)],
    ['latency p99', ms(r.latency.p99Ms)],
    ['latency max', ms(r.latency.maxMs)],
    ['achieved send rate', `${int(r.throughput.sendsPerSecond)} msg/s`],
    ['delivery rate', `${int(r.throughput.deliveriesPerSecond)} deliveries/s`],
    ['connection errors', int(r.connectionErrors)],
    ['reconnects before CONNECTED', int(r.reconnects.beforeConnected)],
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  const lines = rows.map(([k, v]) => `  ${k.padEnd(width)}  ${v}`);
  for (const e of r.errorSamples) lines.push(`  ! ${e}`);
  for (const e of r.reconnects.samples) lines.push(`  ~ reconnected: ${e}`);
  if (r.loss) {
    const l = r.loss;
    lines.push(`  ! loss: ${l.receiversMissing} receivers miss deliveries; ${l.messagesNobodyGot} messages reached nobody; ${l.unacknowledgedMissing} unacknowledged; ${l.late} arrived after the drain`);
    lines.push(`  ! most missing: ${l.worst.map((w) => `client ${w.client} ${w.missing}${w.open ? '' : ' (closed)'}`).join(', ')}`);
  }
  lines.push(r.ok ? '  result: OK' : '  result: FAILED');
  return lines.join('\n');
}
