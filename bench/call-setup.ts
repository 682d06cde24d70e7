// Benchmark: call set-up through the protocol harness on loopback. Two seeded users call each
// other 20 times in a row with the harness's `accept` scenario (wrtc callers, tone both ways);
// the figure is initiate → both sides' RTCPeerConnection "connected", p50 and p95.
//
// The server runs as its own process on a fresh SQLite database; the two callers share this
// one. One warm-up call (JIT, wrtc's native threads) runs first and is not counted.
//   node --import tsx bench/call-setup.ts [--calls 20]
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { runScenario, type ScenarioReport } from '../protocol-harness/src/caller/scenarios';
import { machineFacts } from './lib/machine';
import { emitResult, upperGoal, type PartResult } from './lib/result';
import { ROOT, startServer } from './lib/server-process';

const { values: args } = parseArgs({ options: { calls: { type: 'string', default: '20' } } });
const CALLS = Number(args.calls);
const GOAL_P50_MS = 300;
const PASSWORD = 'bench-call-pass';
const PREFIX = 'benchcall';
const RESULTS = path.join(ROOT, 'bench', 'results');

const log = (line: string) => process.stderr.write(`[call-setup] ${line}\n`);

/** Nearest-rank percentile of a sorted sample. */
function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

interface Sample {
  initiateToConnectedMs: number;
  initiateToIncomingMs: number;
  acceptToConnectedMs: number;
  firstAudioMs: number;
}

function sample(report: ScenarioReport): Sample {
  const t = report.timings;
  return {
    initiateToConnectedMs: t.initiateToConnectedMs!,
    initiateToIncomingMs: t.initiateToIncomingMs!,
    acceptToConnectedMs: Math.max(t.acceptToConnectedMs!.caller, t.acceptToConnectedMs!.callee),
    firstAudioMs: Math.max(t.firstAudioFrameMs?.caller ?? NaN, t.firstAudioFrameMs?.callee ?? NaN),
  };
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'letschat-bench-call-'));
  const databaseUrl = `sqlite:${path.join(dir, 'bench.sqlite3')}`;
  execFileSync(process.execPath, ['--import', 'tsx', 'server/src/cli/admin.ts', 'seed', '--users', '2', '--password', PASSWORD, '--prefix', PREFIX], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: databaseUrl },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const server = await startServer({ env: { DATABASE_URL: databaseUrl } });
  const caller = { email: `${PREFIX}1@example.test`, password: PASSWORD };
  const callee = { email: `${PREFIX}2@example.test`, password: PASSWORD };
  const samples: Sample[] = [];
  try {
    for (let i = 0; i <= CALLS; i++) {
      const report = await runScenario('accept', { url: server.url, caller, callee });
      if (!report.ok) throw new Error(`call ${i} failed: ${report.reason}`);
      if (i === 0) {
        log(`warm-up call: initiate→connected ${report.timings.initiateToConnectedMs} ms (not counted)`);
        continue;
      }
      samples.push(sample(report));
      log(`call ${i}/${CALLS}: initiate→connected ${report.timings.initiateToConnectedMs} ms`);
    }
  } finally {
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }

  const stat = (key: keyof Sample) => {
    const sorted = samples.map((s) => s[key]).sort((a, b) => a - b);
    return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), min: sorted[0], max: sorted[sorted.length - 1] };
  };
  const setup = stat('initiateToConnectedMs');
  const figures = {
    calls: CALLS,
    initiateToConnectedMs: setup,
    initiateToIncomingMs: stat('initiateToIncomingMs'),
    acceptToConnectedMs: stat('acceptToConnectedMs'),
    acceptToFirstAudioMs: stat('firstAudioMs'),
    samples,
    goal: { initiateToConnectedP50Ms: GOAL_P50_MS, verdict: upperGoal(setup.p50, GOAL_P50_MS, 'ms') },
    machine: machineFacts(),
  };
  fs.mkdirSync(RESULTS, { recursive: true });
  fs.writeFileSync(path.join(RESULTS, 'call-setup.json'), JSON.stringify(figures, null, 2) + '\n');

  const row = (name: string, s: ReturnType<typeof stat>) => `| ${name} | ${s.p50} ms | ${s.p95} ms | ${s.min}–${s.max} ms |`;
  const notes = [
    `${CALLS} calls in a row between the same two users after one uncounted warm-up call; each call signs both users in, connects STOMP, rings, accepts, connects wrtc peers over loopback (no STUN/TURN), checks each side hears the other's tone, hangs up.`,
    'Server: its own Node process on SQLite; both wrtc callers share the benchmark process. Nothing is pinned to a core; 2 cores are shared with whatever else runs.',
    'Set-up = initiate sent → the later of the two RTCPeerConnections reaching "connected"; the harness callee accepts the moment incoming arrives, so no human answering time is in it.',
  ];
  const md = [
    '# Call set-up through the protocol harness',
    '',
    notes[0],
    '',
    '| measure | p50 | p95 | range |',
    '|---|---|---|---|',
    row('initiate → connected (both sides)', setup),
    row('initiate → incoming at the callee', figures.initiateToIncomingMs),
    row('accept → connected (later side)', figures.acceptToConnectedMs),
    row('accept → first audio frame with sound (later side)', figures.acceptToFirstAudioMs),
    '',
    `Goal: initiate → connected p50 ≤ ${GOAL_P50_MS} ms: ${figures.goal.verdict}.`,
    '',
    ...notes.slice(1).map((n) => `- ${n}`),
    '',
    '## Machine',
    '',
    ...Object.entries(figures.machine).map(([k, v]) => `- ${k}: ${v}`),
    '',
  ].join('\n');
  fs.writeFileSync(path.join(RESULTS, 'call-setup.md'), md);

  const result: PartResult = {
    title: 'Call set-up (harness, loopback)',
    figures: [
      { measure: 'initiate → connected p50', value: `${setup.p50} ms`, goal: `≤ ${GOAL_P50_MS} ms`, verdict: figures.goal.verdict },
      { measure: 'initiate → connected p95', value: `${setup.p95} ms` },
    ],
    notes,
  };
  emitResult(result);
}

main().then(
  // wrtc keeps native handles alive after its connections close.
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`call-setup failed: ${String((err as Error)?.stack ?? err)}\n`);
    process.exit(1);
  },
);
