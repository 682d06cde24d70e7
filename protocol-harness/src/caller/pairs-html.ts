// `harness call --pairs N --html FILE`: the combined report as one page: the verdict, pass/fail per
// scenario and per pair, set-up p50/p95, memory over the run, and the quality pooled over the
// pairs. It reads the combined report by its shape (caller/pairs-report.ts's PairsReport fits
// PairsHtmlReport), so the page does not depend on how the pairs are run.
import { facts, formatNumber, note, passFail, renderPage, table, type ChartSpec, type Section, type Verdict } from '../shared/html/page';
import type { CallQuality, Stat } from './quality';

export interface PairsHtmlReport {
  ok: boolean;
  asked: { pairs: number; scenarios: string[]; arrivalRate: number | null; relayOnly: boolean; holdSeconds: number };
  started: number;
  passed: number;
  failed: number;
  byScenario: Record<string, { passed: number; failed: number }>;
  setupMs: { count: number; p50: number | null; p95: number | null; max: number | null };
  quality: ({ samples: number; pairs: number } & Record<'rttMs' | 'jitterMs' | 'lossPct' | 'bitrateKbps' | 'mos', Stat | null>) | null;
  memory: { peakRssMB: number; baselineRssMB: number; perPairMB: number; series: Array<{ t: number; rssMB: number; heapUsedMB: number; externalMB: number }> };
  durationSeconds: number;
  pairs: Array<{
    pair: number;
    scenario: string;
    ok: boolean;
    setupMs: number | null;
    reason: string | null;
    failure: 'expectation' | 'infrastructure' | null;
    users: { caller: string; callee: string; third?: string };
    startedAtS: number;
    seconds: number | null;
    quality?: unknown;
  }>;
  error: string | null;
  interrupted: boolean;
  signal?: string;
  failure: 'expectation' | 'infrastructure' | null;
  exitCode: number;
}

const ms = (v: number | null) => (v === null ? 'n/a' : `${formatNumber(v)} ms`);
const two = (v: number) => formatNumber(Number(v.toFixed(2)));

function verdictOf(r: PairsHtmlReport): Verdict {
  const details = [`exit status ${r.exitCode}`, `${r.passed} of ${r.asked.pairs} pairs passed${r.started < r.asked.pairs ? ` (${r.started} started)` : ''}`];
  if (r.error) details.push(r.error);
  for (const p of r.pairs.filter((x) => !x.ok).slice(0, 5)) details.push(`pair ${p.pair} (${p.scenario}): ${p.reason ?? 'failed'}`);
  if (r.failed > 5) details.push(`… and ${r.failed - 5} more failed pairs (see the table)`);
  if (r.interrupted) return { tone: 'warn', headline: `INTERRUPTED (${r.signal ?? 'signal'})`, details };
  if (r.ok) return { tone: 'pass', headline: 'PASSED', details };
  return { tone: 'fail', headline: r.failure === 'infrastructure' ? 'COULD NOT RUN (infrastructure)' : 'FAILED', details };
}

/** A pair's MOS p50 per side, when its quality has the contract's summaries (caller/quality.ts). */
function mosOf(quality: unknown): string {
  const q = quality as Partial<CallQuality> | undefined;
  const side = (s: CallQuality['caller'] | undefined) => {
    const p50 = s?.summary?.mos?.p50;
    return typeof p50 === 'number' ? two(p50) : 'n/a';
  };
  return q && typeof q === 'object' && (q.caller || q.callee) ? `${side(q.caller)} / ${side(q.callee)}` : '';
}

function overview(r: PairsHtmlReport): Section {
  const scenarios = table(
    ['scenario', 'passed', 'failed'],
    Object.entries(r.byScenario).map(([name, n]) => [name, n.passed, n.failed ? { text: String(n.failed), tone: 'fail' as const } : '0']),
  );
  const memory = facts([
    ['set-up (initiate → both connected)', r.setupMs.count ? `p50 ${ms(r.setupMs.p50)}, p95 ${ms(r.setupMs.p95)}, max ${ms(r.setupMs.max)} over ${r.setupMs.count} calls` : 'n/a (no call connected)'],
    ['memory', `peak RSS ${two(r.memory.peakRssMB)} MB; ${two(r.memory.baselineRssMB)} MB before the first pair; ${two(r.memory.perPairMB)} MB a pair`],
    ['duration', `${two(r.durationSeconds)} s`],
  ]);
  return { title: 'Pairs', body: scenarios + memory };
}

