// Benchmark: group calls through the SFU (issue 25), with the embedded Janus from Debian, on loopback.
//   join time    `--rounds` (10) rounds, each: the 1:1 call set-up (the harness's `accept`
//                scenario) and a 2-participant group call (the baselines), then a
//                `--participants` (6) group call; join time = join (or start) sent → every other
//                participant heard, for each participant. Where it went, step by step, from each
//                participant's join: our 'joined' (Janus handle attached, joined the room), the
//                publish offer sent, Janus' answer, the publishing connection up, the first
//                subscribe offer, the receiving connection up, the first and the last other heard.
//   held call    one `--hold-participants` (10) audio call held `--hold-seconds` (20) once
//                everyone hears everyone: the server process' CPU per participant-second (its
//                signalling), Janus' CPU per forwarded stream (N×(N−1) of them), and each
//                client's upload through the SFU (1 stream, its outbound audio measured by wrtc's
//                stats) beside what a mesh would make it upload (N−1 of the same streams).
//                Before it, the same window with no call: the server's and Janus' idle CPU.
//
// The server runs as its own process on a fresh SQLite database; it starts and supervises its
// own Janus (JANUS_URLS unset), whose pid is found among the server's children. The wrtc
// participants share this one process. One warm-up round is not counted.
//   node --import tsx bench/group-call.ts [--rounds 10] [--participants 6] [--hold-participants 10] [--hold-seconds 20]
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { runGroupScenario, type GroupScenarioReport, type JoinTimeline } from '../protocol-harness/src/caller/group-scenario';
import { runScenario } from '../protocol-harness/src/caller/scenarios';
import { processCpuMicros, processTree } from './lib/cpu-time';
import { machineFacts } from './lib/machine';
import { emitResult, upperGoal, type PartResult } from './lib/result';
import { ROOT, startServer } from './lib/server-process';

const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '10' },
    participants: { type: 'string', default: '6' },
    'hold-participants': { type: 'string', default: '10' },
    'hold-seconds': { type: 'string', default: '20' },
  },
});
const ROUNDS = Number(args.rounds);
const N_JOIN = Number(args.participants);
const N_HOLD = Number(args['hold-participants']);
const HOLD_SECONDS = Number(args['hold-seconds']);
const GOAL_JOIN_P50_MS = 500;
const PASSWORD = 'bench-group-pass';
const PREFIX = 'benchgroup';
const STEP_TIMEOUT_MS = 20_000;
const RESULTS = path.join(ROOT, 'bench', 'results');

const log = (line: string) => process.stderr.write(`[group-call] ${line}\n`);

