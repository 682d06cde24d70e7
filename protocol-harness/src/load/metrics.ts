// --metrics-port: the run's figures as Prometheus text while it runs (prom-client, its own
// registry), fed by the driver's one-a-second samples and each delivery's latency.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import client from 'prom-client';
import type { RunSample } from './samples';

/** Send → deliver latency buckets, seconds: sub-millisecond on loopback up to a stalled drain. */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

type Total = 'sent' | 'acknowledged' | 'delivered' | 'late' | 'duplicated' | 'outOfOrder';

/** Counts per latency bucket (not cumulative; the last is above every bound), their sum and count. */
export interface BucketCounts {
  counts: number[];
  sumSeconds: number;
  count: number;
}

/**
 * The Prometheus latency histogram counted where the deliveries are (one process, or each
 * --workers process, whose counts the parent adds up exactly).
 */
export class LatencyBuckets implements BucketCounts {
  readonly counts = new Array<number>(LATENCY_BUCKETS.length + 1).fill(0);
  sumSeconds = 0;
  count = 0;

  record(us: number): void {
    const seconds = us / 1e6;
    let i = 0;
    while (i < LATENCY_BUCKETS.length && seconds > LATENCY_BUCKETS[i]) i++;
    this.counts[i]++;
    this.sumSeconds += seconds;
    this.count++;
  }

  snapshot(): BucketCounts {
    return { counts: [...this.counts], sumSeconds: this.sumSeconds, count: this.count };
  }
}

const HISTOGRAM_NAME = 'harness_latency_seconds';

/** A histogram metric for the registry built from bucket counts rather than from observe(). */
function bucketHistogram(parts: () => BucketCounts[]): client.Metric {
  const help = 'send → deliver latency of first deliveries';
  const metric = {
    name: HISTOGRAM_NAME,
    help,
    type: 'histogram',
    aggregator: 'sum',
    reset() {},
    get() {
      const all = parts();
      const counts = new Array<number>(LATENCY_BUCKETS.length + 1).fill(0);
      for (const p of all) p.counts.forEach((n, i) => (counts[i] += n));
      let cumulative = 0;
      const values = LATENCY_BUCKETS.map((le, i) => ({ metricName: `${HISTOGRAM_NAME}_bucket`, labels: { le }, value: (cumulative += counts[i]) }));
      const count = all.reduce((n, p) => n + p.count, 0);
      values.push({ metricName: `${HISTOGRAM_NAME}_bucket`, labels: { le: '+Inf' } as unknown as { le: number }, value: count });
      return Promise.resolve({
        name: HISTOGRAM_NAME,
        help,
        type: 'histogram',
        aggregator: 'sum',
        values: [...values, { metricName: `${HISTOGRAM_NAME}_sum`, labels: {}, value: all.reduce((n, p) => n + p.sumSeconds, 0) }, { metricName: `${HISTOGRAM_NAME}_count`, labels: {}, value: count }],
      });
    },
  };
  // The registry needs only name, help, type and get(); prom-client's Metric class adds nothing used here.
  return metric as unknown as client.Metric;
}

export class MetricsServer {
  readonly registry = new client.Registry();
  private readonly totals: Record<Total, client.Counter>;
  private readonly last: Record<Total, number> = { sent: 0, acknowledged: 0, delivered: 0, late: 0, duplicated: 0, outOfOrder: 0 };
  private readonly missing: client.Gauge;
  private readonly offered: client.Gauge;
  private readonly cpu: client.Gauge;
  private readonly lag: client.Gauge;
  /** This process's deliveries, or each worker's latest counts (by worker). */
  private readonly local = new LatencyBuckets();
  private readonly workerBuckets = new Map<number, BucketCounts>();
  private server: http.Server | null = null;

  constructor() {
    const registers = [this.registry];
    const counter = (name: string, help: string) => new client.Counter({ name, help, registers });
    this.totals = {
      sent: counter('harness_sent_total', 'SENDs made by the generator'),
      acknowledged: counter('harness_acknowledged_total', 'SENDs acknowledged by a RECEIPT'),
      delivered: counter('harness_delivered_total', 'first deliveries to room or topic members, late ones included'),
      late: counter('harness_late_total', 'first deliveries after the drain'),
      duplicated: counter('harness_duplicated_total', 'second deliveries of a message to the same member'),
      outOfOrder: counter('harness_out_of_order_total', "deliveries behind a later message of the same sender"),
    };
    this.missing = new client.Gauge({ name: 'harness_missing', help: 'expected deliveries not received yet (lost once the grace is over)', registers });
    this.offered = new client.Gauge({ name: 'harness_offered', help: 'messages the schedule offered so far', registers });
    this.cpu = new client.Gauge({ name: 'harness_generator_cpu_ratio', help: "the harness's CPU over the last second, in cores", registers });
    this.lag = new client.Gauge({ name: 'harness_event_loop_lag_seconds', help: "the harness's event-loop delay p99 over the last second", registers });
    this.registry.registerMetric(bucketHistogram(() => [this.local, ...this.workerBuckets.values()]));
  }

  /** Listens on `port` (0: any free one); returns the port. */
  async listen(port: number, host: string): Promise<number> {
    const server = http.createServer((req, res) => {
      if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
        res.writeHead(404).end('only GET /metrics\n');
        return;
      }
      this.registry.metrics().then(
        (text) => res.writeHead(200, { 'content-type': this.registry.contentType }).end(text),
        (err: unknown) => res.writeHead(500).end(String(err)),
      );
    });
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    });
    return (server.address() as AddressInfo).port;
  }

  sample(s: RunSample): void {
    for (const key of Object.keys(this.last) as Total[]) {
      const delta = s[key] - this.last[key];
      if (delta > 0) this.totals[key].inc(delta);
      this.last[key] = s[key];
    }
    this.missing.set(s.missing);
    this.offered.set(s.offered);
    this.cpu.set(s.generatorCpuPercent / 100);
    this.lag.set(s.eventLoopLagP99Ms / 1000);
  }

  latencyUs(us: number): void {
    this.local.record(us);
  }

  /** A --workers process's latency counts so far (cumulative: the latest replaces the last). */
  workerLatency(worker: number, counts: BucketCounts): void {
    this.workerBuckets.set(worker, counts);
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
