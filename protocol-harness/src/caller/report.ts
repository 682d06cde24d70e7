// A call run's report: the scenario's report plus the verdict of the CI contract (exit status,
// JUnit cases), and its human-readable summary (--json prints the report itself).
import type { JUnitSuite } from '../shared/junit';
import { EXIT, type StopSignal } from '../shared/outcome';
import type { ExpectationResult } from './expect';
import type { SideQuality } from './quality';
import type { ScenarioReport, SideAudio, SideVideo } from './scenarios';

export interface CallRunReport extends ScenarioReport {
  /** Stopped by SIGINT or SIGTERM before the scenario ended: exit 130 or 143. */
  interrupted: boolean;
  signal?: StopSignal;
  /** What the failure was: the system's (1), or the test could not run (2); null when it passed. */
  failure: 'expectation' | 'infrastructure' | null;
  exitCode: number;
  /** --expect on the call's quality, each held or not; a missed one fails the run (exit 1). */
  expectations?: ExpectationResult[];
}

/**
 * Failed steps that say the test could not run rather than that the call misbehaved: a user
 * could not sign in (server unreachable, login refused), or relay-only was asked of a server that
 * hands out no TURN server. Matched on the steps' descriptions (caller/scenarios.ts).
 */
const INFRASTRUCTURE_STEPS = [/^[\w ()]+ signs in, connects over STOMP and fetches ICE servers: /, /^the server offers a TURN server for relay-only calls/, /^server unreachable: /, /^could not run: /];

export function failureKind(reason: string | null): CallRunReport['failure'] {
  if (reason === null) return null;
  return INFRASTRUCTURE_STEPS.some((re) => re.test(reason)) ? 'infrastructure' : 'expectation';
}

/**
 * The verdict: a signal decides first (130, 143), then a scenario that could not run (2), then any
 * failed expectation of the scenario or of --expect (1). Expectations are only judged on a call
 * that ran to its end: a half-run call's quality proves nothing either way.
 */
export function withCallVerdict(report: ScenarioReport, signal: StopSignal | null, expectations: ExpectationResult[] = []): CallRunReport {
  const judged = report.ok && !signal ? expectations : [];
  const missed = judged.some((e) => !e.ok);
  const ok = report.ok && !signal && !missed;
  const failure = signal ? null : report.ok ? (missed ? 'expectation' : null) : failureKind(report.reason);
  const exitCode = signal ? (signal === 'SIGTERM' ? EXIT.sigterm : EXIT.sigint) : failure === 'infrastructure' ? EXIT.infrastructure : ok ? EXIT.passed : EXIT.failed;
  return { ...report, ok, interrupted: signal !== null, ...(signal ? { signal } : {}), failure, exitCode, ...(judged.length > 0 ? { expectations: judged } : {}) };
}

/** A testcase per expectation that held, and one for the first that did not (the scenario stops there). */
export function callJUnit(r: CallRunReport, startedAt: Date, seconds: number): JUnitSuite {
  const classname = `harness.call.${r.scenario}`;
  const cases: JUnitSuite['cases'] = r.checks.map((name) => ({ name, classname, failure: null }));
  if (r.reason !== null) {
    const at = r.reason.indexOf(': ');
    cases.push({ name: at > 0 ? r.reason.slice(0, at) : r.reason, classname, failure: r.reason, kind: r.failure === 'infrastructure' ? 'error' : 'failure' });
  }
  for (const e of r.expectations ?? []) cases.push({ name: `expect ${e.expression}`, classname: `${classname}.quality`, failure: e.ok ? null : e.description });
  if (r.interrupted) cases.push({ name: 'the scenario completed', classname, failure: `interrupted by ${r.signal ?? 'a signal'}` });
  return { name: `harness call ${r.scenario}`, timestamp: startedAt, seconds, cases, properties: { relayOnly: r.relayOnly, exitCode: r.exitCode } };
}

function qualityLine(side: string, q: SideQuality): string {
  const s = q.summary;
  const mean = (stat: { mean: number } | null, unit: string) => (stat ? `${stat.mean}${unit}` : 'n/a');
  const p95 = (stat: { p95: number } | null, unit: string) => (stat ? `${stat.p95}${unit}` : 'n/a');
  return `  quality ${side}: MOS ${mean(s.mos, '')} (min ${s.mos?.min ?? 'n/a'}), loss ${mean(s.lossPct, ' %')}, RTT ${mean(s.rttMs, ' ms')} (p95 ${p95(s.rttMs, ' ms')}), jitter ${mean(s.jitterMs, ' ms')}, in ${mean(s.bitrateKbps, ' kbps')}, ${s.samples} samples`;
}

const ms = (v: number | null | undefined) => (v === null || v === undefined ? 'n/a' : `${v} ms`);

function audioLine(side: string, a: SideAudio): string {
  const measured = a.frequencyHz === null ? 'no sound' : `${a.frequencyHz} Hz (tone share ${a.toneShare})`;
  return `  audio   ${side}: ${a.heard ? 'heard' : 'did NOT hear'} the ${a.expectedHz} Hz tone, measured ${measured}, ${a.soundFrames}/${a.frames} frames with sound`;
}

