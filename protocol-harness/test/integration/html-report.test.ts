// --html (docs/operations.md, "Protocol harness"): the page opens offline in Chromium, draws its
// charts (canvas pixels of the series' colours, not just an element), fetches nothing, and shows
// hostile text as text. Reports built here (a staged load run, a call with quality series, one
// with hostile strings) and reports the CLI itself wrote: a run against our STOMP core alone,
// one stopped by SIGTERM, one that could not reach its server.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { callHtml, type CallHtmlReport } from '../../src/caller/html';
import { pairsHtml, type PairsHtmlReport } from '../../src/caller/pairs-html';
import type { QualitySample, SideQuality } from '../../src/caller/quality';
import { loadHtml } from '../../src/load/html';
import { LatencyHistogram } from '../../src/load/latency';
import { withVerdict, type LoadReport } from '../../src/load/report';
import type { RunSample } from '../../src/load/samples';
import { LoadTimeline } from '../../src/load/timeline';
import { launchChromium, requireChromium } from '../../../client/test/e2e/support/browser';
import { startServer, type ServerProcess } from '../../../bench/lib/server-process';
import { waitFor, within } from '../../../server/test/support/wait';

const ROOT = path.resolve(__dirname, '../../..');
const HOSTILE = `</script><script>window.__injected = 1</script><img src="http://127.0.0.1:9/x.png" onerror="window.__injected = 2">`;

interface Opened {
  requests: string[];
  errors: string[];
  chartsDrawn: number;
  plots: number;
  /** Per chart: coloured pixels on its canvas (axes and grid are grey: these are the series' lines). */
  seriesPixels: number[];
  verdict: string;
  text: string;
  injected: unknown;
}

async function open(browser: Browser, file: string): Promise<Opened> {
  const context = await browser.newContext({ offline: true });
  const page: Page = await context.newPage();
  const requests: string[] = [];
  const errors: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  page.on('pageerror', (e) => errors.push(e.message));
  // A blocked fetch is a CSP violation: it counts as a request the page tried.
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  try {
    await page.goto(`file://${file}`, { waitUntil: 'load' });
    const chartsDrawn = Number(await page.getAttribute('html', 'data-charts-drawn'));
    const seriesPixels = await page.evaluate(() =>
      [...document.querySelectorAll('.plot')].map((plot) => {
        const canvas = plot.querySelector('canvas');
        if (!canvas) return 0;
        const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
        let n = 0;
        for (let i = 0; i < data.length; i += 4) {
          if (data[i + 3] > 200 && Math.max(data[i], data[i + 1], data[i + 2]) - Math.min(data[i], data[i + 1], data[i + 2]) > 60) n++;
        }
        return n;
      }),
    );
    return {
      requests,
      errors,
      chartsDrawn,
      plots: await page.locator('.plot').count(),
      seriesPixels,
      verdict: (await page.locator('#verdict').innerText()).trim(),
      text: await page.locator('body').innerText(),
      injected: await page.evaluate(() => (window as unknown as { __injected?: unknown }).__injected),
    };
  } finally {
    await context.close();
  }
}

/** Opened offline, only the file itself was requested and nothing failed. */
function expectSelfContained(o: Opened, file: string): void {
  expect(o.requests, 'no request but the file itself').to.deep.equal([`file://${file}`]);
  expect(o.errors, 'no script error, no blocked fetch').to.deep.equal([]);
}

function expectChartsDrawn(o: Opened, count: number): void {
  expect(o.plots).to.equal(count);
  expect(o.chartsDrawn).to.equal(count);
  o.seriesPixels.forEach((n, i) => expect(n, `chart ${i + 1} drew its series`).to.be.above(20));
}

function sample(second: number, phase: RunSample['phase'], sent: number, latenciesMs: number[], h: LatencyHistogram): RunSample {
  h.reset();
  for (const v of latenciesMs) h.record(v * 1000);
  const l = h.summary();
  return {
    at: new Date(Date.UTC(2026, 10, 26, 20, 0, second)).toISOString(),
    elapsedSeconds: second,
    phase,
    offered: sent * second,
    sent: sent * second,
    acknowledged: sent * second,
    delivered: sent * second,
    late: 0,
    missing: second % 3,
    duplicated: 0,
    outOfOrder: 0,
    sentInInterval: sent,
    deliveredInInterval: latenciesMs.length,
    latencyMs: { count: l.count, p50: l.p50Ms, p90: l.p90Ms, p99: l.p99Ms, max: l.maxMs },
    generatorCpuPercent: 20 + second,
    eventLoopLagP99Ms: 2 + (second % 4),
  };
}

