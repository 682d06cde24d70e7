// `harness load --html FILE`: the report as one page a person reads: the verdict, the totals, the
// checks and thresholds, latency and throughput over time from the per-second samples, and a table
// per --stages stage (shared/html/page.ts makes it self-contained).
import { facts, formatNumber, note, passFail, renderPage, table, type ChartSpec, type Section, type Verdict } from '../shared/html/page';
import { behindMessage, checksOf, type LoadReport } from './report';
import type { LoadTimeline } from './timeline';

const int = (n: number) => formatNumber(Math.round(n));
const ms = (n: number) => `${n.toFixed(2)} ms`;
/** Stage bounds are often whole seconds; the end of the grace seldom is. */
const seconds1 = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1));

function verdictOf(r: LoadReport): Verdict {
  const details = [`exit status ${r.exitCode ?? 'unknown'}`];
  const behind = behindMessage(r);
  if (behind) details.push(behind);
  for (const c of r.checks ?? checksOf(r)) if (!c.ok) details.push(`${c.name}: ${c.detail}`);
  if (r.interrupted) return { tone: 'warn', headline: `INTERRUPTED (${r.signal ?? 'signal'})`, details: [...details, 'the figures below are of what ran before the signal'] };
  if (behind) return { tone: 'warn', headline: 'GENERATOR BEHIND', details: [...details, "these figures describe the harness, not the server"] };
  return r.ok ? { tone: 'pass', headline: 'PASSED', details } : { tone: 'fail', headline: 'FAILED', details };
}

function schedule(r: LoadReport): string {
  const stages = r.stages ? ` (stages ${r.stages.map((st) => `${st.seconds}s:${st.target}`).join(',')})` : '';
  return `${int(r.offeredRate)} msg/s for ${r.durationSeconds} s${stages}${r.rampSeconds > 0 ? ` (ramp ${r.rampSeconds} s)` : ''}`;
}

function totals(r: LoadReport): Section {
  const c = r.counts;
  const bad = (n: number) => (n === 0 ? int(n) : { text: int(n), tone: 'fail' as const });
  const rows = table(
    ['sent', 'acknowledged', 'refused', 'expected deliveries', 'delivered', 'late', 'lost', 'duplicated', 'out of order', 'misdelivered', 'connection errors'],
    [[int(c.sent), int(c.acknowledged), bad(c.rejected), int(c.expectedDeliveries), int(c.delivered), c.late ? { text: int(c.late), tone: 'warn' } : '0', bad(c.lost), bad(c.duplicated), bad(c.outOfOrder), bad(c.unexpected), bad(r.connectionErrors)]],
  );
  const latency = table(
    ['', 'count', 'p50', 'p90', 'p95', 'p99', 'max'],
    [
      ['every first delivery', int(r.latency.count), ms(r.latency.p50Ms), ms(r.latency.p90Ms), ms(r.latency.p95Ms), ms(r.latency.p99Ms), ms(r.latency.maxMs)],
      ...(r.counts.late ? [['late deliveries (after the drain)', int(r.lateLatency.count), ms(r.lateLatency.p50Ms), ms(r.lateLatency.p90Ms), ms(r.lateLatency.p95Ms), ms(r.lateLatency.p99Ms), ms(r.lateLatency.maxMs)]] : []),
    ],
    'send → deliver latency',
  );
  const g = r.generator;
  const generator = facts([
    ['achieved send rate', `${int(g.achievedRate)} of ${int(g.askedRate)} msg/s asked (${int(g.offered)} offered), in ${g.sendingSeconds.toFixed(1)} s`],
    ['generator', `CPU ${Math.round(g.cpuPercent)} % of a core, event-loop lag p50 ${ms(g.eventLoopLagMs.p50)}, p99 ${ms(g.eventLoopLagMs.p99)}, max ${ms(g.eventLoopLagMs.max)}, largest backlog ${int(g.maxBacklog)}`],
    ['delivery rate', `${int(r.throughput.deliveriesPerSecond)} deliveries/s`],
    ['reconnects before CONNECTED', int(r.reconnects.beforeConnected)],
    ...(r.reads ? [['read frames', `${int(r.reads.sent)} sent, ${int(r.reads.eventsReceived)} read events received`] as [string, string]] : []),
  ]);
  const problems = [
    ...r.errorSamples.map((e) => `! ${e}`),
    ...r.reconnects.samples.map((e) => `~ reconnected: ${e}`),
    ...(r.loss
      ? [
          `! loss: ${r.loss.receiversMissing} receivers miss deliveries; ${r.loss.messagesNobodyGot} messages reached nobody; ${r.loss.unacknowledgedMissing} unacknowledged`,
          `! most missing: ${r.loss.worst.map((w) => `client ${w.client} ${w.missing}${w.open ? '' : ' (closed)'}`).join(', ')}`,
        ]
      : []),
  ];
  return { title: 'Totals', body: rows + latency + generator + problems.map(note).join('') };
}

