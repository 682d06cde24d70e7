// `harness merge a.json b.json …` and --workers: several load runs as one. Counts add up (each
// run accounts for its own rooms, so nothing is counted twice), latency histograms are merged
// value by value (percentiles are never averaged), the generator figures add up per second.
import type { DeliveryCounts } from './accounting';
import { LatencyHistogram, type LatencySummary } from './latency';
import type { LoadReport } from './report';

function mergeLatency(parts: LatencySummary[]): LatencySummary {
  const missing = parts.filter((p) => !p.hdr && p.count > 0).length;
  if (missing > 0) throw new Error(`${missing} of the reports carry no latency histogram (latency.hdr): made by an older harness?`);
  const merged = new LatencyHistogram();
  for (const p of parts) merged.add(LatencyHistogram.decode(p));
  // A decoded histogram knows its maximum to HDR's precision only; each run knew its own exactly.
  return { ...merged.fullSummary(), maxMs: Math.max(0, ...parts.map((p) => p.maxMs)) };
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

function addPerSecond(series: number[][]): number[] {
  const out = new Array<number>(Math.max(0, ...series.map((s) => s.length))).fill(0);
  for (const s of series) s.forEach((n, i) => (out[i] += n));
  return out;
}

/** The reports of runs at the same time (several machines, or --workers) as one report. */
export function mergeReports(reports: LoadReport[]): LoadReport {
  if (reports.length === 0) throw new Error('nothing to merge');
  const modes = new Set(reports.map((r) => r.mode));
  if (modes.size > 1) throw new Error(`cannot merge chat and broker runs (${[...modes].join(', ')})`);
  const keys = Object.keys(reports[0].counts) as (keyof DeliveryCounts)[];
  const counts = Object.fromEntries(keys.map((k) => [k, sum(reports.map((r) => r.counts[k] ?? 0))])) as unknown as DeliveryCounts;
  const g = reports.map((r) => r.generator);
  const losses = reports.flatMap((r) => (r.loss ? [r.loss] : []));
  const interrupted = reports.find((r) => r.interrupted);
  const reads = reports.flatMap((r) => (r.reads ? [r.reads] : []));
  const { thresholds: _t, checks: _c, exitCode: _e, ...first } = reports[0];
  return {
    ...first,
    clients: sum(reports.map((r) => r.clients)),
    subscribed: sum(reports.map((r) => r.subscribed)),
    groups: sum(reports.map((r) => r.groups)),
    offeredRate: sum(reports.map((r) => r.offeredRate)),
    durationSeconds: Math.max(...reports.map((r) => r.durationSeconds)),
    interrupted: interrupted !== undefined,
    ...(interrupted?.signal ? { signal: interrupted.signal } : {}),
    counts,
    ignoredDeliveries: sum(reports.map((r) => r.ignoredDeliveries)),
    latency: mergeLatency(reports.map((r) => r.latency)),
    lateLatency: mergeLatency(reports.map((r) => r.lateLatency)),
    throughput: {
      sendsPerSecond: sum(reports.map((r) => r.throughput.sendsPerSecond)),
      deliveriesPerSecond: sum(reports.map((r) => r.throughput.deliveriesPerSecond)),
    },
    generator: {
      offered: sum(g.map((x) => x.offered)),
      askedRate: sum(g.map((x) => x.askedRate)),
      achievedRate: sum(g.map((x) => x.achievedRate)),
      sendingSeconds: Math.max(...g.map((x) => x.sendingSeconds)),
      sendsPerSecond: addPerSecond(g.map((x) => x.sendsPerSecond)),
      maxBacklog: sum(g.map((x) => x.maxBacklog)),
      fellBehind: g.some((x) => x.fellBehind),
      // Several processes: their CPU adds up (200 % is two cores busy).
      cpuPercent: sum(g.map((x) => x.cpuPercent)),
      eventLoopLagMs: {
        p50: Math.max(...g.map((x) => x.eventLoopLagMs.p50)),
        p99: Math.max(...g.map((x) => x.eventLoopLagMs.p99)),
        max: Math.max(...g.map((x) => x.eventLoopLagMs.max)),
      },
    },
    connectionErrors: sum(reports.map((r) => r.connectionErrors)),
    connectionErrorsDuringRun: sum(reports.map((r) => r.connectionErrorsDuringRun)),
    errorSamples: reports.flatMap((r) => r.errorSamples).slice(0, 5),
    reconnects: {
      beforeConnected: sum(reports.map((r) => r.reconnects.beforeConnected)),
      samples: reports.flatMap((r) => r.reconnects.samples).slice(0, 5),
    },
    ...(reads.length ? { reads: { sent: sum(reads.map((x) => x.sent)), eventsReceived: sum(reads.map((x) => x.eventsReceived)) } } : {}),
    ...(losses.length
      ? {
          loss: {
            messagesNobodyGot: sum(losses.map((l) => l.messagesNobodyGot)),
            unacknowledgedMissing: sum(losses.map((l) => l.unacknowledgedMissing)),
            receiversMissing: sum(losses.map((l) => l.receiversMissing)),
            // Client numbers are each run's own: the worst of all runs, as each run named them.
            worst: losses.flatMap((l) => l.worst).sort((a, b) => b.missing - a.missing).slice(0, 5),
            late: counts.late,
          },
        }
      : {}),
    ok: reports.every((r) => r.ok),
  };
}