function loadReport(overrides: Partial<LoadReport> = {}): LoadReport {
  const latency = { count: 120, p50Ms: 1.2, p90Ms: 3.4, p95Ms: 4.1, p99Ms: 9.8, maxMs: 14.2 };
  return withVerdict({
    mode: 'chat',
    clients: 20,
    subscribed: 20,
    groups: 4,
    offeredRate: 10,
    durationSeconds: 6,
    rampSeconds: 0,
    stages: [{ seconds: 3, target: 20 }, { seconds: 3, target: 0 }],
    interrupted: false,
    counts: { sent: 60, acknowledged: 60, rejected: 0, expectedDeliveries: 120, delivered: 120, late: 0, lost: 0, duplicated: 0, outOfOrder: 0, unexpected: 0 },
    ignoredDeliveries: 0,
    latency,
    lateLatency: { count: 0, p50Ms: 0, p90Ms: 0, p95Ms: 0, p99Ms: 0, maxMs: 0 },
    throughput: { sendsPerSecond: 10, deliveriesPerSecond: 20 },
    generator: { offered: 60, askedRate: 10, achievedRate: 10, sendingSeconds: 6, sendsPerSecond: [3, 10, 17, 17, 10, 3], maxBacklog: 1, fellBehind: false, cpuPercent: 12, eventLoopLagMs: { p50: 1, p99: 4, max: 6 } },
    connectionErrors: 0,
    connectionErrorsDuringRun: 0,
    errorSamples: [],
    reconnects: { beforeConnected: 0, samples: [] },
    thresholds: [{ expression: 'p99<5ms', metric: 'p99', actual: 9.8, ok: false }],
    ok: false,
    ...overrides,
  });
}

function side(lossPct: number, mosBase: number): SideQuality {
  const series: QualitySample[] = Array.from({ length: 12 }, (_x, i) => ({
    t: i + 1,
    rttMs: 40 + (i % 5) * 3,
    jitterMs: 4 + (i % 3),
    lossPct: i === 0 ? null : lossPct * (1 + ((i % 4) - 1.5) / 10),
    bitrateKbps: 30 + (i % 2) * 2,
    outBitrateKbps: 32,
    concealedPct: lossPct / 2,
    mos: mosBase - (i % 4) * 0.05,
  }));
  const stat = (v: number) => ({ min: v * 0.9, p50: v, p95: v * 1.1, max: v * 1.2, mean: v });
  return { series, summary: { samples: series.length, rttMs: stat(46), jitterMs: stat(5), lossPct: stat(lossPct), bitrateKbps: stat(31), mos: stat(mosBase) } };
}

function callReport(overrides: Partial<CallHtmlReport> = {}): CallHtmlReport {
  return {
    scenario: 'accept',
    ok: true,
    reason: null,
    checks: ['the caller receives ringing', 'both connections reach "connected"', 'the caller hears the callee\'s 660 Hz tone'],
    timings: { initiateToIncomingMs: 12, initiateToRingingMs: 15, acceptToAcceptedMs: 4, acceptToConnectedMs: { caller: 80, callee: 78 }, initiateToConnectedMs: 131 },
    relayOnly: true,
    audio: {
      caller: { frames: 500, soundFrames: 480, firstFrameAt: 1, firstSoundAt: 2, frequencyHz: 660, toneShare: 0.97, expectedHz: 660, heard: true },
      callee: { frames: 500, soundFrames: 482, firstFrameAt: 1, firstSoundAt: 2, frequencyHz: 440, toneShare: 0.98, expectedHz: 440, heard: true },
    },
    paths: { caller: { local: 'relay', remote: 'relay' }, callee: { local: 'relay', remote: 'host' } },
    lastReason: { caller: null, callee: null },
    reconnects: [],
    interrupted: false,
    failure: null,
    exitCode: 0,
    quality: { caller: side(10, 3.6), callee: side(0.5, 4.3), network: { asked: 'loss=10%', side: 'caller', measuredLossPct: 9.7 } },
    ...overrides,
  };
}