function videoLine(side: string, v: SideVideo): string {
  const size = v.width === null ? 'no frames' : `${v.width}×${v.height} at ${v.fps ?? 'n/a'} fps`;
  return `  video   ${side}: ${v.seen ? 'saw' : 'did NOT see'} the other side's picture, ${size}, ${v.framesDecoded}/${v.framesReceived} frames read back (${v.distinctCounters} distinct)`;
}

export function formatReport(r: ScenarioReport & Partial<Pick<CallRunReport, 'interrupted' | 'signal' | 'failure' | 'expectations'>>): string {
  const verdict = r.interrupted ? `INTERRUPTED (${r.signal ?? 'signal'})` : r.ok ? 'PASS' : r.failure === 'infrastructure' ? 'FAIL (infrastructure)' : 'FAIL';
  const lines = [`scenario ${r.scenario}${r.relayOnly ? ' (relay only)' : ''}: ${verdict}`];
  for (const check of r.checks) lines.push(`  ✔ ${check}`);
  if (r.reason) lines.push(`  ✘ ${r.reason}`);
  const t = r.timings;
  const timings: string[] = [];
  if (t.initiateToIncomingMs !== undefined) timings.push(`initiate→incoming ${ms(t.initiateToIncomingMs)}`);
  if (t.initiateToRingingMs !== undefined) timings.push(`initiate→ringing ${ms(t.initiateToRingingMs)}`);
  if (t.acceptToAcceptedMs !== undefined) timings.push(`accept→accepted ${ms(t.acceptToAcceptedMs)}`);
  if (t.acceptToConnectedMs) timings.push(`accept→connected caller ${ms(t.acceptToConnectedMs.caller)} / callee ${ms(t.acceptToConnectedMs.callee)}`);
  if (t.initiateToConnectedMs !== undefined) timings.push(`initiate→connected ${ms(t.initiateToConnectedMs)}`);
  if (t.firstAudioFrameMs) timings.push(`accept→first audio caller ${ms(t.firstAudioFrameMs.caller)} / callee ${ms(t.firstAudioFrameMs.callee)}`);
  if (t.firstVideoFrameMs) timings.push(`accept→first video frame caller ${ms(t.firstVideoFrameMs.caller)} / callee ${ms(t.firstVideoFrameMs.callee)}`);
  if (t.initiateToFirstFrameMs !== undefined) timings.push(`initiate→first video frame ${ms(t.initiateToFirstFrameMs)}`);
  if (t.ringTimeoutMs !== undefined) timings.push(`initiate→timeout ${ms(t.ringTimeoutMs)}`);
  if (t.dropToConnectionLostMs !== undefined) timings.push(`drop→connection-lost ${ms(t.dropToConnectionLostMs)}`);
  if (t.reconnectToResumeMs !== undefined) timings.push(`reconnect→resume ${ms(t.reconnectToResumeMs)}`);
  if (t.reconnectToConnectedMs !== undefined) timings.push(`reconnect→connected ${ms(t.reconnectToConnectedMs)}`);
  if (t.reconnectToSoundMs !== undefined) timings.push(`reconnect→sound again ${ms(t.reconnectToSoundMs)}`);
  if (t.renegotiationMs !== undefined) timings.push(`offer→answer ${ms(t.renegotiationMs)}`);
  if (t.upgradeToFirstFrameMs !== undefined) timings.push(`camera on→first frame seen ${ms(t.upgradeToFirstFrameMs)}`);
  if (timings.length > 0) lines.push(`  timings ${timings.join(', ')}`);
  if (r.audio) lines.push(audioLine('caller', r.audio.caller), audioLine('callee', r.audio.callee));
  if (r.video) lines.push(videoLine('caller', r.video.caller), videoLine('callee', r.video.callee));
  if (r.quality) {
    lines.push(qualityLine('caller', r.quality.caller), qualityLine('callee', r.quality.callee));
    const n = r.quality.network;
    if (n) lines.push(`  network ${n.side}: asked ${n.asked}${n.changes ? ` then ${n.changes.join(', ')}` : ''}; measured loss ${n.measuredLossPct} % per impaired link`);
  }
  for (const e of r.expectations ?? []) lines.push(`  ${e.ok ? '✔' : '✘'} expect ${e.description}`);
  lines.push(`  ended   caller's last reason ${r.lastReason.caller ?? 'none'}, callee's ${r.lastReason.callee ?? 'none'}`);
  for (const why of r.reconnects) lines.push(`  ~ reconnected before CONNECTED: ${why}`);
  if (r.paths) {
    const path = (p: { local: string; remote: string } | null) => (p ? `${p.local}→${p.remote}` : 'unknown');
    lines.push(`  path    caller ${path(r.paths.caller)}, callee ${path(r.paths.callee)}`);
  }
  return lines.join('\n');
}
