// `harness call --html FILE`: the call's report as one page: the verdict, each expectation, the
// set-up timings, what each side heard and saw, and, when the report carries call quality
// (caller/quality.ts), each side's RTT, jitter, loss, bitrate and MOS over the call as charts and
// their summaries as a table (shared/html/page.ts makes it self-contained).
import { facts, formatNumber, note, passFail, renderPage, table, type ChartSpec, type Section, type Verdict } from '../shared/html/page';
import type { CallQuality, QualitySample, SideQuality, Stat } from './quality';
import type { CallRunReport } from './report';
import type { Timings } from './scenarios';

/** The run's report; quality is there when the sides sampled getStats() (caller/quality.ts). */
export type CallHtmlReport = CallRunReport & { quality?: CallQuality };

type Side = 'caller' | 'callee';
const SIDES: Side[] = ['caller', 'callee'];

/** The set-up and scenario timings, in the order a call goes through them. */
const TIMINGS: Array<[keyof Timings, string]> = [
  ['initiateToIncomingMs', 'initiate → incoming'],
  ['initiateToRingingMs', 'initiate → ringing'],
  ['acceptToAcceptedMs', 'accept → accepted'],
  ['acceptToConnectedMs', 'accept → connected'],
  ['initiateToConnectedMs', 'initiate → connected (both sides)'],
  ['firstAudioFrameMs', 'accept → first audio with sound'],
  ['initiateToFirstSoundMs', 'initiate → first sound (the later side)'],
  ['firstVideoFrameMs', 'accept → first decoded video frame'],
  ['initiateToFirstFrameMs', 'initiate → first video frame (the later side)'],
  ['ringTimeoutMs', 'initiate → timeout hangup'],
  ['dropToConnectionLostMs', 'drop → connection-lost hangup'],
  ['reconnectToResumeMs', 'reconnect → resume'],
  ['reconnectToConnectedMs', 'reconnect → connected'],
  ['reconnectToSoundMs', 'reconnect → sound again'],
  ['renegotiationMs', 'offer → answer'],
  ['upgradeToFirstFrameMs', 'camera on → first frame seen'],
];

const ms = (v: number | null | undefined) => (v === null || v === undefined ? 'n/a' : `${formatNumber(v)} ms`);

function verdictOf(r: CallHtmlReport): Verdict {
  const details = [`exit status ${r.exitCode}`];
  if (r.reason) details.push(r.reason);
  if (r.interrupted) return { tone: 'warn', headline: `INTERRUPTED (${r.signal ?? 'signal'})`, details };
  if (r.ok) return { tone: 'pass', headline: 'PASSED', details };
  return { tone: 'fail', headline: r.failure === 'infrastructure' ? 'COULD NOT RUN (infrastructure)' : 'FAILED', details };
}

function expectations(r: CallHtmlReport): Section {
  const rows = r.checks.map((c) => [passFail(true), c]);
  if (r.reason) rows.push([passFail(false), r.reason]);
  return { title: 'Expectations', body: rows.length ? table(['result', 'expectation'], rows) : note('No expectation was reached.') };
}

function setup(r: CallHtmlReport): Section {
  const rows: string[][] = [];
  for (const [key, label] of TIMINGS) {
    const v = r.timings[key];
    if (v === undefined) continue;
    rows.push(typeof v === 'number' ? [label, ms(v)] : [label, `caller ${ms(v.caller)}, callee ${ms(v.callee)}`]);
  }
  const parts = [rows.length ? table(['step', 'time'], rows, 'Set-up and scenario timings') : note('No timing was measured.')];
  const sides: Array<[string, string]> = [];
  for (const side of SIDES) {
    const a = r.audio?.[side];
    if (a) sides.push([`${side} audio`, `${a.heard ? 'heard' : 'did NOT hear'} the ${a.expectedHz} Hz tone, measured ${a.frequencyHz === null ? 'no sound' : `${a.frequencyHz} Hz (tone share ${a.toneShare})`}, ${a.soundFrames}/${a.frames} frames with sound`]);
    const v = r.video?.[side];
    if (v) sides.push([`${side} video`, `${v.seen ? 'saw' : 'did NOT see'} the other side's picture, ${v.width === null ? 'no frames' : `${v.width}×${v.height} at ${v.fps ?? 'n/a'} fps`}, ${v.framesDecoded}/${v.framesReceived} frames read back (${v.distinctCounters} distinct)`]);
  }
  const path = (p: { local: string; remote: string } | null | undefined) => (p ? `${p.local} → ${p.remote}` : 'unknown');
  if (r.paths) sides.push(['media path', `caller ${path(r.paths.caller)}, callee ${path(r.paths.callee)}`]);
  sides.push(['ended', `caller's last reason ${r.lastReason.caller ?? 'none'}, callee's ${r.lastReason.callee ?? 'none'}`]);
  for (const why of r.reconnects) sides.push(['reconnected before CONNECTED', why]);
  parts.push(facts(sides));
  return { title: 'Set-up and checks', body: parts.join('') };
}

