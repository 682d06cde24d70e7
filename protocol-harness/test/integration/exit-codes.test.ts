// The harness's CI contract as a CI job meets it (docs/operations.md, "Protocol harness"): each
// exit status, the report written before a signal's exit, --junit, errors that name their cause.
// The load runs go to our STOMP core started alone (bench/broker.ts): no database needed.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { CallRunReport } from '../../src/caller/report';
import type { LoadReport } from '../../src/load/report';
import type { RunSample } from '../../src/load/samples';
import { startServer, type ServerProcess } from '../../../bench/lib/server-process';
import { waitFor, within } from '../../../server/test/support/wait';
import { junitProblems } from '../support/junit-schema';

const ROOT = path.resolve(__dirname, '../../..');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The harness as a CI job runs it: node directly, so signals reach it and no npm wraps its status. */
function start(args: string[]): { child: ChildProcess; output: { stdout: string; stderr: string }; done: Promise<Run> } {
  const child = spawn(process.execPath, ['--import', 'tsx', 'protocol-harness/src/cli.ts', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  const output = { stdout: '', stderr: '' };
  child.stdout!.on('data', (d: Buffer) => (output.stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output.stderr += d.toString()));
  const done = new Promise<Run>((resolve) => child.once('close', (code) => resolve({ code, ...output })));
  return { child, output, done };
}

const harness = (args: string[]) => within(start(args).done, 120_000, `harness ${args.join(' ')}`);

describe('harness exit statuses', function () {
  let dir: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'harness-ci-'));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const file = (name: string) => path.join(dir, name);

  describe('without a server', () => {
    it('exits 64 on a bad flag or a bad value, for both commands, before doing anything', async () => {
      const results = await Promise.all([
        harness(['load', '--url', 'http://127.0.0.1:1', '--clients', '2', '--rate', '1', '--duration', '1', '--bogus']),
        harness(['load', '--url', 'http://127.0.0.1:1', '--clients', '2', '--rate', 'fast', '--duration', '1']),
        harness(['load', '--url', 'http://127.0.0.1:1', '--clients', '2', '--rate', '1', '--duration', '1', '--threshold', 'p99 under 5']),
        harness(['load', '--url', 'http://127.0.0.1:1', '--clients', '2', '--users-prefix', 'x', '--password', 'y', '--rate', '1']),
        harness(['call', '--url', 'http://127.0.0.1:1', '--caller', 'no-colon', '--callee', 'b@x.io:pw']),
        harness(['call', '--url', 'http://127.0.0.1:1', '--caller', 'a@x.io:pw', '--callee', 'b@x.io:pw', '--scenario', 'busy']),
      ]);
      expect(results.map((r) => r.code)).to.deep.equal([64, 64, 64, 64, 64, 64]);
      expect(results[0].stderr).to.match(/unknown option '--bogus'/);
      expect(results[2].stderr).to.match(/expected METRIC OP VALUE/);
      expect(results[3].stderr).to.match(/give --rate and --duration, or --stages/);
      expect(results[5].stderr).to.match(/--third/);
    });

    it('lists every option, scenario and exit status in --help, and exits 0', async () => {
      const [top, load, call] = await Promise.all([harness(['--help']), harness(['load', '--help']), harness(['call', '--help'])]);
      for (const r of [top, load, call]) {
        expect(r.code).to.equal(0);
        for (const status of ['0 ', '1 ', '2 ', '3 ', '64 ', '130 ', '143 ']) expect(r.stdout).to.include(`\n  ${status}`);
      }
      for (const option of ['--stages', '--threshold', '--grace', '--report', '--junit', '--drain']) expect(load.stdout).to.include(option);
      const { SCENARIOS } = await import('../../src/caller/scenarios');
      for (const scenario of SCENARIOS) expect(call.stdout).to.match(new RegExp(`\\n  ${scenario} `), `harness call --help lists ${scenario}`);
    });

    it('exits 2 naming the socket error when the server is unreachable, with a report and a JUnit <error>', async () => {
      const [chat, broker, call] = await Promise.all([
        harness(['load', '--url', 'http://127.0.0.1:1', '--users-prefix', 'x', '--password', 'y', '--clients', '2', '--rate', '1', '--duration', '1', '--report', file('u.json'), '--junit', file('u.xml')]),
        harness(['load', '--broker', '--url', 'ws://127.0.0.1:1/websocket', '--clients', '2', '--rate', '1', '--duration', '1']),
        harness(['call', '--url', 'http://127.0.0.1:1', '--caller', 'a@x.io:pw', '--callee', 'b@x.io:pw', '--json', '--junit', file('c.xml')]),
      ]);
      for (const r of [chat, broker, call]) expect(r.code, r.stdout + r.stderr).to.equal(2);
      expect(chat.stderr).to.include('connect ECONNREFUSED 127.0.0.1:1');
      expect(broker.stderr).to.include('connect ECONNREFUSED 127.0.0.1:1');
      expect(JSON.parse(fs.readFileSync(file('u.json'), 'utf8'))).to.deep.include({ ok: false, exitCode: 2 });
      const xml = fs.readFileSync(file('u.xml'), 'utf8');
      expect(junitProblems(xml)).to.deep.equal([]);
      expect(xml).to.match(/<error message="server unreachable: connect ECONNREFUSED 127.0.0.1:1"/);
      const report = JSON.parse(call.stdout) as CallRunReport;
      expect(report).to.include({ ok: false, failure: 'infrastructure', exitCode: 2 });
      expect(report.reason).to.include('connect ECONNREFUSED 127.0.0.1:1');
      expect(junitProblems(fs.readFileSync(file('c.xml'), 'utf8'))).to.deep.equal([]);
    });
  });

  describe('harness load against our STOMP core alone', () => {
    let broker: ServerProcess;
    let url: string;
    before(async () => {
      broker = await startServer({ entry: 'bench/broker.ts' });
      url = `ws://127.0.0.1:${broker.port}/websocket`;
    });
    after(async () => {
      await broker?.stop();
    });

    it('exits 1 when a threshold is missed, with a JUnit testcase per check and threshold and a <failure> for the missed one', async () => {
      const r = await harness([
        'load', '--broker', '--url', url, '--clients', '4', '--rooms', '2', '--rate', '20', '--duration', '1', '--json', '--no-progress',
        '--threshold', 'p99<0.001ms', '--threshold', 'lost==0', '--threshold', 'rate>=99%', '--junit', file('t.xml'), '--report', file('t.json'),
      ]);
      expect(r.code, r.stderr).to.equal(1);
      const report = JSON.parse(r.stdout) as LoadReport;
      expect(report.counts).to.include({ sent: 20, lost: 0 });
      expect(report.thresholds!.map((t) => [t.expression, t.ok])).to.deep.equal([['p99<0.001ms', false], ['lost==0', true], ['rate>=99%', true]]);
      expect(JSON.parse(fs.readFileSync(file('t.json'), 'utf8'))).to.deep.include({ exitCode: 1, ok: false });
      const xml = fs.readFileSync(file('t.xml'), 'utf8');
      expect(junitProblems(xml)).to.deep.equal([]);
      expect(xml.match(/<testcase /g)).to.have.length(report.checks!.length);
      expect(xml.match(/<failure /g)).to.have.length(1);
      expect(xml).to.match(/<testcase name="threshold p99&lt;0.001ms"[^>]*><failure message="p99&lt;0.001ms: latency p99 was/);
    });

    for (const [signal, status] of [['SIGTERM', 143], ['SIGINT', 130]] as const) {
      it(`on ${signal} mid-run stops sending, writes the report of what ran marked interrupted, and exits ${status}`, async () => {
        const run = start(['load', '--broker', '--url', url, '--clients', '4', '--rooms', '2', '--rate', '50', '--duration', '600', '--json', '--report', file(`${signal}.json`)]);
        // Progress goes to stderr; the first line while sending says the run is under way.
        await waitFor(() => /^sending /m.test(run.output.stderr), { what: 'a progress line while sending', timeoutMs: 60_000 });
        run.child.kill(signal);
        const r = await within(run.done, 30_000, `the harness to exit after ${signal}`);
        expect(r.code, r.stderr).to.equal(status);
        const report = JSON.parse(r.stdout) as LoadReport;
        expect(report).to.include({ interrupted: true, signal, ok: false, exitCode: status });
        expect(report.counts.sent).to.be.above(0).and.below(50 * 600);
        expect(report.counts.lost, 'what was sent before the signal is still accounted').to.equal(0);
        expect(JSON.parse(fs.readFileSync(file(`${signal}.json`), 'utf8'))).to.deep.include({ interrupted: true, exitCode: status });
      });
    }

    it('writes one --out sample a second and serves Prometheus text on --metrics-port while it runs', async () => {
      const run = start([
        'load', '--broker', '--url', url, '--clients', '4', '--rooms', '2', '--rate', '50', '--duration', '4', '--json', '--no-progress',
        '--out', file('samples.jsonl'), '--metrics-port', '0',
      ]);
      const announced = await waitFor(() => /metrics on (http:\/\/\S+)/.exec(run.output.stderr)?.[1], { what: 'the metrics address on stderr', timeoutMs: 60_000 });
      // Scraped during the run: the counters move before the report is out.
      const scraped = await waitFor(
        async () => {
          const text = await (await fetch(announced)).text();
          return /^harness_sent_total [1-9]/m.test(text) && run.output.stdout === '' ? text : null;
        },
        { what: 'a scrape with messages sent, before the report', timeoutMs: 60_000 },
      );
      expect(scraped).to.match(/^# TYPE harness_latency_seconds histogram/m).and.match(/^harness_delivered_total \d+/m).and.match(/^harness_generator_cpu_ratio /m);
      const r = await within(run.done, 60_000, 'the run to end');
      expect(r.code, r.stderr).to.equal(0);
      const report = JSON.parse(r.stdout) as LoadReport;
      const samples = fs.readFileSync(file('samples.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as RunSample);
      expect(samples.length).to.be.at.least(Math.floor(report.generator.sendingSeconds));
      for (let i = 1; i < samples.length - 1; i++) expect(samples[i].elapsedSeconds - samples[i - 1].elapsedSeconds, 'never more than one a second').to.be.at.least(0.9);
      const final = samples[samples.length - 1];
      expect(final).to.include({ sent: report.counts.sent, delivered: report.counts.delivered, missing: 0 });
      expect(samples.reduce((n, s) => n + s.sentInInterval, 0)).to.equal(report.counts.sent);
      expect(samples.reduce((n, s) => n + s.latencyMs.count, 0)).to.equal(report.latency.count);
    });

    it('harness merge of two runs made at the same time equals their sum, latency histograms merged', async () => {
      const args = (name: string) => ['load', '--broker', '--url', url, '--clients', '4', '--rooms', '2', '--rate', '20', '--duration', '2', '--no-progress', '--report', file(name)];
      const runs = await Promise.all([harness(args('a.json')), harness(args('b.json'))]);
      expect(runs.map((r) => r.code)).to.deep.equal([0, 0]);
      const [a, b] = ['a.json', 'b.json'].map((n) => JSON.parse(fs.readFileSync(file(n), 'utf8')) as LoadReport);
      const merged = await harness(['merge', file('a.json'), file('b.json'), '--json', '--threshold', 'lost==0', '--junit', file('m.xml')]);
      expect(merged.code, merged.stderr).to.equal(0);
      const m = JSON.parse(merged.stdout) as LoadReport;
      for (const key of Object.keys(a.counts) as (keyof LoadReport['counts'])[]) expect(m.counts[key], key).to.equal(a.counts[key] + b.counts[key]);
      expect(m.latency.count).to.equal(a.latency.count + b.latency.count);
      expect(m.latency.maxMs).to.equal(Math.max(a.latency.maxMs, b.latency.maxMs));
      expect(m.latency.p50Ms).to.be.within(Math.min(a.latency.p50Ms, b.latency.p50Ms), Math.max(a.latency.p50Ms, b.latency.p50Ms));
      expect(m).to.include({ clients: 8, ok: true, exitCode: 0 });
      expect(junitProblems(fs.readFileSync(file('m.xml'), 'utf8'))).to.deep.equal([]);
      const bad = await harness(['merge', file('a.json'), file('missing.json')]);
      expect(bad.code).to.equal(64);
      expect(bad.stderr).to.match(/missing\.json/);
    });

    it('--workers 2 accounts exactly as one process does at a low rate', async () => {
      const args = ['load', '--broker', '--url', url, '--clients', '6', '--rooms', '3', '--rate', '30', '--duration', '2', '--json', '--no-progress'];
      const [one, two] = await Promise.all([harness(args), harness([...args, '--workers', '2', '--out', file('workers.jsonl')])]);
      expect([one.code, two.code], one.stderr + two.stderr).to.deep.equal([0, 0]);
      const [a, b] = [one, two].map((r) => JSON.parse(r.stdout) as LoadReport);
      expect(b.counts).to.deep.equal(a.counts);
      expect(b).to.include({ clients: 6, subscribed: 6, groups: 3, offeredRate: 30 });
      expect(b.latency.count).to.equal(a.latency.count);
      expect(b.generator.offered).to.equal(a.generator.offered);
      // Their samples, second by second, merged: they add up to the merged report.
      const samples = fs.readFileSync(file('workers.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as RunSample);
      expect(samples.at(-1)).to.include({ sent: b.counts.sent, delivered: b.counts.delivered, missing: 0 });
      expect(samples.reduce((n, s) => n + s.sentInInterval, 0)).to.equal(b.counts.sent);
      expect(samples.reduce((n, s) => n + s.latencyMs.count, 0)).to.equal(b.latency.count);
    });

    it('--workers 2 with --metrics-port serves their counts and latency histogram added up while running', async () => {
      const run = start(['load', '--broker', '--url', url, '--clients', '4', '--rooms', '2', '--rate', '40', '--duration', '4', '--workers', '2', '--json', '--no-progress', '--metrics-port', '0']);
      const address = await waitFor(() => /metrics on (http:\/\/\S+)/.exec(run.output.stderr)?.[1], { what: 'the metrics address on stderr', timeoutMs: 60_000 });
      const scraped = await waitFor(
        async () => {
          const text = await (await fetch(address)).text();
          const moving = /^harness_latency_seconds_count [1-9]/m.test(text) && /^harness_sent_total [1-9]/m.test(text);
          return moving && run.output.stdout === '' ? text : null;
        },
        { what: 'a scrape with sends and latencies, before the report', timeoutMs: 60_000 },
      );
      const value = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(scraped)?.[1]);
      expect(value('harness_latency_seconds_bucket\\{le="\\+Inf"\\}')).to.equal(value('harness_latency_seconds_count'));
      const r = await within(run.done, 60_000, 'the run to end');
      expect(r.code, r.stderr).to.equal(0);
      expect((JSON.parse(r.stdout) as LoadReport).counts.sent).to.equal(160);
    });

    it('exits 3 and says the generator fell behind when asked for more than it can offer', async () => {
      const r = await harness([
        'load', '--broker', '--url', url, '--clients', '2', '--rooms', '2', '--rate', '2000000', '--duration', '1', '--drain', '0', '--grace', '0', '--no-progress',
        '--report', file('behind.json'),
      ]);
      expect(r.code, r.stderr).to.equal(3);
      expect(r.stdout).to.match(/! generator fell behind: [\d,]+ of 2,000,000 msg\/s/);
      const report = JSON.parse(fs.readFileSync(file('behind.json'), 'utf8')) as LoadReport;
      expect(report.generator.fellBehind).to.equal(true);
      expect(report.generator.achievedRate).to.be.below(0.95 * 2_000_000);
      expect(report.generator.sendingSeconds, 'it stops at the deadline (1 s + 1 s) rather than running on').to.be.below(3);
      expect(report.generator.cpuPercent).to.be.above(0);
      expect(report.generator.sendsPerSecond.length).to.be.at.least(1);
    });
  });
});