function pairsReport(): PairsHtmlReport {
  const stat = (v: number) => ({ min: v * 0.9, p50: v, p95: v * 1.1, max: v * 1.2, mean: v });
  const pairs: PairsHtmlReport['pairs'] = Array.from({ length: 6 }, (_x, i) => ({
    pair: i + 1,
    scenario: i % 2 ? 'reject' : 'accept',
    ok: i !== 3,
    setupMs: i % 2 ? null : 120 + i * 10,
    reason: i === 3 ? `the caller receives rejected: ${HOSTILE}` : null,
    failure: i === 3 ? 'expectation' : null,
    users: { caller: `pc${2 * i + 1}@example.test`, callee: `pc${2 * i + 2}@example.test` },
    startedAtS: i * 0.5,
    seconds: 3 + i,
    ...(i % 2 ? {} : { quality: callReport().quality }),
  }));
  return {
    ok: false,
    asked: { pairs: 6, scenarios: ['accept', 'reject'], arrivalRate: 2, relayOnly: true, holdSeconds: 5 },
    started: 6,
    passed: 5,
    failed: 1,
    byScenario: { accept: { passed: 3, failed: 0 }, reject: { passed: 2, failed: 1 } },
    setupMs: { count: 3, p50: 140, p95: 160, max: 160 },
    quality: { samples: 72, pairs: 3, rttMs: stat(46), jitterMs: stat(5), lossPct: stat(1), bitrateKbps: stat(31), mos: stat(4.2) },
    memory: { peakRssMB: 235, baselineRssMB: 120, perPairMB: 19.2, series: Array.from({ length: 10 }, (_x, t) => ({ t, rssMB: 120 + t * 11, heapUsedMB: 40 + t, externalMB: 10 + t })) },
    durationSeconds: 9.5,
    pairs,
    error: null,
    interrupted: false,
    failure: 'expectation',
    exitCode: 1,
  };
}

