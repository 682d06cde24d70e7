// Benchmark: call set-up through the protocol harness on loopback. Two seeded users call each
// other `--calls` times (20) in rounds; each round runs four series one after the other, so a
// busy moment of the shared machine weighs on all four alike:
//   audio        the harness's `accept` scenario, host candidates only (no STUN/TURN): today's
//                figure, initiate → both sides' RTCPeerConnection "connected";
//   audio-relay  the same call relay-only through a local coturn: initiate → first sound at the
//                later side, the baseline of the two below;
//   video-relay  the `video` scenario relay-only: initiate → first decoded remote frame at the
//                later side (the video call set-up);
//   resume       `reload-mid-call` relay-only: the callee's page reloads mid-call; from its new
//                connection starting to sound again at the later side (both sides rebuilt
//                their RTCPeerConnection on the server's resume).
//
// The server runs as its own process on a fresh SQLite database with coturn's shared secret;
// the wrtc callers share this one. One warm-up round (JIT, wrtc's native threads) is not counted.
//   node --import tsx bench/call-setup.ts [--calls 20]
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { runScenario, type ScenarioName, type ScenarioOptions, type ScenarioReport } from '../protocol-harness/src/caller/scenarios';
import { startCoturn, TURNSERVER } from '../server/test/support/coturn';
import { machineFacts } from './lib/machine';
import { emitResult, upperGoal, type PartResult } from './lib/result';
import { ROOT, startServer } from './lib/server-process';

const { values: args } = parseArgs({ options: { calls: { type: 'string', default: '20' } } });
const CALLS = Number(args.calls);
const GOAL_P50_MS = 300;
const GOAL_VIDEO_P50_MS = 300;
const GOAL_RESUME_P50_MS = 2000;
const PASSWORD = 'bench-call-pass';
const PREFIX = 'benchcall';
const RESULTS = path.join(ROOT, 'bench', 'results');

const log = (line: string) => process.stderr.write(`[call-setup] ${line}\n`);

/** Nearest-rank percentile of a sorted sample. */
function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

interface Sample {
  /** audio, loopback */
  initiateToConnectedMs: number;
  initiateToIncomingMs: number;
  acceptToConnectedMs: number;
  firstAudioMs: number;
  /** audio, relay-only */
  relayInitiateToConnectedMs: number;
  relayInitiateToSoundMs: number;
  /** video, relay-only */
  videoInitiateToConnectedMs: number;
  videoInitiateToFirstFrameMs: number;
  videoInitiateToSoundMs: number;
  /** reload mid-call, relay-only */
  reconnectToResumeMs: number;
  reconnectToConnectedMs: number;
  reconnectToSoundMs: number;
}

interface Series {
  id: string;
  scenario: ScenarioName;
  options: Partial<ScenarioOptions>;
  take(report: ScenarioReport): Partial<Sample>;
  /** The figure logged per call. */
  headline(report: ScenarioReport): string;
}

const laterSide = (pair: { caller: number | null; callee: number | null } | undefined) => Math.max(pair?.caller ?? NaN, pair?.callee ?? NaN);

const SERIES: Series[] = [
  {
    id: 'audio',
    scenario: 'accept',
    options: {},
    take: ({ timings: t }) => ({
      initiateToConnectedMs: t.initiateToConnectedMs!,
      initiateToIncomingMs: t.initiateToIncomingMs!,
      acceptToConnectedMs: laterSide(t.acceptToConnectedMs),
      firstAudioMs: laterSide(t.firstAudioFrameMs),
    }),
    headline: (r) => `initiate→connected ${r.timings.initiateToConnectedMs} ms`,
  },
  {
    id: 'audio-relay',
    scenario: 'accept',
    options: { relayOnly: true },
    take: ({ timings: t }) => ({ relayInitiateToConnectedMs: t.initiateToConnectedMs!, relayInitiateToSoundMs: t.initiateToFirstSoundMs! }),
    headline: (r) => `initiate→first sound ${r.timings.initiateToFirstSoundMs} ms`,
  },
  {
    id: 'video-relay',
    scenario: 'video',
    options: { relayOnly: true },
    take: ({ timings: t }) => ({
      videoInitiateToConnectedMs: t.initiateToConnectedMs!,
      videoInitiateToFirstFrameMs: t.initiateToFirstFrameMs!,
      videoInitiateToSoundMs: t.initiateToFirstSoundMs!,
    }),
    headline: (r) => `initiate→first frame ${r.timings.initiateToFirstFrameMs} ms`,
  },
  {
    id: 'resume',
    scenario: 'reload-mid-call',
    options: { relayOnly: true },
    take: ({ timings: t }) => ({ reconnectToResumeMs: t.reconnectToResumeMs!, reconnectToConnectedMs: t.reconnectToConnectedMs!, reconnectToSoundMs: t.reconnectToSoundMs! }),
    headline: (r) => `reconnect→sound again ${r.timings.reconnectToSoundMs} ms`,
  },
];

