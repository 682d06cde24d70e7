// `make bench`: every benchmark part, one after the other, each in its own process (so its CPU
// and memory figures are its own), then bench/results/latest.md (and latest.json) with the
// machine's facts and each figure beside its baseline from the same run.
//   npm run --silent bench [-- --only chat-e2e,history] [-- --quick]
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { machineFacts } from './lib/machine';
import { RESULT_MARK, type Figure, type PartResult } from './lib/result';

interface Part {
  id: string;
  script: string;
  args: string[];
  /** Smaller sizes for a smoke run of the whole pipeline. */
  quickArgs: string[];
  timeoutSeconds: number;
  before?: () => Promise<string | null>;
}

const ROOT = path.resolve(__dirname, '..');
const RESULTS = path.join(__dirname, 'results');

/** RabbitMQ runs here with Web-STOMP off by default; the comparison needs it on. */
async function ensureWebStomp(): Promise<string | null> {
  const listening = () =>
    new Promise<boolean>((resolve) => {
      const s = net.connect(15674, '127.0.0.1');
      s.once('connect', () => (s.destroy(), resolve(true)));
      s.once('error', () => resolve(false));
    });
  if (await listening()) return null;
  try {
    execFileSync('rabbitmq-plugins', ['enable', 'rabbitmq_web_stomp'], { stdio: 'ignore', timeout: 60_000 });
  } catch (err) {
    return `could not enable rabbitmq_web_stomp: ${(err as Error).message}`;
  }
  for (let i = 0; i < 30; i++) {
    if (await listening()) return null;
    await new Promise((r) => setTimeout(r, 500));
  }
  return 'RabbitMQ Web-STOMP did not start listening on 15674';
}

const PARTS: Part[] = [
  { id: 'fanout', script: 'bench/fanout.ts', args: [], quickArgs: ['--messages', '200', '--rounds', '1'], timeoutSeconds: 300 },
  { id: 'cluster-fanout', script: 'bench/cluster-fanout.ts', args: [], quickArgs: ['--messages', '200', '--rounds', '1', '--seconds', '2'], timeoutSeconds: 300 },
  { id: 'channel-strategies', script: 'bench/channel-strategies.ts', args: [], quickArgs: ['--messages', '2000', '--rounds', '1'], timeoutSeconds: 300 },
  { id: 'broker-compare', script: 'bench/broker-compare.ts', args: [], quickArgs: ['--messages', '100', '--rounds', '1'], timeoutSeconds: 300, before: ensureWebStomp },
  { id: 'chat-e2e', script: 'bench/chat-e2e.ts', args: [], quickArgs: ['--users', '100', '--rooms', '10', '--rates', '100,200', '--step-seconds', '2'], timeoutSeconds: 420 },
  // The same chat on two nodes behind SO_REUSEPORT (WORKERS=2), right after the single node: the issue-14 comparison.
  { id: 'chat-e2e-2-nodes', script: 'bench/chat-e2e.ts', args: ['--workers', '2'], quickArgs: ['--workers', '2', '--users', '100', '--rooms', '10', '--rates', '100,200', '--step-seconds', '2'], timeoutSeconds: 480 },
  { id: 'idle-memory', script: 'bench/idle-memory.ts', args: [], quickArgs: ['--sessions', '1000'], timeoutSeconds: 300 },
  { id: 'history', script: 'bench/history.ts', args: [], quickArgs: ['--messages', '50000', '--requests', '300'], timeoutSeconds: 420 },
  // The room's drawer (issue 27): 100 000 messages in one room, p99 ≤ 10 ms.
  { id: 'drawer', script: 'bench/drawer.ts', args: [], quickArgs: ['--messages', '5000', '--requests', '300'], timeoutSeconds: 600 },
  // 1 000 000 messages loaded twice (SQLite, MariaDB) with their index: long on a shared machine.
  { id: 'message-search', script: 'bench/message-search.ts', args: [], quickArgs: ['--messages', '50000', '--searches', '100', '--baseline-searches', '10', '--inserts', '100'], timeoutSeconds: 3600 },
  // Four calls a round (audio, audio and video relay-only, a reload mid-call): about 8 s a round.
  { id: 'call-setup', script: 'bench/call-setup.ts', args: [], quickArgs: ['--calls', '3'], timeoutSeconds: 600 },
  // Issue 27: a message with a link delivered as fast as a plain one, the preview fetched behind it.
  { id: 'link-preview-delivery', script: 'bench/link-preview-delivery.ts', args: [], quickArgs: ['--messages', '100'], timeoutSeconds: 300 },
  // Group calls through the embedded Janus: 10 rounds of a 1:1 call, a 2- and a 6-participant join
  // (about 6 s a round), then 20 s idle and a 10-participant audio call held 20 s.
  { id: 'group-call', script: 'bench/group-call.ts', args: [], quickArgs: ['--rounds', '1', '--participants', '3', '--hold-participants', '3', '--hold-seconds', '3'], timeoutSeconds: 600 },
  { id: 'client-load', script: 'bench/client-load.ts', args: [], quickArgs: ['--runs', '1'], timeoutSeconds: 900 },
];