function checks(r: LoadReport): Section {
  const list = r.checks ?? checksOf(r);
  const rows = list.map((c) => [c.name.startsWith('threshold ') ? 'threshold' : 'built-in', c.name.replace(/^threshold /, ''), passFail(c.ok), c.detail]);
  return { title: 'Checks and thresholds', body: list.length ? table(['kind', 'check', 'result', 'detail'], rows) : note('No checks: the run did not start.') };
}

function stagesSection(timeline: LoadTimeline | null): Section | null {
  const stages = timeline?.stages() ?? [];
  if (stages.length === 0) return null;
  const rows = stages.map((s) => {
    const seconds = s.toSeconds - s.fromSeconds;
    const isStage = s.label.startsWith('stage ');
    return [
      s.label,
      `${seconds1(s.fromSeconds)}–${seconds1(s.toSeconds)} s`,
      isStage ? `${int(s.fromRate)} → ${int(s.toRate)}` : '',
      isStage ? int(s.offered) : '',
      int(s.sent),
      isStage && seconds > 0 ? int(s.sent / seconds) : '',
      int(s.delivered),
      int(s.latency.count),
      ms(s.latency.p50Ms),
      ms(s.latency.p90Ms),
      ms(s.latency.p99Ms),
      ms(s.latency.maxMs),
    ];
  });
  return {
    title: 'Stages',
    body:
      table(['stage', 'time', 'asked msg/s', 'offered', 'sent', 'sent msg/s', 'first deliveries', 'latencies', 'p50', 'p90', 'p99', 'max'], rows) +
      note('Sends, deliveries and latencies are counted over the whole seconds sampled within each stage; "offered" is the schedule\'s exact figure.'),
  };
}