/** Nearest-rank percentile; null for no sample. */
function percentile(values: number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

const summary = (values: number[]) => ({ p50: percentile(values, 50), p95: percentile(values, 95), n: values.length });
const ms = (v: number | null) => (v === null ? '-' : `${v} ms`);

/** The embedded Janus: the server's descendant whose command is janus. */
function janusPid(serverPid: number): number | null {
  for (const pid of processTree(serverPid)) {
    try {
      if (fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'janus') return pid;
    } catch {
      /* gone */
    }
  }
  return null;
}

const STEPS: Array<{ key: keyof JoinTimeline; label: string }> = [
  { key: 'joinedMs', label: "our 'joined' (Janus handle attached, joined the room as publisher)" },
  { key: 'publishSentMs', label: 'publish offer sent (wrtc createOffer + setLocalDescription)' },
  { key: 'publishAnswerMs', label: "Janus' answer relayed back (configure)" },
  { key: 'publisherConnectedMs', label: 'publishing connection up (ICE + DTLS)' },
  { key: 'firstSubscribeOfferMs', label: 'first subscribe offer (subscription to who publishes)' },
  { key: 'subscriberConnectedMs', label: 'receiving connection up (ICE + DTLS)' },
  { key: 'firstHeardMs', label: 'first sound of the first other participant' },
  { key: 'allHeardMs', label: 'first sound of every other participant (the join time)' },
  { key: 'allConfirmedMs', label: "every other's tone confirmed by the harness' meter (0.5 s of their sound; not a latency)" },
];

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'letschat-bench-group-'));
  const databaseUrl = `sqlite:${path.join(dir, 'bench.sqlite3')}`;
  const users = Math.max(N_JOIN, N_HOLD, 2);
  execFileSync(process.execPath, ['--import', 'tsx', 'server/src/cli/admin.ts', 'seed', '--users', String(users), '--password', PASSWORD, '--prefix', PREFIX], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: databaseUrl },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  // JANUS_URLS unset: the server runs its own Janus (it must be installed: make system-deps).
  const env: Record<string, string> = { DATABASE_URL: databaseUrl, JANUS_URLS: '', GROUP_CALL_MAX: String(Math.max(10, users)) };
  const server = await startServer({ env });
  const group = (participants: number, extra: Partial<Parameters<typeof runGroupScenario>[1]> = {}) =>
    runGroupScenario('group', { url: server.url, usersPrefix: PREFIX, password: PASSWORD, participants, stepTimeoutMs: STEP_TIMEOUT_MS, ...extra });
  const failed = (what: string, r: GroupScenarioReport) => new Error(`${what} failed: ${r.reason}\n${JSON.stringify(r.diagnostics ?? [], null, 1).slice(0, 4000)}`);
  const oneToOne: number[] = [];
  const twoJoin: number[] = [];
  const sixJoin: number[] = [];
  const sixConfirmed: number[] = [];
  const timelines: JoinTimeline[] = [];
  let subscribeOffers: number[] = [];
  let idle = { serverCpuMicros: 0, janusCpuMicros: 0, windowMs: 1 };
  let hold: { report: GroupScenarioReport; serverCpuMicros: number; janusCpuMicros: number; janusPid: number; windowMs: number } | null = null;
  try {
    for (let i = 0; i <= ROUNDS; i++) {
      const call = await runScenario('accept', {
        url: server.url,
        caller: { email: `${PREFIX}1@example.test`, password: PASSWORD },
        callee: { email: `${PREFIX}2@example.test`, password: PASSWORD },
      });
      if (!call.ok) throw new Error(`round ${i}, 1:1 accept failed: ${call.reason}`);
      const two = await group(2);
      if (!two.ok) throw failed(`round ${i}, 2-participant group`, two);
      const many = await group(N_JOIN);
      if (!many.ok) throw failed(`round ${i}, ${N_JOIN}-participant group`, many);
      const head = `1:1 initiate→connected ${call.timings.initiateToConnectedMs} ms, 2 in a group: join p50 ${two.joinMs.p50} ms, ${N_JOIN} in a group: join p50 ${many.joinMs.p50} ms (each ${many.joinMs.each.join(', ')})`;
      if (i === 0) {
        log(`warm-up round (not counted): ${head}`);
        continue;
      }
      log(`round ${i}/${ROUNDS}: ${head}`);
      oneToOne.push(call.timings.initiateToConnectedMs!);
      twoJoin.push(...two.joinMs.each);
      sixJoin.push(...many.joinMs.each);
      sixConfirmed.push(...many.confirmedMs.each);
      timelines.push(...many.timeline);
      subscribeOffers = [...subscribeOffers, ...many.timeline.map((t) => t.subscribeOffers)];
    }

    // The held call: CPU sampled at the window's edges (the scenario's onHold), from /proc. First
    // the same window with no call at all: what the server and Janus spend idle (timers, Janus'
    // long poll and keep-alives), the baseline of the call's figures.
    const pid = janusPid(server.pid);
    if (pid === null) throw new Error('no janus process under the server: is the embedded Janus running?');
    const idleStart = { server: processCpuMicros(server.pid), janus: processCpuMicros(pid), at: performance.now() };
    await new Promise((resolve) => setTimeout(resolve, HOLD_SECONDS * 1000));
    idle = {
      serverCpuMicros: processCpuMicros(server.pid) - idleStart.server,
      janusCpuMicros: processCpuMicros(pid) - idleStart.janus,
      windowMs: performance.now() - idleStart.at,
    };
    log(`idle ${Math.round(idle.windowMs)} ms: server CPU ${(idle.serverCpuMicros / 1000).toFixed(0)} ms, Janus CPU ${(idle.janusCpuMicros / 1000).toFixed(0)} ms`);
    let start = { server: 0, janus: 0, at: 0 };
    let end = { server: 0, janus: 0, at: 0 };
    const sample = () => ({ server: processCpuMicros(server.pid), janus: processCpuMicros(pid), at: performance.now() });
    const report = await group(N_HOLD, {
      holdMs: HOLD_SECONDS * 1000,
      onHold: (phase) => {
        if (phase === 'start') start = sample();
        else end = sample();
      },
    });
    if (!report.ok || !report.hold) throw failed(`the held ${N_HOLD}-participant call`, report);
    hold = { report, serverCpuMicros: end.server - start.server, janusCpuMicros: end.janus - start.janus, janusPid: pid, windowMs: end.at - start.at };
    log(`held ${N_HOLD} participants ${Math.round(hold.windowMs)} ms: server CPU ${(hold.serverCpuMicros / 1000).toFixed(0)} ms, Janus CPU ${(hold.janusCpuMicros / 1000).toFixed(0)} ms, outbound audio ${report.hold.outboundAudioBps.map((b) => (b / 1000).toFixed(1)).join(' ')} kbit/s`);
  } finally {
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }

  const join = summary(sixJoin);
  const confirmed = summary(sixConfirmed);
  const two = summary(twoJoin);
  const one = summary(oneToOne);
  const steps = STEPS.map(({ key, label }) => {
    const values = timelines.map((t) => t[key]).filter((v): v is number => typeof v === 'number');
    return { key, label, ...summary(values) };
  });
  const seconds = hold.windowMs / 1000;
  const streams = N_HOLD * (N_HOLD - 1);
  const serverMicrosPerParticipantSecond = hold.serverCpuMicros / (N_HOLD * seconds);
  const janusMicrosPerStreamSecond = hold.janusCpuMicros / (streams * seconds);
  // Idle, per second of the window, spread as the call's figure would be (for the same N and streams).
  const idleServerMicrosPerSecond = idle.serverCpuMicros / (idle.windowMs / 1000);
  const idleJanusMicrosPerSecond = idle.janusCpuMicros / (idle.windowMs / 1000);
  const upload = hold.report.hold!.outboundAudioBps;
  const uploadP50Kbps = (percentile(upload, 50) ?? 0) / 1000;
  const meshUploadKbps = uploadP50Kbps * (N_HOLD - 1);
  // wrtc's Opus sends about 32–40 kbit/s of a steady tone; far less means the participants' process
  // (this one) was starved of CPU and sent little, so Janus forwarded little: say so beside the figures.
  const starved = uploadP50Kbps < 20;
  const verdict = join.p50 === null ? 'not measured' : upperGoal(join.p50, GOAL_JOIN_P50_MS, 'ms');

  const figures = {
    rounds: ROUNDS,
    participants: N_JOIN,
    joinMs: join,
    confirmedMs: confirmed,
    baseline: { oneToOneInitiateToConnectedMs: one, twoParticipantJoinMs: two },
    breakdown: steps,
    subscribeOffersPerParticipant: summary(subscribeOffers),
    held: {
      participants: N_HOLD,
      windowMs: Math.round(hold.windowMs),
      serverCpuMs: Math.round(hold.serverCpuMicros / 1000),
      janusCpuMs: Math.round(hold.janusCpuMicros / 1000),
      forwardedStreams: streams,
      serverCpuMicrosPerParticipantSecond: Math.round(serverMicrosPerParticipantSecond),
      idle: { windowMs: Math.round(idle.windowMs), serverCpuMs: Math.round(idle.serverCpuMicros / 1000), janusCpuMs: Math.round(idle.janusCpuMicros / 1000) },
      janusCpuMicrosPerStreamSecond: Math.round(janusMicrosPerStreamSecond),
      outboundAudioBps: upload,
      sfuUploadKbpsPerClient: Number(uploadP50Kbps.toFixed(1)),
      meshUploadKbpsPerClient: Number(meshUploadKbps.toFixed(1)),
    },
    goal: { joinP50Ms: GOAL_JOIN_P50_MS, verdict },
    machine: machineFacts(),
  };
  fs.mkdirSync(RESULTS, { recursive: true });
  fs.writeFileSync(path.join(RESULTS, 'group-call.json'), JSON.stringify(figures, null, 2) + '\n');

  const pct = (micros: number) => `${(micros / 1e4).toFixed(3)}% of a core`;
  const detail = [
    `Where a participant's join time goes (${N_JOIN} participants joining at once, ${timelines.length} joins; ms from that participant's join or start sent):`,
    '',
    '| step | p50 | p95 |',
    '|---|---|---|',
    ...steps.map((s) => `| ${s.label} | ${ms(s.p50)} | ${ms(s.p95)} |`),
    `| subscribe offers per participant (renegotiations of its receiving connection) | ${figures.subscribeOffersPerParticipant.p50} | ${figures.subscribeOffersPerParticipant.p95} |`,
  ].join('\n');
  const notes = [
    `${ROUNDS} rounds after one uncounted warm-up round, each: a 1:1 audio call (harness accept scenario, initiate → both connected), a 2-participant group call and a ${N_JOIN}-participant group call (harness group scenario: the first starts, the others join at once; each sends its own tone and must hear every other's). Group join time = join (or start) sent → the first sound of every other participant (the last of them), each then confirmed as that participant's own tone by the harness' meter, per participant; a new room each call. The meter's confirmation needs half a second of a participant's sound (MIN_SOUND_FRAMES), so the time it confirms the last tone (reported too) is about 500 ms later than anyone hears it: the 926 ms measured before this part existed was that.`,
    `Held call: ${N_HOLD} participants, audio, ${Math.round(hold.windowMs)} ms once everyone heard everyone; CPU from /proc/<pid>/stat of the server process (${(hold.serverCpuMicros / 1000).toFixed(0)} ms) and of its embedded Janus (${(hold.janusCpuMicros / 1000).toFixed(0)} ms) over the window; Janus forwards N×(N−1) = ${streams} streams. Upload per client: wrtc's outbound-rtp bytes (payload + RTP headers, no IP/UDP) over the window, p50 over the participants (Opus from wrtc's RTCAudioSource, a steady tone).`,
    ...(starved ? [`WARNING: the participants sent ${uploadP50Kbps.toFixed(1)} kbit/s each during the held call, far below a steady Opus stream: this process was starved of CPU (load average ${os.loadavg()[0].toFixed(1)} at the end), so Janus' CPU per stream is not representative.`] : []),
    'Server: its own Node process on SQLite, with its embedded Janus (Debian, VideoRoom over HTTP on loopback); every wrtc participant shares the benchmark process. Nothing is pinned; 2 cores shared with whatever else runs, so the wrtc participants (this process) compete with the server and Janus for them.',
  ];
  const md = [
    '# Group calls through the SFU',
    '',
    notes[0],
    '',
    '| measure | p50 | p95 |',
    '|---|---|---|',
    `| ${N_JOIN} participants: join → the first sound of every other | ${ms(join.p50)} | ${ms(join.p95)} |`,
    `| ${N_JOIN} participants: join → every other's tone confirmed by the meter (+0.5 s of sound) | ${ms(confirmed.p50)} | ${ms(confirmed.p95)} |`,
    `| 2 participants: join → the first sound of the other (baseline) | ${ms(two.p50)} | ${ms(two.p95)} |`,
    `| 1:1 call: initiate → connected (baseline) | ${ms(one.p50)} | ${ms(one.p95)} |`,
    '',
    `Goal: ${N_JOIN}-participant join p50 ≤ ${GOAL_JOIN_P50_MS} ms: ${verdict}.`,
    '',
    detail,
    '',
    `Held ${N_HOLD}-participant audio call: server ${serverMicrosPerParticipantSecond.toFixed(0)} µs CPU per participant-second (${pct(serverMicrosPerParticipantSecond)}); Janus ${janusMicrosPerStreamSecond.toFixed(0)} µs CPU per forwarded stream-second (${pct(janusMicrosPerStreamSecond)}) over ${streams} streams; each client uploads ${uploadP50Kbps.toFixed(1)} kbit/s through the SFU, ${meshUploadKbps.toFixed(1)} kbit/s in a mesh. Idle, the same window with no call: server ${(idleServerMicrosPerSecond / 1000).toFixed(1)} ms CPU a second (${(idleServerMicrosPerSecond / N_HOLD).toFixed(0)} µs per would-be participant-second), Janus ${(idleJanusMicrosPerSecond / 1000).toFixed(1)} ms a second.`,
    '',
    ...notes.slice(1).map((n) => `- ${n}`),
    '',
    '## Machine',
    '',
    ...Object.entries(figures.machine).map(([k, v]) => `- ${k}: ${v}`),
    '',
  ].join('\n');
  fs.writeFileSync(path.join(RESULTS, 'group-call.md'), md);

  const result: PartResult = {
    title: 'Group calls through the SFU (embedded Janus, loopback)',
    figures: [
      {
        measure: `${N_JOIN} participants: join → the first sound of every other p50`,
        value: ms(join.p50),
        baseline: `2 participants ${ms(two.p50)}; 1:1 initiate → connected ${ms(one.p50)}`,
        ratio: join.p50 !== null && two.p50 ? `${(join.p50 / two.p50).toFixed(2)}× the 2-participant join` : undefined,
        goal: `≤ ${GOAL_JOIN_P50_MS} ms`,
        verdict,
      },
      { measure: `${N_JOIN} participants: join → the first sound of every other p95`, value: ms(join.p95), baseline: `2 participants ${ms(two.p95)}; 1:1 ${ms(one.p95)}` },
      { measure: `${N_JOIN} participants: join → every other's tone confirmed by the harness' meter p50 (half a second of sound later)`, value: ms(confirmed.p50) },
      {
        measure: `${N_HOLD}-participant audio call: our server's CPU per participant-second (signalling)`,
        value: `${serverMicrosPerParticipantSecond.toFixed(0)} µs (${pct(serverMicrosPerParticipantSecond)})`,
        baseline: `idle server, no call: ${(idleServerMicrosPerSecond / N_HOLD).toFixed(0)} µs per ${N_HOLD}th of a second`,
      },
      {
        measure: `${N_HOLD}-participant audio call: Janus' CPU per forwarded stream-second (${streams} streams)`,
        value: `${janusMicrosPerStreamSecond.toFixed(0)} µs (${pct(janusMicrosPerStreamSecond)})`,
        baseline: `idle Janus, no call: ${(idleJanusMicrosPerSecond / 1000).toFixed(1)} ms CPU a second`,
      },
      {
        measure: `${N_HOLD}-participant audio call: each client's upload`,
        value: `SFU: 1 stream, ${uploadP50Kbps.toFixed(1)} kbit/s`,
        baseline: `mesh: ${N_HOLD - 1} streams, ${meshUploadKbps.toFixed(1)} kbit/s`,
        ratio: `${(1 / (N_HOLD - 1)).toFixed(2)}×`,
      },
    ],
    notes,
    detail,
  };
  emitResult(result);
}

main().then(
  // wrtc keeps native handles alive after its connections close.
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`group-call failed: ${String((err as Error)?.stack ?? err)}\n`);
    process.exit(1);
  },
);
