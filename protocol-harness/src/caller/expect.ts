// --expect 'mos>=4', 'loss<2%', 'rtt<200ms', 'jitter<30ms', 'bitrate>=20': pass/fail criteria on
// a call's quality, each one a JUnit testcase; a missed one exits 1. Each reads the mean over the
// call of the WORSE side (lower MOS or bitrate, higher loss, RTT or jitter): a call is as good as
// its worse direction.
import type { CallQuality, QualitySummary, Stat } from './quality';

interface Metric {
  unit: '%' | 'ms' | 'kbps' | '';
  describe: string;
  /** Which side is worse for this measure. */
  worse: 'lower' | 'higher';
  read(s: QualitySummary): Stat | null;
}

const METRICS: Record<string, Metric> = {
  mos: { unit: '', describe: 'MOS (E-model estimate)', worse: 'lower', read: (s) => s.mos },
  loss: { unit: '%', describe: 'audio packet loss', worse: 'higher', read: (s) => s.lossPct },
  rtt: { unit: 'ms', describe: 'round-trip time', worse: 'higher', read: (s) => s.rttMs },
  jitter: { unit: 'ms', describe: 'audio jitter', worse: 'higher', read: (s) => s.jitterMs },
  bitrate: { unit: 'kbps', describe: 'inbound bitrate', worse: 'lower', read: (s) => s.bitrateKbps },
};

export const EXPECT_METRICS = Object.keys(METRICS);

const OPERATORS = {
  '<': (a: number, b: number) => a < b,
  '<=': (a: number, b: number) => a <= b,
  '>': (a: number, b: number) => a > b,
  '>=': (a: number, b: number) => a >= b,
} as const;
type Operator = keyof typeof OPERATORS;

export interface QualityExpectation {
  /** As the user wrote it. */
  expression: string;
  metric: string;
  operator: Operator;
  limit: number;
}

export interface ExpectationResult {
  expression: string;
  /** The worse side's mean; null when that side has no sample of it. */
  actual: number | null;
  side: 'caller' | 'callee' | null;
  ok: boolean;
  /** "mos>=4: MOS (E-model estimate) was 3.12 (callee)" */
  description: string;
}

/** Parses one --expect; throws with what is wrong and what is allowed. */
export function parseExpectation(text: string): QualityExpectation {
  const m = /^\s*([A-Za-z][A-Za-z0-9]*)\s*(<=|>=|<|>)\s*(\d+(?:\.\d+)?)\s*(%|ms|s|kbps)?\s*$/.exec(text);
  if (!m) throw new Error(`expect "${text}": expected MEASURE OP VALUE, e.g. 'mos>=4', 'loss<2%', 'rtt<200ms'`);
  const [, metric, operator, number, suffix] = m;
  const def = METRICS[metric];
  if (!def) throw new Error(`expect "${text}": unknown measure ${metric} (one of ${EXPECT_METRICS.join(', ')})`);
  let limit = Number(number);
  if (def.unit === 'ms') {
    if (suffix !== undefined && suffix !== 'ms' && suffix !== 's') throw new Error(`expect "${text}": ${metric} is a time (ms or s)`);
    if (suffix === 's') limit *= 1000;
  } else if (suffix !== undefined && suffix !== def.unit) {
    throw new Error(`expect "${text}": ${metric} takes ${def.unit === '' ? 'a plain number' : def.unit}`);
  }
  return { expression: text.trim(), metric, operator: operator as Operator, limit };
}

export function evaluateExpectations(expectations: readonly QualityExpectation[], quality: CallQuality | undefined): ExpectationResult[] {
  return expectations.map((e) => {
    const def = METRICS[e.metric];
    const sides = (['caller', 'callee'] as const).map((side) => ({ side, mean: quality ? (def.read(quality[side].summary)?.mean ?? null) : null }));
    // A side without the measure fails the expectation: nothing measured proves nothing.
    const missing = sides.find((s) => s.mean === null);
    const worst = missing ?? sides.reduce((a, b) => ((def.worse === 'lower' ? b.mean! < a.mean! : b.mean! > a.mean!) ? b : a));
    const actual = worst.mean;
    const ok = actual !== null && OPERATORS[e.operator](actual, e.limit);
    const value = actual === null ? 'not measured' : `${actual}${def.unit === '' ? '' : def.unit === '%' ? ' %' : ` ${def.unit}`}`;
    return { expression: e.expression, actual, side: worst.side, ok, description: `${e.expression}: ${def.describe} was ${value} (${worst.side}, mean over the call)` };
  });
}