async function main(): Promise<void> {
  // `make bench` installs it (scripts/system-deps.sh); the relay-only figures need a real TURN server.
  if (!fs.existsSync(TURNSERVER)) throw new Error(`coturn is not installed (${TURNSERVER} missing): run make system-deps`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'letschat-bench-call-'));
  const databaseUrl = `sqlite:${path.join(dir, 'bench.sqlite3')}`;
  execFileSync(process.execPath, ['--import', 'tsx', 'server/src/cli/admin.ts', 'seed', '--users', '2', '--password', PASSWORD, '--prefix', PREFIX], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: databaseUrl },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const secret = crypto.randomBytes(16).toString('hex');
  const coturn = await startCoturn(secret);
  const server = await startServer({ env: { DATABASE_URL: databaseUrl, TURN_URLS: coturn.urls.join(','), TURN_SECRET: secret } });
  const caller = { email: `${PREFIX}1@example.test`, password: PASSWORD };
  const callee = { email: `${PREFIX}2@example.test`, password: PASSWORD };
  const samples: Sample[] = [];
  try {
    for (let i = 0; i <= CALLS; i++) {
      const sample: Partial<Sample> = {};
      const heads: string[] = [];
      for (const series of SERIES) {
        const report = await runScenario(series.scenario, { url: server.url, caller, callee, ...series.options });
        if (!report.ok) throw new Error(`round ${i}, ${series.id} failed: ${report.reason}`);
        Object.assign(sample, series.take(report));
        heads.push(`${series.id} ${series.headline(report)}`);
      }
      if (i === 0) {
        log(`warm-up round (not counted): ${heads.join(', ')}`);
        continue;
      }
      samples.push(sample as Sample);
      log(`round ${i}/${CALLS}: ${heads.join(', ')}`);
    }
  } finally {
    await server.stop();
    await coturn.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }

  const stat = (key: keyof Sample) => {
    const sorted = samples.map((s) => s[key]).sort((a, b) => a - b);
    return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), min: sorted[0], max: sorted[sorted.length - 1] };
  };
  const setup = stat('initiateToConnectedMs');
  const relaySound = stat('relayInitiateToSoundMs');
  const videoFrame = stat('videoInitiateToFirstFrameMs');
  const resumeSound = stat('reconnectToSoundMs');
  const figures = {
    calls: CALLS,
    initiateToConnectedMs: setup,
    initiateToIncomingMs: stat('initiateToIncomingMs'),
    acceptToConnectedMs: stat('acceptToConnectedMs'),
    acceptToFirstAudioMs: stat('firstAudioMs'),
    relay: { initiateToConnectedMs: stat('relayInitiateToConnectedMs'), initiateToFirstSoundMs: relaySound },
    videoRelay: { initiateToConnectedMs: stat('videoInitiateToConnectedMs'), initiateToFirstFrameMs: videoFrame, initiateToFirstSoundMs: stat('videoInitiateToSoundMs') },
    resumeRelay: { reconnectToResumeMs: stat('reconnectToResumeMs'), reconnectToConnectedMs: stat('reconnectToConnectedMs'), reconnectToSoundMs: resumeSound },
    samples,
    goal: {
      initiateToConnectedP50Ms: GOAL_P50_MS,
      verdict: upperGoal(setup.p50, GOAL_P50_MS, 'ms'),
      videoInitiateToFirstFrameP50Ms: GOAL_VIDEO_P50_MS,
      videoVerdict: upperGoal(videoFrame.p50, GOAL_VIDEO_P50_MS, 'ms'),
      resumeReconnectToSoundP50Ms: GOAL_RESUME_P50_MS,
      resumeVerdict: upperGoal(resumeSound.p50, GOAL_RESUME_P50_MS, 'ms'),
    },
    machine: machineFacts(),
  };
  fs.mkdirSync(RESULTS, { recursive: true });
  fs.writeFileSync(path.join(RESULTS, 'call-setup.json'), JSON.stringify(figures, null, 2) + '\n');

  const row = (name: string, s: ReturnType<typeof stat>) => `| ${name} | ${s.p50} ms | ${s.p95} ms | ${s.min}–${s.max} ms |`;
  const ratio = (a: number, b: number) => (b > 0 ? `${(a / b).toFixed(2)}×` : 'n/a');
  const notes = [
    `${CALLS} rounds after one uncounted warm-up round, each of four calls between the same two users: audio over loopback host candidates (no STUN/TURN), audio relay-only, video relay-only, and an audio call whose callee reloads mid-call, relay-only. Relay-only calls go through a local coturn (UDP, loopback) with the server's time-limited credentials. Each call signs both users in, connects STOMP, rings, accepts, connects wrtc peers, checks each side hears the other's tone (and sees the other's coded video), hangs up.`,
    'Server: its own Node process on SQLite; coturn its own process; both wrtc callers share the benchmark process. Nothing is pinned to a core; 2 cores are shared with whatever else runs.',
    'Set-up = initiate sent → the later of the two RTCPeerConnections reaching "connected"; the harness callee accepts the moment incoming arrives, so no human answering time is in it.',
    'Video set-up = initiate sent → the first remote frame whose coded blocks read back (sender and counter), at the later side: 320×240 at 15 fps from wrtc’s RTCVideoSource, VP8. Baseline: the relay-only audio call’s initiate → first frame with sound at the later side, same run.',
    'Resume = the reloaded page’s new connection starting (GET ice-servers, STOMP CONNECT, subscribing its call queues) → the first frame with sound on the rebuilt connections at the later side; in between the server sends resume to both, both build a new RTCPeerConnection, the caller offers. The drop itself and the peer-reconnecting notice come before and are not counted. Baseline: the same relay-only audio set-up.',
  ];
  const md = [
    '# Call set-up through the protocol harness',
    '',
    notes[0],
    '',
    '| measure | p50 | p95 | range |',
    '|---|---|---|---|',
    row('audio, loopback: initiate → connected (both sides)', setup),
    row('audio, loopback: initiate → incoming at the callee', figures.initiateToIncomingMs),
    row('audio, loopback: accept → connected (later side)', figures.acceptToConnectedMs),
    row('audio, loopback: accept → first audio frame with sound (later side)', figures.acceptToFirstAudioMs),
    row('audio, relay-only: initiate → connected', figures.relay.initiateToConnectedMs),
    row('audio, relay-only: initiate → first sound (later side)', relaySound),
    row('video, relay-only: initiate → connected', figures.videoRelay.initiateToConnectedMs),
    row('video, relay-only: initiate → first remote frame (later side)', videoFrame),
    row('video, relay-only: initiate → first sound (later side)', figures.videoRelay.initiateToFirstSoundMs),
    row('reload mid-call, relay-only: reconnect → resume at both', figures.resumeRelay.reconnectToResumeMs),
    row('reload mid-call, relay-only: reconnect → both connected again', figures.resumeRelay.reconnectToConnectedMs),
    row('reload mid-call, relay-only: reconnect → sound again (later side)', resumeSound),
    '',
    `Goals: audio initiate → connected p50 ≤ ${GOAL_P50_MS} ms: ${figures.goal.verdict}; video initiate → first remote frame p50 ≤ ${GOAL_VIDEO_P50_MS} ms: ${figures.goal.videoVerdict}; resume reconnect → sound again p50 ≤ ${GOAL_RESUME_P50_MS} ms: ${figures.goal.resumeVerdict}.`,
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
      { measure: 'audio: initiate → connected p50', value: `${setup.p50} ms`, goal: `≤ ${GOAL_P50_MS} ms`, verdict: figures.goal.verdict },
      { measure: 'audio: initiate → connected p95', value: `${setup.p95} ms` },
      {
        measure: 'video (relay-only): initiate → first remote frame p50',
        value: `${videoFrame.p50} ms`,
        baseline: `audio (relay-only) initiate → first sound p50 ${relaySound.p50} ms`,
        ratio: ratio(videoFrame.p50, relaySound.p50),
        goal: `≤ ${GOAL_VIDEO_P50_MS} ms`,
        verdict: figures.goal.videoVerdict,
      },
      { measure: 'video (relay-only): initiate → first remote frame p95', value: `${videoFrame.p95} ms`, baseline: `${relaySound.p95} ms` },
      {
        measure: 'resume after a reload (relay-only): reconnect → tones heard again p50',
        value: `${resumeSound.p50} ms`,
        baseline: `audio (relay-only) initiate → first sound p50 ${relaySound.p50} ms`,
        ratio: ratio(resumeSound.p50, relaySound.p50),
        goal: `≤ ${GOAL_RESUME_P50_MS} ms`,
        verdict: figures.goal.resumeVerdict,
      },
      { measure: 'resume after a reload (relay-only): reconnect → tones heard again p95', value: `${resumeSound.p95} ms`, baseline: `${relaySound.p95} ms` },
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