function qualitySection(r: PairsHtmlReport): Section | null {
  const q = r.quality;
  if (!q) return null;
  const row = (label: string, s: Stat | null) => [label, ...(s ? [s.min, s.p50, s.p95, s.max, s.mean].map(two) : ['n/a', 'n/a', 'n/a', 'n/a', 'n/a'])];
  return {
    title: 'Call quality over every pair',
    body: table(
      ['measure', 'min', 'p50', 'p95', 'max', 'mean'],
      [row('MOS (E-model estimate)', q.mos), row('round-trip time (ms)', q.rttMs), row('jitter (ms)', q.jitterMs), row('inbound packet loss (%)', q.lossPct), row('inbound bitrate (kbit/s)', q.bitrateKbps)],
      `${q.samples} one-second samples of both sides of ${q.pairs} pairs`,
    ),
  };
}

function perPair(r: PairsHtmlReport): Section {
  const rows = r.pairs.map((p) => [
    String(p.pair),
    p.scenario,
    passFail(p.ok),
    ms(p.setupMs),
    p.seconds === null ? 'still running' : `${two(p.seconds)} s`,
    mosOf(p.quality),
    `${p.users.caller} → ${p.users.callee}${p.users.third ? ` (third ${p.users.third})` : ''}`,
    p.reason ? `${p.failure === 'infrastructure' ? '(infrastructure) ' : ''}${p.reason}` : '',
  ]);
  return { title: 'Each pair', body: rows.length ? table(['pair', 'scenario', 'result', 'set-up', 'ran', 'MOS p50 caller / callee', 'users', 'why it failed'], rows) : note('No pair started.') };
}

function charts(r: PairsHtmlReport): Array<{ section: string; charts: ChartSpec[] }> {
  const out: Array<{ section: string; charts: ChartSpec[] }> = [];
  const withSetup = r.pairs.filter((p) => p.setupMs !== null);
  const pairCharts: ChartSpec[] = [];
  if (withSetup.length) pairCharts.push({ title: 'Set-up time by pair', xLabel: 'pair', yLabel: 'ms', x: withSetup.map((p) => p.pair), series: [{ label: 'initiate → both connected', values: withSetup.map((p) => p.setupMs) }] });
  const m = r.memory.series;
  if (m.length)
    pairCharts.push({
      title: 'Memory of the process',
      xLabel: 's',
      yLabel: 'MB',
      x: m.map((s) => s.t),
      series: [
        { label: 'RSS', values: m.map((s) => s.rssMB) },
        { label: 'heap used', values: m.map((s) => s.heapUsedMB) },
        { label: 'external', values: m.map((s) => s.externalMB) },
      ],
    });
  if (pairCharts.length) out.push({ section: 'Pairs', charts: pairCharts });
  return out;
}

export function pairsHtml(r: PairsHtmlReport, commandLine: string, generatedAt = new Date()): string {
  const sections = [overview(r)];
  const quality = qualitySection(r);
  if (quality) sections.push(quality);
  sections.push(perPair(r));
  return renderPage({
    title: `harness call --pairs ${r.asked.pairs}`,
    verdict: verdictOf(r),
    commandLine,
    generatedAt,
    summary: [
      ['asked', `${r.asked.pairs} pairs of ${r.asked.scenarios.join(', ')}${r.asked.relayOnly ? ', relay only' : ''}${r.asked.holdSeconds ? `, held ${r.asked.holdSeconds} s` : ''}${r.asked.arrivalRate ? `, ${r.asked.arrivalRate} pairs/s` : ''}`],
      ['result', `${r.passed} passed, ${r.failed} failed, ${r.started} started`],
      ...(r.quality?.mos ? [['quality', `MOS p50 ${two(r.quality.mos.p50)}, p95 ${two(r.quality.mos.p95)} over ${r.quality.pairs} pairs`] as [string, string]] : []),
    ],
    sections,
    charts: charts(r),
  });
}