describe('harness --html', function () {
  let browser: Browser;
  let dir: string;
  const file = (name: string) => path.join(dir, name);
  before(async function () {
    requireChromium(this);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'harness-html-'));
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a staged load run: the verdict on top, four charts drawn from the samples, a table per stage, nothing fetched', async () => {
    const report = loadReport();
    const timeline = new LoadTimeline({ ratePerSecond: 0, durationSeconds: 0, rampSeconds: 0, stages: report.stages });
    const h = new LatencyHistogram();
    // Stage 1 (0–3 s) at 1 ms, stage 2 (3–6 s) at 9 ms: the stage table's p50s tell them apart exactly.
    for (let s = 1; s <= 6; s++) timeline.add(sample(s, 'sending', 10, Array(20).fill(s <= 3 ? 1 : 9), h), h);
    timeline.add(sample(7, 'draining', 0, [], h), h);
    fs.writeFileSync(file('load.html'), loadHtml(report, timeline, 'harness load --stages 3s:20,3s:0 --password ***'));
    const o = await open(browser, file('load.html'));
    expectSelfContained(o, file('load.html'));
    expectChartsDrawn(o, 4);
    expect(o.verdict).to.match(/^FAILED/).and.include('exit status 1').and.include('p99<5ms');
    expect(o.text).to.include('harness load --stages 3s:20,3s:0 --password ***');
    expect(o.text).to.match(/stage 1\t0–3 s\t0 → 20\t30\t30\t10\t60\t60\t1\.00 ms/);
    expect(o.text).to.match(/stage 2\t3–6 s\t20 → 0\t30\t30\t10\t60\t60\t9\.0\d ms/);
    expect(o.text).to.match(/threshold\tp99<5ms\t✘ fail/);
  });

  it('a call with quality: each side\'s MOS, RTT and jitter, loss and bitrate drawn, summaries and the measured loss shown', async () => {
    fs.writeFileSync(file('call.html'), callHtml(callReport(), 'harness call --caller a@x.io:*** --callee b@x.io:***'));
    const o = await open(browser, file('call.html'));
    expectSelfContained(o, file('call.html'));
    expectChartsDrawn(o, 8);
    expect(o.verdict).to.match(/^PASSED/);
    expect(o.text).to.include('initiate → connected (both sides)\t131 ms').and.include('accept → connected\tcaller 80 ms, callee 78 ms');
    expect(o.text).to.include('asked loss=10%; measured inbound loss 9.70 %');
    expect(o.text).to.match(/caller\tMOS \(E-model estimate\) \(1–4\.5\)\t3\.24\t3\.60/);
  });

  it('shows hostile strings from the server as text: nothing injected, nothing fetched', async () => {
    const report = callReport({ ok: false, reason: `the caller receives ringing: ${HOSTILE}`, failure: 'expectation', exitCode: 1, quality: undefined, lastReason: { caller: HOSTILE, callee: null } });
    fs.writeFileSync(file('hostile.html'), callHtml(report, `harness call --origin '${HOSTILE}'`));
    const o = await open(browser, file('hostile.html'));
    expectSelfContained(o, file('hostile.html'));
    expectChartsDrawn(o, 0);
    expect(o.injected).to.equal(undefined);
    expect(o.verdict).to.match(/^FAILED/).and.include(HOSTILE);
    const load = loadReport({ errorSamples: [HOSTILE], stages: undefined });
    fs.writeFileSync(file('hostile-load.html'), loadHtml(load, null, HOSTILE));
    const l = await open(browser, file('hostile-load.html'));
    expectSelfContained(l, file('hostile-load.html'));
    expect(l.injected).to.equal(undefined);
    expect(l.text).to.include(`! ${HOSTILE}`);
    // No samples: the generator's own sends per second still make a throughput chart.
    expectChartsDrawn(l, 1);
  });

  it('call --pairs: pass/fail per scenario and pair, set-up and memory charts, pooled quality', async () => {
    fs.writeFileSync(file('pairs.html'), pairsHtml(pairsReport(), 'harness call --pairs 6 --scenario accept,reject --password ***'));
    const o = await open(browser, file('pairs.html'));
    expectSelfContained(o, file('pairs.html'));
    expectChartsDrawn(o, 2);
    expect(o.injected).to.equal(undefined);
    expect(o.verdict).to.match(/^FAILED/).and.include('5 of 6 pairs passed').and.include(`pair 4 (reject): the caller receives rejected: ${HOSTILE}`);
    expect(o.text).to.match(/reject\t2\t1/).and.match(/MOS \(E-model estimate\)\t3\.78\t4\.20/);
    expect(o.text).to.match(/\n1\taccept\t✔ pass\t120 ms\t3 s\t3\.60 \/ 4\.30\tpc1@example\.test → pc2@example\.test/);
    expect(o.text).to.match(/\n4\treject\t✘ fail\tn\/a\t6 s\t\t/);
  });

  describe('written by the CLI', () => {
    let broker: ServerProcess;
    let url: string;
    before(async () => {
      broker = await startServer({ entry: 'bench/broker.ts' });
      url = `ws://127.0.0.1:${broker.port}/websocket`;
    });
    after(async () => {
      await broker?.stop();
    });

    function harness(args: string[]) {
      const child = spawn(process.execPath, ['--import', 'tsx', 'protocol-harness/src/cli.ts', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
      const output = { stdout: '', stderr: '' };
      child.stdout.on('data', (d: Buffer) => (output.stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (output.stderr += d.toString()));
      const done = new Promise<number | null>((resolve) => child.once('close', resolve));
      return { child, output, done };
    }

    it('harness load --stages --html: per-second charts and the stage table of a real run; a SIGTERM still writes it, marked interrupted', async () => {
      const staged = harness(['load', '--broker', '--url', url, '--clients', '4', '--rooms', '2', '--stages', '2s:20,2s:40', '--drain', '1', '--grace', '1', '--no-progress', '--html', file('run.html'), '--report', file('run.json')]);
      const stopped = harness(['load', '--broker', '--url', url, '--clients', '4', '--rooms', '2', '--rate', '20', '--duration', '600', '--html', file('stopped.html'), '--password', 'not-shown']);
      await waitFor(() => /^sending /m.test(stopped.output.stderr), { what: 'the second run sending', timeoutMs: 60_000 });
      // At least two samples before the signal, so the charts have lines.
      await new Promise((resolve) => setTimeout(resolve, 2500));
      stopped.child.kill('SIGTERM');
      const [stagedCode, stoppedCode] = await within(Promise.all([staged.done, stopped.done]), 90_000, 'both runs to end');
      expect(stagedCode, staged.output.stderr).to.equal(0);
      expect(stoppedCode, stopped.output.stderr).to.equal(143);

      const run = await open(browser, file('run.html'));
      expectSelfContained(run, file('run.html'));
      expectChartsDrawn(run, 4);
      expect(run.verdict).to.match(/^PASSED/);
      expect(run.text).to.match(/stage 1\t0–2 s\t0 → 20\t20\t/).and.match(/stage 2\t2–4 s\t20 → 40\t60\t/).and.include('after sending (drain, grace)');
      expect(run.text).to.match(/nothing lost\t✔ pass/);

      const interrupted = await open(browser, file('stopped.html'));
      expectSelfContained(interrupted, file('stopped.html'));
      expectChartsDrawn(interrupted, 4);
      expect(interrupted.verdict).to.match(/^INTERRUPTED \(SIGTERM\)/).and.include('exit status 143');
      expect(interrupted.text).to.include("--password '***'").and.not.include('not-shown');

      // harness merge --html: no per-second samples in the reports, the generator's sends per second instead.
      const merge = harness(['merge', file('run.json'), file('run.json'), '--html', file('merged.html')]);
      expect(await within(merge.done, 60_000, 'the merge')).to.equal(0);
      const merged = await open(browser, file('merged.html'));
      expectSelfContained(merged, file('merged.html'));
      expectChartsDrawn(merged, 1);
      expect(merged.verdict).to.match(/^PASSED/);
      const single = JSON.parse(fs.readFileSync(file('run.json'), 'utf8')) as LoadReport;
      expect(merged.text).to.include(`sent ${(2 * single.counts.sent).toLocaleString('en-US')}, delivered ${(2 * single.counts.delivered).toLocaleString('en-US')}`);
    });

    it('harness call --html for a call that could not run: the cause as the verdict', async () => {
      const run = harness(['call', '--url', 'http://127.0.0.1:1', '--caller', 'a@x.io:secret-pw', '--callee', 'b@x.io:pw', '--html', file('unreachable.html')]);
      expect(await within(run.done, 60_000, 'the call to give up')).to.equal(2);
      const o = await open(browser, file('unreachable.html'));
      expectSelfContained(o, file('unreachable.html'));
      expect(o.verdict).to.match(/^COULD NOT RUN \(infrastructure\)/).and.include('connect ECONNREFUSED 127.0.0.1:1');
      expect(o.text).to.include("--caller 'a@x.io:***'").and.not.include('secret-pw');
    });

    it('harness call --html on SIGTERM mid-call: the page of what ran, marked interrupted', async () => {
      // A server that takes the connection and never answers: the sign-in hangs until the signal.
      const sockets: net.Socket[] = [];
      const silent = net.createServer((socket) => sockets.push(socket));
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      try {
        const { port } = silent.address() as net.AddressInfo;
        const run = harness(['call', '--url', `http://127.0.0.1:${port}`, '--caller', 'a@x.io:pw', '--callee', 'b@x.io:pw', '--html', file('call-stopped.html')]);
        await waitFor(() => sockets.length > 0, { what: 'the harness to connect', timeoutMs: 60_000 });
        run.child.kill('SIGTERM');
        expect(await within(run.done, 30_000, 'the call to stop')).to.equal(143);
        const o = await open(browser, file('call-stopped.html'));
        expectSelfContained(o, file('call-stopped.html'));
        expect(o.verdict).to.match(/^INTERRUPTED \(SIGTERM\)/).and.include('exit status 143').and.match(/interrupted by SIGTERM after [\d.]+ s, before the scenario ended/);
      } finally {
        sockets.forEach((s) => s.destroy());
        await new Promise((resolve) => silent.close(resolve));
      }
    });
  });
});