interface Outcome {
  part: Part;
  seconds: number;
  result: PartResult | null;
  failure: string | null;
}

function runPart(part: Part, quick: boolean): Promise<Outcome> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', part.script, ...(quick ? part.quickArgs : part.args)], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderrTail = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => {
      process.stderr.write(d);
      stderrTail = (stderrTail + d.toString()).slice(-1500);
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), part.timeoutSeconds * 1000);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const seconds = (Date.now() - started) / 1000;
      const line = stdout.split('\n').find((l) => l.startsWith(RESULT_MARK));
      if (code === 0 && line) return resolve({ part, seconds, result: JSON.parse(line.slice(RESULT_MARK.length)) as PartResult, failure: null });
      const why = signal === 'SIGKILL' ? `timed out after ${part.timeoutSeconds} s` : `exited with ${code ?? signal}${line ? '' : ', no result line'}`;
      resolve({ part, seconds, result: null, failure: `${why}\n${stderrTail.trim()}` });
    });
  });
}

const cell = (s: string | undefined) => (s ?? '').replace(/\|/g, '\\|').replace(/\n/g, ' ');

function figuresTable(figures: Figure[]): string[] {
  return [
    '| measure | ours | baseline (same run) | ratio | goal | verdict |',
    '|---|---|---|---|---|---|',
    ...figures.map((f) => `| ${cell(f.measure)} | ${cell(f.value)} | ${cell(f.baseline)} | ${cell(f.ratio)} | ${cell(f.goal)} | ${cell(f.verdict)} |`),
  ];
}

function markdown(facts: Record<string, string>, outcomes: Outcome[], totalSeconds: number, quick: boolean): string {
  const goals = outcomes.flatMap((o) => (o.result?.figures ?? []).filter((f) => f.goal).map((f) => ({ ...f, measure: `${o.part.id}: ${f.measure}` })));
  const out = [
    '# Benchmarks (make bench)',
    '',
    quick ? '**Quick smoke run (`--quick`): reduced sizes, figures not comparable with the goals.**\n' : '',
    `Total ${Math.round(totalSeconds)} s. Each part ran in its own processes, one part at a time; every baseline was measured in the same run, on the same machine.`,
    '',
    '## Machine',
    '',
    ...Object.entries(facts).map(([k, v]) => `- ${k}: ${v}`),
    '- note: a load average above the core count means other work shared the machine during the run; figures are then conservative.',
    '',
    '## Goals',
    '',
    ...figuresTable(goals),
    ...outcomes.filter((o) => o.failure).map((o) => `\n**${o.part.id} did not complete**: ${cell(o.failure!.split('\n')[0])}`),
    '',
  ];
  for (const o of outcomes) {
    out.push(`## ${o.result?.title ?? o.part.id}`, '', `\`${o.part.script}\`, ${o.seconds.toFixed(0)} s.`, '');
    if (o.result) {
      out.push(...figuresTable(o.result.figures), '');
      if (o.result.detail) out.push(o.result.detail, '');
      out.push(...o.result.notes.map((n) => `- ${n}`), '');
    } else {
      out.push('Failed:', '', '```', o.failure ?? '', '```', '');
    }
  }
  return out.join('\n');
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { only: { type: 'string' }, quick: { type: 'boolean', default: false } } });
  const only = values.only?.split(',').map((s) => s.trim());
  const parts = PARTS.filter((p) => !only || only.includes(p.id));
  const facts = machineFacts();
  const started = Date.now();
  const outcomes: Outcome[] = [];
  for (const part of parts) {
    process.stderr.write(`\n=== ${part.id} (${part.script}) ===\n`);
    const problem = part.before ? await part.before() : null;
    const outcome = problem ? { part, seconds: 0, result: null, failure: problem } : await runPart(part, values.quick);
    outcomes.push(outcome);
    process.stderr.write(outcome.result ? `=== ${part.id}: done in ${outcome.seconds.toFixed(0)} s\n` : `=== ${part.id}: FAILED: ${outcome.failure}\n`);
  }
  const totalSeconds = (Date.now() - started) / 1000;
  fs.mkdirSync(RESULTS, { recursive: true });
  const md = markdown(facts, outcomes, totalSeconds, values.quick);
  fs.writeFileSync(path.join(RESULTS, 'latest.md'), md);
  fs.writeFileSync(
    path.join(RESULTS, 'latest.json'),
    JSON.stringify({ machine: facts, totalSeconds, quick: values.quick, parts: outcomes.map((o) => ({ id: o.part.id, seconds: o.seconds, result: o.result, failure: o.failure })) }, null, 2) + '\n',
  );
  process.stdout.write(md + '\n');
  process.stderr.write(`wrote ${path.relative(ROOT, path.join(RESULTS, 'latest.md'))}\n`);
  if (outcomes.some((o) => o.failure)) process.exitCode = 1;
}

main().catch((err: unknown) => {
  process.stderr.write(`bench: ${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
