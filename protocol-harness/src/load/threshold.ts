// --threshold 'p99<50ms', 'lost==0', 'rate>=0.99': pass/fail criteria on the final report, each
// one a JUnit testcase; a missed one exits 1 (docs/operations.md, "Protocol harness").
import type { DeliveryCounts } from './accounting';
import type { LatencySummary } from './latency';

/** The parts of a load report (report.ts) thresholds read. */
export interface ThresholdSubject {
  latency: LatencySummary;
  counts: DeliveryCounts;
  connectionErrors: number;
  generator: { achievedRate: number };
  throughput: { deliveriesPerSecond: number };
}

type Unit = 'ms' | 'count' | 'ratio' | 'perSecond';

interface Metric {
  unit: Unit;
  describe: string;
  read(r: ThresholdSubject): number;
}

const METRICS: Record<string, Metric> = {
  p50: { unit: 'ms', describe: 'latency p50', read: (r) => r.latency.p50Ms },
  p90: { unit: 'ms', describe: 'latency p90', read: (r) => r.latency.p90Ms },
  p95: { unit: 'ms', describe: 'latency p95', read: (r) => r.latency.p95Ms },
  p99: { unit: 'ms', describe: 'latency p99', read: (r) => r.latency.p99Ms },
  max: { unit: 'ms', describe: 'latency max', read: (r) => r.latency.maxMs },
  lost: { unit: 'count', describe: 'deliveries lost', read: (r) => r.counts.lost },
  late: { unit: 'count', describe: 'deliveries late (after the drain)', read: (r) => r.counts.late },
  duplicated: { unit: 'count', describe: 'duplicate deliveries', read: (r) => r.counts.duplicated },
  outOfOrder: { unit: 'count', describe: 'deliveries out of order', read: (r) => r.counts.outOfOrder },
  misdelivered: { unit: 'count', describe: 'misdelivered', read: (r) => r.counts.unexpected },
  rejected: { unit: 'count', describe: 'SENDs refused', read: (r) => r.counts.rejected },
  connectionErrors: { unit: 'count', describe: 'connection errors', read: (r) => r.connectionErrors },
  rate: {
    unit: 'ratio',
    describe: 'share of expected deliveries delivered',
    read: (r) => (r.counts.expectedDeliveries === 0 ? 0 : r.counts.delivered / r.counts.expectedDeliveries),
  },
  sendRate: { unit: 'perSecond', describe: 'achieved send rate (msg/s)', read: (r) => r.generator.achievedRate },
  deliveryRate: { unit: 'perSecond', describe: 'deliveries per second', read: (r) => r.throughput.deliveriesPerSecond },
};

export const THRESHOLD_METRICS = Object.keys(METRICS);

const OPERATORS = {
  '<': (a: number, b: number) => a < b,
  '<=': (a: number, b: number) => a <= b,
  '>': (a: number, b: number) => a > b,
  '>=': (a: number, b: number) => a >= b,
  '==': (a: number, b: number) => a === b,
  '!=': (a: number, b: number) => a !== b,
} as const;
type Operator = keyof typeof OPERATORS;

export interface Threshold {
  /** As the user wrote it. */
  expression: string;
  metric: string;
  operator: Operator;
  /** In the metric's unit (ms, a count, a ratio 0…1, per second). */
  limit: number;
}

export interface ThresholdResult {
  expression: string;
  metric: string;
  actual: number;
  ok: boolean;
}

/** Parses one --threshold; throws with what is wrong and what is allowed. */
export function parseThreshold(text: string): Threshold {
  const m = /^\s*([A-Za-z][A-Za-z0-9]*)\s*(<=|>=|==|!=|<|>)\s*(-?\d+(?:\.\d+)?)\s*(ms|s|%)?\s*$/.exec(text);
  if (!m) throw new Error(`threshold "${text}": expected METRIC OP VALUE, e.g. 'p99<50ms', 'lost==0', 'rate>=0.99'`);
  const [, metric, operator, number, suffix] = m;
  const def = METRICS[metric];
  if (!def) throw new Error(`threshold "${text}": unknown metric ${metric} (one of ${THRESHOLD_METRICS.join(', ')})`);
  let limit = Number(number);
  if (def.unit === 'ms') {
    if (suffix === '%') throw new Error(`threshold "${text}": ${metric} is a time (ms or s)`);
    if (suffix === 's') limit *= 1000;
  } else if (def.unit === 'ratio') {
    if (suffix === 'ms' || suffix === 's') throw new Error(`threshold "${text}": ${metric} is a ratio (0.99 or 99%)`);
    if (suffix === '%') limit /= 100;
  } else if (suffix) {
    throw new Error(`threshold "${text}": ${metric} takes a plain number`);
  }
  return { expression: text.trim(), metric, operator: operator as Operator, limit };
}

export function evaluateThresholds(thresholds: readonly Threshold[], report: ThresholdSubject): ThresholdResult[] {
  return thresholds.map((t) => {
    const actual = METRICS[t.metric].read(report);
    return { expression: t.expression, metric: t.metric, actual, ok: OPERATORS[t.operator](actual, t.limit) };
  });
}

/** "p99<50ms: latency p99 was 61.2 ms" */
export function describeResult(r: ThresholdResult): string {
  const def = METRICS[r.metric];
  const value =
    def.unit === 'ms' ? `${r.actual.toFixed(2)} ms` : def.unit === 'ratio' ? `${(r.actual * 100).toFixed(3)} %` : def.unit === 'perSecond' ? r.actual.toFixed(1) : String(r.actual);
  return `${r.expression}: ${def.describe} was ${value}`;
}