function charts(r: LoadReport, timeline: LoadTimeline | null): ChartSpec[] {
  const samples = timeline?.samples ?? [];
  if (samples.length === 0) {
    // No per-second samples (the run stopped in set-up): the generator's own sends per second, if any.
    const perSecond = r.generator.sendsPerSecond;
    if (perSecond.length === 0) return [];
    return [{ title: 'Throughput', xLabel: 'second', yLabel: 'msg/s', x: perSecond.map((_n, i) => i + 1), series: [{ label: 'sent', values: perSecond }] }];
  }
  const x = samples.map((s) => Number(s.elapsedSeconds.toFixed(3)));
  // A second with no delivery has no latency: a gap in the line, not a zero.
  const latency = (pick: (s: (typeof samples)[number]) => number) => samples.map((s) => (s.latencyMs.count > 0 ? pick(s) : null));
  const perSecond = (n: number, i: number) => {
    const dt = samples[i].elapsedSeconds - (i > 0 ? samples[i - 1].elapsedSeconds : 0);
    return dt > 0 ? Number((n / dt).toFixed(2)) : null;
  };
  return [
    {
      title: 'Latency over time (send → deliver, each second\'s first deliveries)',
      xLabel: 'elapsed s',
      yLabel: 'ms',
      x,
      series: [
        { label: 'p50', values: latency((s) => s.latencyMs.p50) },
        { label: 'p90', values: latency((s) => s.latencyMs.p90) },
        { label: 'p99', values: latency((s) => s.latencyMs.p99) },
        { label: 'max', values: latency((s) => s.latencyMs.max) },
      ],
    },
    {
      title: 'Throughput',
      xLabel: 'elapsed s',
      yLabel: 'per s',
      x,
      series: [
        { label: 'offered msg/s', values: samples.map((s, i) => perSecond(s.offered - (i > 0 ? samples[i - 1].offered : 0), i)) },
        { label: 'sent msg/s', values: samples.map((s, i) => perSecond(s.sentInInterval, i)) },
        { label: 'deliveries/s', values: samples.map((s, i) => perSecond(s.deliveredInInterval, i)) },
      ],
    },
    {
      title: 'Accounting so far',
      xLabel: 'elapsed s',
      yLabel: 'messages',
      x,
      series: [
        { label: 'missing (in flight; lost after the grace)', values: samples.map((s) => s.missing) },
        { label: 'late', values: samples.map((s) => s.late) },
        { label: 'duplicated', values: samples.map((s) => s.duplicated) },
        { label: 'out of order', values: samples.map((s) => s.outOfOrder) },
      ],
    },
    {
      title: 'The generator',
      xLabel: 'elapsed s',
      yLabel: '% core / ms',
      x,
      series: [
        { label: 'CPU % of a core', values: samples.map((s) => Number(s.generatorCpuPercent.toFixed(1))) },
        { label: 'event-loop lag p99 ms', values: samples.map((s) => Number(s.eventLoopLagP99Ms.toFixed(2))) },
      ],
    },
  ];
}

/** The page for a finished (or interrupted) run; timeline is null when nothing was sampled. */
export function loadHtml(r: LoadReport, timeline: LoadTimeline | null, commandLine: string, generatedAt = new Date()): string {
  const overTime = charts(r, timeline);
  const sections: Section[] = [
    {
      title: 'Over time',
      body: timeline?.samples.length
        ? note(`${timeline.samples.length} samples, one a second (the last one partial); phases: sending, then the drain, then the grace.`)
        : r.generator.sendsPerSecond.length
          ? note("No per-second samples in this report (a merged report: each run's --out file holds them); the chart shows the generator's sends in each second.")
          : note('No per-second samples: the run stopped before sending.'),
    },
    checks(r),
    totals(r),
  ];
  const stages = stagesSection(timeline);
  if (stages) sections.splice(1, 0, stages);
  return renderPage({
    title: `harness load (${r.mode})`,
    verdict: verdictOf(r),
    commandLine,
    generatedAt,
    summary: [
      ['mode', `${r.mode}: ${r.subscribed}/${r.clients} clients in ${r.groups} ${r.mode === 'chat' ? 'rooms' : 'topics'}`],
      ['schedule', schedule(r)],
      ['result', `sent ${int(r.counts.sent)}, delivered ${int(r.counts.delivered)}, late ${int(r.counts.late)}, lost ${int(r.counts.lost)}, duplicated ${int(r.counts.duplicated)}; latency p99 ${ms(r.latency.p99Ms)}`],
    ],
    sections,
    charts: overTime.length ? [{ section: 'Over time', charts: overTime }] : [],
  });
}

/** The page for a run that could not start: the error is the verdict. */
export function loadFailureHtml(mode: LoadReport['mode'], message: string, exitCode: number, commandLine: string, generatedAt = new Date()): string {
  return renderPage({
    title: `harness load (${mode})`,
    verdict: { tone: 'fail', headline: exitCode === 64 ? 'USAGE ERROR' : 'COULD NOT RUN', details: [`exit status ${exitCode}`, message] },
    commandLine,
    generatedAt,
    summary: [],
    sections: [],
    charts: [],
  });
}