const MEASURES: Array<{ key: keyof Omit<SideQuality['summary'], 'samples'>; label: string; unit: string }> = [
  { key: 'mos', label: 'MOS (E-model estimate)', unit: '1–4.5' },
  { key: 'rttMs', label: 'round-trip time', unit: 'ms' },
  { key: 'jitterMs', label: 'jitter', unit: 'ms' },
  { key: 'lossPct', label: 'inbound packet loss', unit: '%' },
  { key: 'bitrateKbps', label: 'inbound bitrate', unit: 'kbit/s' },
];

function qualityTable(q: CallQuality): string {
  const stat = (s: Stat | null | undefined) => (s ? [s.min, s.p50, s.p95, s.max, s.mean].map((n) => formatNumber(Number(n.toFixed(2)))) : ['n/a', 'n/a', 'n/a', 'n/a', 'n/a']);
  const rows: string[][] = [];
  for (const side of SIDES) {
    for (const m of MEASURES) rows.push([side, `${m.label} (${m.unit})`, ...stat(q[side].summary[m.key])]);
  }
  return table(['side', 'measure', 'min', 'p50', 'p95', 'max', 'mean'], rows, `Summaries (${q.caller.summary.samples} caller and ${q.callee.summary.samples} callee samples, one a second)`);
}

function qualityCharts(q: CallQuality): ChartSpec[] {
  const charts: ChartSpec[] = [];
  for (const side of SIDES) {
    const series = q[side].series;
    if (series.length === 0) continue;
    const x = series.map((s) => s.t);
    const pick = (f: (s: QualitySample) => number | null) => series.map(f);
    charts.push(
      { title: `${side}: MOS`, xLabel: 's of media', yLabel: 'MOS', x, yRange: [1, 5], series: [{ label: 'E-model estimate', values: pick((s) => s.mos) }] },
      { title: `${side}: round-trip time and jitter`, xLabel: 's of media', yLabel: 'ms', x, series: [{ label: 'RTT', values: pick((s) => s.rttMs) }, { label: 'jitter', values: pick((s) => s.jitterMs) }] },
      { title: `${side}: packet loss and concealment`, xLabel: 's of media', yLabel: '%', x, series: [{ label: 'inbound loss', values: pick((s) => s.lossPct) }, { label: 'concealed samples', values: pick((s) => s.concealedPct) }] },
      { title: `${side}: bitrate`, xLabel: 's of media', yLabel: 'kbit/s', x, series: [{ label: 'inbound', values: pick((s) => s.bitrateKbps) }, { label: 'outbound', values: pick((s) => s.outBitrateKbps) }] },
    );
  }
  return charts;
}

function quality(q: CallQuality): Section {
  const network = q.network ? facts([['network impairment', `asked ${q.network.asked}; measured inbound loss ${formatNumber(Number(q.network.measuredLossPct.toFixed(2)))} %`]]) : '';
  return { title: 'Call quality', body: network + qualityTable(q) + note('From each side\'s getStats() once a second; loss, bitrate and concealment are per interval.') };
}

export function callHtml(r: CallHtmlReport, commandLine: string, generatedAt = new Date()): string {
  const sections = [expectations(r), setup(r)];
  if (r.quality) sections.push(quality(r.quality));
  const charts = r.quality ? qualityCharts(r.quality) : [];
  return renderPage({
    title: `harness call ${r.scenario}`,
    verdict: verdictOf(r),
    commandLine,
    generatedAt,
    summary: [
      ['scenario', `${r.scenario}${r.relayOnly ? ' (relay only)' : ''}`],
      ['set-up', `initiate → connected ${ms(r.timings.initiateToConnectedMs)}`],
      ...(r.quality ? [['quality', `MOS p50 caller ${r.quality.caller.summary.mos?.p50.toFixed(2) ?? 'n/a'}, callee ${r.quality.callee.summary.mos?.p50.toFixed(2) ?? 'n/a'}`] as [string, string]] : []),
    ],
    sections,
    charts: charts.length ? [{ section: 'Call quality', charts }] : [],
  });
}
